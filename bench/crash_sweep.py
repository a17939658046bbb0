"""Benchmark (not in the suite): kill a command's Chromium at every 25 ms from 0 to 1.5 s after its process
appears, for ``run --confirm``, ``prepare``, ``browserops mcp`` (first call) and ``record``, plus 20 kills of
``run --confirm`` at random moments (0.2–3 s after Chromium appears). Prints JSON per command: kills, how many
ended ``BROWSER_CRASHED`` within 10 s, hangs, tracebacks, the codes seen and the most seconds from kill to exit.

There is no baseline tool here: the yardstick is the issue's own bar (every kill: BROWSER_CRASHED within 10 s, 0
hangs). Four kills run side by side, each worker in a workspace of its own.

    uv run python bench/crash_sweep.py [--step 0.025] [--until 1.5] [--random 20] [--out bench/results/crash_sweep.json]
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from browserops.demo_site import DemoSite
from browserops.evidence import verify_bundle
from tests.crash_sweep import (
    EXIT_WITHIN_S,
    Outcome,
    mcp_outcome,
    prepare_outcome,
    record_outcome,
    run_outcome,
)
from tests.plan_e2e.helpers import EXPENSE_INPUT, bundle_of, prepare_expense

WORKERS = 4


def sweep(delays: list[float], one: Callable[[int, float], Outcome]) -> list[Outcome]:
    def worker(i: int) -> list[Outcome]:
        return [one(i, d) for d in delays[i::WORKERS]]

    with ThreadPoolExecutor(WORKERS) as pool:
        return [o for batch in pool.map(worker, range(WORKERS)) for o in batch]


def summary(outcomes: list[Outcome], bundles: dict[float, str] | None = None) -> dict[str, Any]:
    ok = [o for o in outcomes if o.crashed and not o.traceback and (o.seconds or 99) < EXIT_WITHIN_S]
    out: dict[str, Any] = {
        "kills": len(outcomes),
        "crashed_within_10s": len(ok),
        "hangs": sum(o.hung for o in outcomes),
        "tracebacks": sum(o.traceback for o in outcomes),
        "codes": dict(Counter(str(o.code) for o in outcomes)),
        "exit_codes": dict(Counter(str(o.exit_code) for o in outcomes)),
        "max_seconds_to_exit": max((o.seconds or 0.0 for o in outcomes), default=0.0),
        "failures": [o.brief()[:600] for o in outcomes if o not in ok],
    }
    if bundles is not None:
        out["bundles_not_incomplete"] = sorted(d for d, s in bundles.items() if s != "incomplete")
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--step", type=float, default=0.025)
    parser.add_argument("--until", type=float, default=1.5)
    parser.add_argument("--random", type=int, default=20)
    parser.add_argument("--only", default="run,prepare,mcp,record,random")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    delays = [round(i * args.step, 4) for i in range(int(args.until / args.step) + 1)]
    only = set(args.only.split(","))
    site = DemoSite()
    site.start()
    root = Path(tempfile.mkdtemp(prefix="crash-sweep-"))
    spaces = [root / f"ws{i}" for i in range(WORKERS)]
    for ws in spaces:
        ws.mkdir()
    plans = [prepare_expense(ws, site.base_url) for ws in spaces] if only & {"run", "random"} else []
    result: dict[str, Any] = {"grid_s": {"from": 0.0, "to": args.until, "step": args.step}, "workers": WORKERS}
    started = time.monotonic()

    def run_one(bundles: dict[float, str]) -> Callable[[int, float], Outcome]:
        def one(i: int, d: float) -> Outcome:
            o = run_outcome(spaces[i], plans[i], d)
            bundles[d] = verify_bundle(bundle_of(spaces[i], plans[i]["requestId"])).status
            return o
        return one

    if "run" in only:
        bundles: dict[float, str] = {}
        result["run"] = summary(sweep(delays, run_one(bundles)), bundles)
    if "prepare" in only:
        result["prepare"] = summary(sweep(delays, lambda i, d: prepare_outcome(spaces[i], EXPENSE_INPUT,
                                                                               site.base_url, d)))
    if "mcp" in only:
        result["mcp"] = summary(sweep(delays, lambda i, d: mcp_outcome(spaces[i], site.base_url, d)))
        result["mcp"]["note"] = "the server answers the call and carries on: exit 0 after stdin closes"
    if "record" in only:
        result["record"] = summary(sweep(delays, lambda i, d: record_outcome(spaces[i], site.base_url, d)))
    if "random" in only:
        rng = random.Random(20)
        moments = sorted(round(rng.uniform(0.2, 3.0), 3) for _ in range(args.random))
        rb: dict[float, str] = {}
        result["random_run"] = summary(sweep(moments, run_one(rb)), rb)
        result["random_run"]["moments_s"] = moments
    result["seconds"] = round(time.monotonic() - started, 1)
    site.stop()
    text = orjson.dumps(result, option=orjson.OPT_INDENT_2).decode()
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
