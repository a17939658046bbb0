"""Benchmark: the real-app corpus (tests/realapps) through browserops' two phases, against a plain Playwright script
doing each task the same way in the same run.

Per app (Django admin, Flask-Admin, react-admin, Wagtail, and the UI kits of issue 34: Refine + antd in zh-CN,
Vue 3 + Element Plus in zh-CN, Django admin under django-unfold in Russian; each started on a free port with its
seeded database):

- **tasks done**: ``prepare`` -> ``run --confirm`` -> ``evidence verify`` through the real CLI (in process, as
  the corpus tests drive it), in the signed-in ``--profile`` the app's tests use (a fresh one for sign-in tasks),
  and the app's own database check passes;
- **false completes**: the run said ``complete`` and evidence verify passed, while the database is as seeded
  (nothing saved; the worst outcome with the next: a person would believe it);
- **wrong completes**: the run said ``complete`` and evidence verify passed, while the database holds something
  other than the plan's values (the task's check compares every field the plan set; the app's ``check_unchanged``
  tells it from a false complete);
- **the plain script's tasks** (``baseline_done``): the task's ``baseline`` did it and the database check saw it
  — run once for a task browserops did not do too (a known gap), so a gap is browserops' and not the task's;
- **prepare's share**: targeted steps (steps with a ``target``) whose target prepare resolved, counted from the
  bundle's events as ``tests/realapps/prepare_share.py`` counts them (a prepare that stopped has seen the
  targets it resolved before it stopped), and the unsafe requests (POST/PUT/PATCH/DELETE) the app's own log shows
  while prepare ran;
- **time**: ``run --confirm`` (Chromium launch, every step acted on with before/after screenshots, evidence
  written) against the task's ``baseline`` from its ``tasks.py``: a plain Playwright script doing the same steps
  with the same screenshots, timed from its Chromium launch to its last step, in a fresh context holding the
  signed-in cookies (the run's ``--profile`` holds them too; react-admin signs in in both). Only tasks done by
  both sides are compared, each pair in the same round on a freshly reseeded database. ``ratio`` = browserops /
  baseline, medians over rounds; the per-app and overall ratios are sums over the compared tasks. Goal: <= 1.3x
  per app and overall (``goal_met``);
- **blank screenshots** (first round): shots of one colour, a page not drawn yet, on each side (``blank_shots``:
  the run's bundle and the baseline's folder). Equal work means the same evidence: a baseline that shoots the
  instant a navigating click returns gets white pages, which cost nothing to take.

Known gaps (each app's ``KNOWN_GAPS``) are attempted like every task: a gap that now goes through counts as done.

    uv run --frozen python bench/real_apps.py [--apps django_admin ...] [--tasks NAME ...] [--rounds 1]
                                               [--out bench/results/real_apps.json]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.machine import machine_end, machine_start
from tests.realapps.catalogue import CatalogueApp, CatalogueTask, app_names, load, targeted_steps
from tests.realapps.prepare_share import resolved_steps

GOAL_RATIO = 1.3


def blank_png(path: Path) -> bool:
    """A screenshot of one colour (a page not drawn yet): its decompressed, filtered rows hold a handful of byte
    values (a drawn page's text and edges give hundreds)."""
    data = path.read_bytes()
    at, idat = 8, bytearray()  # after the signature: chunks of length, type, data, CRC
    while at + 8 <= len(data):
        length = int.from_bytes(data[at:at + 4], "big")
        if data[at + 4:at + 8] == b"IDAT":
            idat += data[at + 8:at + 8 + length]
        at += 12 + length
    try:
        return len(set(zlib.decompress(bytes(idat)))) <= 16
    except zlib.error:
        return False


def _blank(folder: Path | None) -> list[int]:
    """[blank, all] screenshots in ``folder`` (and below)."""
    shots = sorted(folder.rglob("*.png")) if folder is not None and folder.is_dir() else []
    return [sum(1 for p in shots if blank_png(p)), len(shots)]


def _seen(attempt_bundle: Path | None) -> int:
    return len(resolved_steps(attempt_bundle)) if attempt_bundle is not None else 0


def _baseline_round(app: Any, cat: CatalogueApp, task: CatalogueTask, work: Path,
                    state: dict[str, Any] | None) -> tuple[float | None, str | None]:
    """(seconds, None) when the baseline did the task and the database check sees it, else (None, why)."""
    cat.reseed(app)
    shots = work / "shots"
    try:
        seconds = asyncio.run(task.baseline(app, shots, state))
    except Exception as exc:  # a baseline that breaks is recorded, it does not end the benchmark
        return None, f"{type(exc).__name__}: {str(exc)[:300]}"
    files = sorted(p for p in shots.rglob("*") if p.is_file() and p.suffix != ".png")
    try:
        if task.modern:
            task.raw.check(app)
            if task.raw.check_bundle is not None:
                task.raw.check_bundle(app, shots)
        else:
            task.raw.check(app, files)
    except AssertionError as exc:
        return None, f"the baseline's change is not in the database: {str(exc)[:300]}"
    return seconds, None


def measure_app(name: str, root: Path, only: set[str], rounds: int) -> dict[str, Any]:
    cat = load(name)
    rows: list[dict[str, Any]] = []
    with cat.running(root / "app") as app:
        profile = cat.signed_in_profile(app, root / "profile" / "profile")
        state = cat.signed_in_state(app)
        for task in cat.all_tasks():
            if only and task.name not in only:
                continue
            print(f"{name}/{task.name} ...", file=sys.stderr, flush=True)
            row: dict[str, Any] = {"task": task.name, "known_gap": task.known_gap is not None,
                                   "targeted": targeted_steps(task.steps)}
            run_times: list[float] = []
            base_times: list[float] = []
            for round_ in range(rounds):
                work = root / task.name / f"round{round_}"
                cat.reseed(app)
                attempt = task.attempt(app, work, profile)
                if round_ == 0:
                    row.update(done=attempt.done, false_complete=attempt.false_complete,
                               wrong_complete=attempt.wrong_complete,
                               seen=_seen(attempt.bundle), unsafe_during_prepare=attempt.unsafe_during_prepare,
                               failure=None if attempt.done else (attempt.failure or attempt.check_error),
                               prepare_s=round(attempt.prepare_s, 2))
                    row["blank_shots"] = {"run": _blank(attempt.bundle / "screenshots" if attempt.bundle else None)}
                if not attempt.done:
                    break
                run_times.append(attempt.run_s)
                seconds, why = _baseline_round(app, cat, task, work, state)
                if seconds is None:
                    row["baseline_failed"] = why
                    break
                base_times.append(seconds)
                if round_ == 0:
                    row["blank_shots"]["baseline"] = _blank(work / "shots")
            if not row.get("done"):  # the plain script still does the task: the corpus asks nothing undoable
                seconds, why = _baseline_round(app, cat, task, root / task.name / "baseline", state)
                if seconds is None:
                    row["baseline_failed"] = why
            row["baseline_done"] = "baseline_failed" not in row
            if run_times and len(base_times) == len(run_times):
                row.update(run_s=round(statistics.median(run_times), 2),
                           baseline_s=round(statistics.median(base_times), 2))
                row["ratio"] = round(row["run_s"] / row["baseline_s"], 3)
            print(f"  {orjson.dumps(row).decode()}", file=sys.stderr, flush=True)
            rows.append(row)
    return summarise(rows)


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    compared = [r for r in rows if "ratio" in r]
    run_s = sum(r["run_s"] for r in compared)
    base_s = sum(r["baseline_s"] for r in compared)
    return {
        "tasks": len(rows),
        "done": sum(1 for r in rows if r.get("done")),
        "false_completes": sum(1 for r in rows if r.get("false_complete")),
        "wrong_completes": sum(1 for r in rows if r.get("wrong_complete")),
        "baseline_done": sum(1 for r in rows if r.get("baseline_done")),
        "targeted": sum(r["targeted"] for r in rows),
        "seen": sum(r.get("seen", 0) for r in rows),
        "unsafe_during_prepare": sum(len(r.get("unsafe_during_prepare", [])) for r in rows),
        "compared": len(compared),
        "run_s": round(run_s, 2),
        "baseline_s": round(base_s, 2),
        "ratio": round(run_s / base_s, 3) if base_s else None,
        "blank_shots": {side: [sum(r.get("blank_shots", {}).get(side, [0, 0])[i] for r in rows) for i in (0, 1)]
                        for side in ("run", "baseline")},
        "rows": rows,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--apps", nargs="*", default=None, help=f"default: all ({', '.join(app_names())})")
    parser.add_argument("--tasks", nargs="*", default=None, help="only these task names")
    parser.add_argument("--rounds", type=int, default=1, help="timed rounds per task (medians)")
    parser.add_argument("--out", type=Path, default=None, help="also write the JSON here")
    args = parser.parse_args(argv)
    record: dict[str, Any] = {"benchmark": "real_apps", "goal_ratio": GOAL_RATIO, "rounds": args.rounds,
                              "machine": machine_start()}
    # The runs must not inherit a developer's settings (a headed browser, another Chromium, other timeouts).
    for key in [k for k in os.environ if k.startswith("BROWSEROPS_")]:
        os.environ.pop(key)
    apps: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="real-apps-") as tmp:
        os.environ["BROWSEROPS_CONFIG_DIR"] = str(Path(tmp) / "config")
        for name in args.apps or app_names():
            apps[name] = measure_app(name, Path(tmp) / name, set(args.tasks or []), args.rounds)
            got = apps[name]
            print(f"{name}: done {got['done']}/{got['tasks']}, false_completes {got['false_completes']}, "
                  f"wrong_completes {got['wrong_completes']}", file=sys.stderr, flush=True)
    totals = summarise([row for app in apps.values() for row in app["rows"]])
    totals.pop("rows")
    totals["share"] = round(totals["seen"] / totals["targeted"], 4) if totals["targeted"] else None
    ratios = [totals["ratio"], *(app["ratio"] for app in apps.values())]
    record.update(apps=apps, totals=totals, goal_met=totals["false_completes"] == 0
                  and totals["wrong_completes"] == 0 and all(r is not None and r <= GOAL_RATIO for r in ratios))
    record["machine"] = machine_end(record["machine"])
    text = orjson.dumps(record, option=orjson.OPT_INDENT_2).decode()
    print(text)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
