"""The end of ./scripts/test.sh: the slowest tests and the test directories over their time budget.

Reads the JUnit XML the suite wrote (each test's setup + call + teardown time, on whichever worker ran it, and the
CPU seconds its processes used: tests/cpu_meter.py) and the budget table ``tests/budgets.toml`` (worker-seconds per
directory). A directory over budget is a warning, not a failure: timings vary with the machine's load, and the point
is that a slow new test is noticed in review, not at CI's limit. The CPU seconds vary far less with load: on a
loaded machine they tell what the tests cost better than their wall time.

    python scripts/test_report.py JUNIT_XML [--slowest 15] [--budgets tests/budgets.toml]
"""

from __future__ import annotations

import argparse
import sys
import tomllib
import xml.etree.ElementTree as ET
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_times(junit: Path) -> list[tuple[str, float, float]]:
    """(test id as pytest names it, wall seconds, CPU seconds) for every test case in the report."""
    out = []
    for case in ET.parse(junit).getroot().iter("testcase"):
        classname, name = case.get("classname", ""), case.get("name", "")
        parts = classname.split(".")
        # classname is the dotted module path (plus a class, if any); the file is the longest prefix that exists.
        for cut in range(len(parts), 0, -1):
            path = Path(*parts[:cut]).with_suffix(".py")
            if (ROOT / path).is_file():
                test_id = "::".join([path.as_posix(), *parts[cut:], name])
                break
        else:
            test_id = f"{classname}::{name}"
        cpu = [float(p.get("value") or 0) for p in case.iter("property") if p.get("name") == "cpu_s"]
        out.append((test_id, float(case.get("time") or 0.0), sum(cpu)))
    return out


def directory_of(test_id: str) -> str:
    """``tests/<dir>`` for a test in a sub-directory of tests/, ``tests`` for one directly in it."""
    parts = test_id.split("::", 1)[0].split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("junit", type=Path)
    parser.add_argument("--slowest", type=int, default=15)
    parser.add_argument("--budgets", type=Path, default=ROOT / "tests" / "budgets.toml")
    args = parser.parse_args(argv)
    if not args.junit.is_file():
        print(f"test report: no {args.junit} (the suite did not get to write it)")
        return 0
    times = test_times(args.junit)
    print(f"\nThe {args.slowest} slowest tests (setup + call + teardown: wall seconds, CPU seconds):")
    for test_id, seconds, cpu in sorted(times, key=lambda t: -t[1])[:args.slowest]:
        print(f"  {seconds:7.1f} {cpu:6.1f}  {test_id}")
    spent: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0])
    for test_id, seconds, cpu in times:
        row = spent[directory_of(test_id)]
        row[0], row[1], row[2] = row[0] + seconds, row[1] + cpu, row[2] + 1
    budgets: dict[str, float] = tomllib.loads(args.budgets.read_text(encoding="utf-8"))["budgets"]
    print("\nPer test directory: wall worker-seconds / budget (tests/budgets.toml), CPU seconds:")
    over = []
    for directory in sorted(spent, key=lambda d: -spent[d][0]):
        wall, cpu, count = spent[directory]
        budget = budgets.get(directory)
        note = "" if budget is None or wall <= budget else "  OVER BUDGET"
        if budget is None:
            note = "  NO BUDGET: add one to tests/budgets.toml"
        elif wall > budget:
            over.append(directory)
        shown = "   -" if budget is None else f"{budget:4.0f}"
        print(f"  {wall:6.0f} / {shown} {cpu:7.0f}  {directory} ({count:.0f} tests){note}")
    wall_all, cpu_all = sum(r[0] for r in spent.values()), sum(r[1] for r in spent.values())
    print(f"  {wall_all:6.0f}        {cpu_all:7.0f}  in all ({len(times)} tests)")
    if over:
        print(f"WARNING: over budget: {', '.join(over)} (a slower test or a loaded machine: compare the CPU seconds)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
