"""How much of the corpus ``prepare`` sees, and whether it sent anything unsafe: ``prepare`` alone on every task.

``uv run --frozen python -m tests.realapps.prepare_share [APP ...]`` starts each corpus app (every folder of
``tests/realapps/apps/`` with ``app.py`` and ``tasks.py``), reseeds it, runs ``prepare`` on each task as the corpus
tests do (in the app's signed-in ``--profile``, a fresh one for a sign-in task: see ``catalogue.py``), and prints
per task and per app:
the targeted steps (steps with a ``target``), how many prepare resolved (``preparedNumber`` set), why the others
were not read, and every unsafe request the app's own log shows while prepare ran. A prepare that fails has seen
the targets it resolved before it stopped (its bundle's events say which). ``--json FILE`` also writes the figures.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import orjson

from tests.realapps.catalogue import CatalogueApp, CatalogueTask, app_names, load, targeted_steps
from tests.realapps.corpus import REQUEST_LINE
from tests.realapps.harness import RunningApp
from tests.realapps.twophase import UNSAFE_METHODS, prepare, requests_in


@dataclass
class TaskShare:
    task: str
    targeted: int
    seen: int
    error: str | None = None
    not_read: dict[str, str] = field(default_factory=dict)
    unsafe: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


def share_of(app: RunningApp, cat: CatalogueApp, task: CatalogueTask, work: Path, profile: Path | None) -> TaskShare:
    """prepare alone on one task, on a freshly seeded app, in the profile its tests run it in."""
    cat.reseed(app)
    (work / "ws").mkdir(parents=True, exist_ok=True)
    where = profile if task.signed_in else work / "fresh-profile"
    start = len(app.log_text())
    code, data, _ = prepare(work / "ws", app, task.steps, task.inputs(), where)
    logged = app.log_text()[start:]
    # Flask-Admin and react-admin log "REQ METHOD path status"; Django and Wagtail as Django's server does.
    unsafe = requests_in(logged).unsafe + [f"{m['method']} {m['path']} {m['status']}"
                                           for m in REQUEST_LINE.finditer(logged) if m["method"] in UNSAFE_METHODS]
    targeted = targeted_steps(task.steps)
    bundle = data.get("bundle") or (data.get("details") or {}).get("bundle")
    seen = len(resolved_steps(Path(bundle))) if bundle else 0
    if code not in (0, 2):
        return TaskShare(task.name, targeted, seen, error=f"{data.get('code')}: {str(data.get('error'))[:200]}",
                         unsafe=unsafe)
    return TaskShare(task.name, targeted, seen, not_read={str(n["step"]): n["reason"] for n in data.get("notRead", [])},
                     unsafe=unsafe, problems=[f"step {p['step']}: {p['code']}" for p in data.get("problems", [])])


def resolved_steps(bundle: Path) -> set[int]:
    """The steps whose target prepare resolved to an element, from its events (also when it stopped early)."""
    steps = set()
    for line in (bundle / "events.jsonl").read_text(encoding="utf-8").splitlines():
        event = orjson.loads(line)
        if event.get("status") == "ok" and (event.get("target") or {}).get("number") is not None:
            steps.add(int(event["step"]))
    return steps


def measure(name: str, root: Path) -> list[TaskShare]:
    cat = load(name)
    out = []
    with cat.running(root / name) as app:
        profile = cat.signed_in_profile(app, root / name / "profile" / "profile")
        for task in cat.all_tasks():
            out.append(share_of(app, cat, task, root / name / task.name, profile))
    return out


def report(results: dict[str, list[TaskShare]]) -> dict[str, Any]:
    total_targeted = total_seen = 0
    summary: dict[str, Any] = {"apps": {}}
    for name, shares in results.items():
        targeted = sum(s.targeted for s in shares)
        seen = sum(s.seen for s in shares)
        total_targeted, total_seen = total_targeted + targeted, total_seen + seen
        unsafe = sum(len(s.unsafe) for s in shares)
        print(f"{name}: prepare saw {seen}/{targeted} targeted steps ({seen / max(targeted, 1):.1%}); unsafe requests "
              f"while preparing: {unsafe}")
        for s in shares:
            extra = f" ERROR {s.error}" if s.error else ""
            print(f"  {s.task}: {s.seen}/{s.targeted}{extra}")
            for step, why in s.not_read.items():
                print(f"    not read: step {step}: {why}")
            for problem in s.problems:
                print(f"    problem: {problem}")
            for line in s.unsafe:
                print(f"    UNSAFE: {line}")
        summary["apps"][name] = {"targeted": targeted, "seen": seen, "unsafe": unsafe,
                                 "tasks": [asdict(s) for s in shares]}
    summary.update(targeted=total_targeted, seen=total_seen, share=round(total_seen / max(total_targeted, 1), 4))
    print(f"corpus: prepare saw {total_seen}/{total_targeted} targeted steps ({summary['share']:.1%})")
    return summary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("apps", nargs="*", help=f"apps to measure (default all: {', '.join(app_names())})")
    parser.add_argument("--json", type=Path, default=None, help="also write the figures to this file")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="prepare-share-") as tmp:
        results = {name: measure(name, Path(tmp)) for name in args.apps or app_names()}
    summary = report(results)
    if args.json is not None:
        args.json.write_bytes(orjson.dumps(summary, option=orjson.OPT_INDENT_2) + b"\n")
    return 0 if all(not s.unsafe for shares in results.values() for s in shares) else 1


if __name__ == "__main__":
    sys.exit(main())
