"""Survey the real-application corpus: each task once through browserops (prepare -> run --confirm -> evidence
verify, in a signed-in --profile) and once through its plain Playwright baseline, each on a fresh seed, and what
the app's database says after each. Prints two lines per task and writes the figures as JSON.

    uv run --frozen python -m tests.realapps.survey [--out FILE] [django_admin] [wagtail_site]

Per task: passes, or where it fails (phase, step, code, message); "FALSE COMPLETE" when run said complete while
the database lacks the change; the unsafe requests prepare let through (the app's own request log); the targeted
steps prepare resolved and read; prepare and run wall times (a CLI call each, browser start included), the run's
own steps, and the baseline's steps (browser started and signed in before the clock starts).
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

from tests.realapps.corpus import Outcome, Shots, Task, baseline_page, drive
from tests.realapps.harness import RunningApp

APPS = ("django_admin", "wagtail_site")


def _check(task: Task, app: RunningApp, exports: list[Path]) -> str | None:
    try:
        task.check(app, exports)
    except AssertionError as exc:
        return str(exc)[:300]
    return None


async def _baseline(task: Task, app: RunningApp, tasks: ModuleType, shots_dir: Path) -> tuple[float, str | None]:
    async with baseline_page() as page:
        if task.profile:
            await tasks.sign_in(page, app.base_url)
        shots = Shots(shots_dir)
        began = time.monotonic()
        try:
            await task.baseline(page, app.base_url, shots)
        except Exception as exc:  # the peer failing is a figure of the survey, not its end
            return time.monotonic() - began, f"baseline failed: {exc}"[:300]
        spent = time.monotonic() - began
    return spent, _check(task, app, sorted(p for p in shots.folder.iterdir() if p.suffix != ".png"))


def _row(task: Task, outcome: Outcome, check: str | None, baseline_s: float, baseline_check: str | None,
         known_gap: str | None) -> dict[str, Any]:
    seen, targeted = outcome.prepare_seen()
    run = outcome.run if outcome.run.get("status") == "ok" else (outcome.run.get("details") or {}).get("run") or {}
    steps_s = sum(step.get("ms") or 0 for step in run.get("steps", [])) / 1000
    return {"task": task.name, "result": outcome.describe(), "complete": outcome.completed,
            "checkPasses": check is None, "check": check, "falseComplete": outcome.completed and check is not None,
            "prepareUnsafe": [f"{m} {p} {s}" for m, p, s in outcome.unsafe_during_prepare],
            "prepareSeen": seen, "prepareTargeted": targeted, "prepareS": round(outcome.prepare_s, 2),
            "runS": round(outcome.run_s, 2), "runStepsS": round(steps_s, 2), "baselineS": round(baseline_s, 2),
            "baselineCheck": baseline_check,
            "knownGap": known_gap}


def survey_app(name: str, tmp: Path) -> list[dict[str, Any]]:
    app_module = importlib.import_module(f"tests.realapps.apps.{name}.app")
    tasks = importlib.import_module(f"tests.realapps.apps.{name}.tasks")
    rows = []
    with app_module.start(tmp / name) as app:
        profile = tmp / name / "profile"
        app_module.reseed(app)
        signed = drive(app, tasks.SIGN_IN, tmp / name / "ws-sign-in", profile)
        if not signed.completed:
            raise SystemExit(f"{name}: signing in failed: {signed.describe()}")
        for task in [*tasks.TASKS, tasks.REFUSED]:
            app_module.reseed(app)
            where = tmp / name / task.name
            outcome = drive(app, task, where / "ws", profile if task.profile else where / "fresh-profile")
            check = _check(task, app, outcome.exports)
            app_module.reseed(app)
            baseline_s, baseline_check = asyncio.run(_baseline(task, app, tasks, where / "shots"))
            row = _row(task, outcome, check, baseline_s, baseline_check, tasks.KNOWN_GAPS.get(task.name))
            rows.append(row)
            unsafe = f"; prepare sent {row['prepareUnsafe']}" if row["prepareUnsafe"] else ""
            false = " FALSE COMPLETE" if row["falseComplete"] else ""
            print(f"{name:13} {task.name:26} seen {row['prepareSeen']}/{row['prepareTargeted']}  "
                  f"prepare {row['prepareS']:5.1f}s run {row['runS']:5.1f}s (steps {row['runStepsS']:5.1f}s) "
                  f"baseline {row['baselineS']:5.1f}s"
                  f"{false}{unsafe}\n    {row['result']} | db check: {'passes' if check is None else 'fails'}"
                  f" | baseline: {'passes' if baseline_check is None else baseline_check}", flush=True)
    return rows


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("apps", nargs="*", metavar="APP", help=f"any of {', '.join(APPS)} (default: all)")
    parser.add_argument("--out", type=Path, help="write the figures as JSON here")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.apps) - set(APPS))
    if unknown:
        parser.error(f"no corpus app named {', '.join(unknown)}; choose from {', '.join(APPS)}")
    results = {}
    with tempfile.TemporaryDirectory(prefix="realapps-survey-") as tmp:
        for name in args.apps or APPS:
            results[name] = survey_app(name, Path(tmp))
    if args.out:
        args.out.write_text(json.dumps(results, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
