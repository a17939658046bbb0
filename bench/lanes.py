"""Benchmark: lane throughput — N runs of the demo plan over M workspaces with K runner processes, per backend.

Each runner is a separate OS process (standing in for a runner machine) with its own Chromium, pulling jobs
from one shared queue and running them the way ``browserops run --confirm`` does (``run_plan`` in-process:
lane, bundle attempt, steps, screenshots, verify). Job ``i`` runs in workspace ``i mod M``, so a runner often
picks a job whose workspace another runner holds and must queue in the lane. Both lane backends are measured:
``file`` (an OS file lock) and ``redis://`` (a ``redis-server`` this bench starts on a free loopback port).

- **Ideal**: one run, measured here with the same runners (median of ``--solo`` runs, one at a time, half
  before and half after the parallel runs),
  × ``ceil(N / min(K, M))`` — at most ``min(K, M)`` runs can go at once. ``ratio`` = wall time / ideal.
- **No overlap**: every runner records when it held the lane of each run (from the moment ``acquire`` returned
  to the moment it called ``release``: every step ran inside) and its fencing token. Per workspace, the holds
  sorted by start must not intersect and the tokens must be distinct; ``overlaps`` counts violations.
  ``max_parallel_holds`` shows how many workspaces were in use at once.
- **CPU sharing**: runs going at once share the machine's cores (and Chromium is CPU-hungry), so each one is
  slower than a solo run: ``slowdown_in_parallel``. ``ratio_at_parallel_speed`` = wall time / (median run time
  in the parallel phase × batches) is what the lane and the queue cost on top of that.

The demo plan is bench/plan_run.py's 20 steps (expense form with an upload, then the two multilang forms).
Chromium start-up and one warm-up run per runner are excluded; plans are prepared before any timing. The site
is the bundled demo site, served by this process. This is a benchmark, not a test: run it niced, on its own.

    nice uv run python bench/lanes.py [--runs 6 --workspaces 3 --runners 2 --solo 3]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import math
import multiprocessing as mp
import os
import queue
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # bench.plan_run and tests.redis_server, when run as a script

import browserops.plan.run.attempt as run_module  # noqa: E402
from bench.plan_run import plan_steps  # noqa: E402
from browserops.browser.launch.session import BrowserSession, SessionOptions  # noqa: E402
from browserops.config import Settings  # noqa: E402
from browserops.demo_site import DemoSite  # noqa: E402
from browserops.lane import WorkspaceLane  # noqa: E402
from browserops.plan.model import PlanSource  # noqa: E402
from browserops.plan.model.loader import resolve_plan  # noqa: E402
from browserops.plan.prepare.prepare import PlanRequest, prepare_plan  # noqa: E402
from browserops.tools.context import ToolContext  # noqa: E402
from tests.redis_server import RedisServer  # noqa: E402

GOAL_RATIO = 1.2


@dataclass(frozen=True)
class Job:
    job_id: str
    workspace: str
    request_id: str
    phrase: str
    backend: str


class _RecordedLane:
    """A lane that notes when it was held (wall clock: comparable across this machine's processes)."""

    def __init__(self, lane: WorkspaceLane) -> None:
        self.lane = lane
        self.held: tuple[float, float] | None = None
        self._from = 0.0

    def __getattr__(self, name: str) -> Any:
        return getattr(self.lane, name)

    async def acquire_async(self) -> _RecordedLane:
        await self.lane.acquire_async()
        self._from = time.time()
        return self

    async def release_async(self) -> None:
        self.held = (self._from, time.time())
        await self.lane.release_async()


# ---------------------------------------------------------------------------------------------- runner process


async def _runner(index: int, warmup: Job, jobs: mp.Queue[Job | None], results: mp.Queue[dict[str, Any]]) -> None:
    recorded: list[_RecordedLane] = []
    open_lane = getattr(run_module, "open_lane")  # noqa: B009  # the original, wrapped below

    def recording_open_lane(*args: Any, **kwargs: Any) -> WorkspaceLane:
        lane = _RecordedLane(open_lane(*args, **kwargs))
        recorded.append(lane)
        return lane

    setattr(run_module, "open_lane", recording_open_lane)  # noqa: B010  # for the measurement only
    async with BrowserSession(SessionOptions()) as session:

        async def run_one(job: Job) -> dict[str, Any]:
            await session.context.clear_cookies()  # every run meets the site as the first one did
            workspace = Path(job.workspace)
            ctx = ToolContext(session=session, settings=Settings(lane_backend=job.backend), workspace=workspace)
            plan, bundle = resolve_plan(workspace, job.request_id)
            started = time.time()
            result = await run_module.run_plan(ctx, workspace, plan, bundle,
                                               run_module.RunOptions(confirm=job.phrase))
            ended = time.time()
            held = recorded[-1].held
            ok = result.error is None and result.status == "complete" and bool(result.verify and result.verify.ok)
            return {"job": job.job_id, "runner": index, "workspace": job.workspace, "ok": ok,
                    "error": result.error.to_dict() if result.error else None, "started": started, "ended": ended,
                    "held": held, "token": recorded[-1].token, "waited_s": result.waited_s}

        results.put({"ready": index, **await run_one(warmup)})
        while (job := await asyncio.to_thread(jobs.get)) is not None:
            results.put(await run_one(job))


def _runner_main(index: int, warmup: Job, jobs: mp.Queue[Job | None], results: mp.Queue[dict[str, Any]]) -> None:
    asyncio.run(_runner(index, warmup, jobs, results))


# ---------------------------------------------------------------------------------------------- checks


def overlaps(holds: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Pairs of holds of one workspace that intersect in time, or share a fencing token."""
    found: list[dict[str, Any]] = []
    by_workspace: dict[str, list[dict[str, Any]]] = {}
    for h in holds:
        by_workspace.setdefault(h["workspace"], []).append(h)
    for workspace, hs in by_workspace.items():
        hs.sort(key=lambda h: h["held"][0])
        for a, b in itertools.pairwise(hs):
            if b["held"][0] < a["held"][1]:
                found.append({"workspace": workspace, "jobs": [a["job"], b["job"]],
                              "overlap_ms": round((a["held"][1] - b["held"][0]) * 1000, 1)})
        tokens = [h["token"] for h in hs]
        if len(set(tokens)) != len(tokens):
            found.append({"workspace": workspace, "duplicate_tokens": tokens})
    return found


def max_parallel(holds: list[dict[str, Any]]) -> int:
    edges = sorted([(h["held"][0], 1) for h in holds] + [(h["held"][1], -1) for h in holds])
    now = most = 0
    for _, step in edges:
        now += step
        most = max(most, now)
    return most


# ---------------------------------------------------------------------------------------------- main


def _workspace(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return path.resolve()


class Bench:
    def __init__(self, site: DemoSite, tmp: Path, runners: int) -> None:
        self.site = site
        self.tmp = tmp
        self.runners = runners
        self.jobs: mp.Queue[Job | None] = mp.get_context("spawn").Queue()
        self.results: mp.Queue[dict[str, Any]] = mp.get_context("spawn").Queue()
        self.n = 0

    async def prepare(self, session: BrowserSession, folder: str, backend: str) -> Job:
        workspace = _workspace(self.tmp / folder)
        ctx = ToolContext(session=session, settings=Settings(), workspace=workspace)
        request = PlanRequest(title="Bench: lanes", start_url=self.site.base_url + "/expense", steps=plan_steps(),
                              source=PlanSource(kind="steps", name="bench-lanes"))
        prepared = await prepare_plan(ctx, workspace, request)
        self.n += 1
        return Job(f"j{self.n}", str(workspace), prepared.plan.request_id, prepared.phrase, backend)

    def collect(self, count: int) -> list[dict[str, Any]]:
        out = []
        for _ in range(count):
            try:
                result = self.results.get(timeout=600)
            except queue.Empty:
                raise RuntimeError("a runner went silent for 10 minutes") from None
            if not result["ok"]:
                raise RuntimeError(f"run {result['job']} failed: {result['error']}")
            out.append(result)
        return out

    def solo(self, jobs: list[Job]) -> list[float]:
        """One run at a time: the time from handing the job out to getting its result."""
        times = []
        for job in jobs:
            started = time.time()
            self.jobs.put(job)
            self.collect(1)
            times.append(time.time() - started)
        return times

    def parallel(self, jobs: list[Job]) -> tuple[float, list[dict[str, Any]]]:
        started = time.time()
        for job in jobs:
            self.jobs.put(job)
        done = self.collect(len(jobs))
        return time.time() - started, done


async def _prepare_all(bench: Bench, backends: dict[str, str], runs: int, workspaces: int,
                       solo: int) -> dict[str, Any]:
    """Every plan, prepared before any timing (prepare is read-only; it does not take the lane)."""
    plans: dict[str, Any] = {"warmup": []}
    async with BrowserSession(SessionOptions()) as session:
        for r in range(bench.runners):
            plans["warmup"].append(await bench.prepare(session, f"warmup{r}", "file"))
        for name, backend in backends.items():
            plans[name] = {
                "solo": [await bench.prepare(session, f"{name}/solo", backend) for _ in range(solo)],
                "parallel": [await bench.prepare(session, f"{name}/ws{i % workspaces}", backend)
                             for i in range(runs)],
            }
    return plans


def run(runs: int, workspaces: int, runners: int, solo: int) -> dict[str, Any]:
    ideal_batches = math.ceil(runs / min(runners, workspaces))
    report: dict[str, Any] = {
        "bench": "lanes", "plan_steps": len(plan_steps()), "runs": runs, "workspaces": workspaces,
        "runners": runners, "ideal_batches": ideal_batches, "goal_ratio": GOAL_RATIO,
        "excluded": "Chromium start-up and one warm-up run per runner; prepare", "cpus": os.cpu_count(),
        "load_average_before": [round(x, 2) for x in os.getloadavg()], "backends": {},
    }
    with DemoSite() as site, tempfile.TemporaryDirectory() as tmp_dir, RedisServer(Path(tmp_dir) / "redis") as redis:
        bench = Bench(site, Path(tmp_dir), runners)
        backends = {"file": "file", "redis": redis.url}
        plans = asyncio.run(_prepare_all(bench, backends, runs, workspaces, solo))
        ctx = mp.get_context("spawn")
        procs = [ctx.Process(target=_runner_main, args=(i, plans["warmup"][i], bench.jobs, bench.results))
                 for i in range(runners)]
        for proc in procs:
            proc.start()
        try:
            ready = bench.collect(runners)
            report["warmup_s"] = [round(r["ended"] - r["started"], 2) for r in ready]
            for name, backend in backends.items():
                # Solo runs before and after the parallel ones: the machine's other load drifts meanwhile.
                half = (solo + 1) // 2
                solo_s = bench.solo(plans[name]["solo"][:half])
                wall, done = bench.parallel(plans[name]["parallel"])
                solo_s += bench.solo(plans[name]["solo"][half:])
                one = statistics.median(solo_s)
                ideal = one * ideal_batches
                found = overlaps(done)
                in_parallel = statistics.median(r["ended"] - r["started"] for r in done)
                report["backends"][name] = {
                    "backend": "file" if backend == "file" else "redis://127.0.0.1:<free port>/0",
                    "one_run_s": round(one, 2), "solo_runs_s": [round(x, 2) for x in solo_s],
                    "ideal_s": round(ideal, 2), "wall_s": round(wall, 2),
                    "ratio": round(wall / ideal, 3), "goal_met": wall / ideal <= GOAL_RATIO and not found,
                    "runs_per_minute": round(60 * runs / wall, 1),
                    # Runs sharing the cores run slower: what is left once that is factored out is the lane's
                    # and the queue's own cost.
                    "run_in_parallel_s": round(in_parallel, 2), "slowdown_in_parallel": round(in_parallel / one, 3),
                    "ratio_at_parallel_speed": round(wall / (in_parallel * ideal_batches), 3),
                    "overlaps": len(found), "overlap_details": found,
                    "max_parallel_holds": max_parallel(done),
                    "lane_wait_s": round(sum(r["waited_s"] for r in done), 2),
                    "runs_by_runner": {str(i): sum(1 for r in done if r["runner"] == i) for i in range(runners)},
                    "tokens_by_workspace": {f"ws{i}": sorted(r["token"] for r in done if r["workspace"].endswith(
                        f"/ws{i}")) for i in range(workspaces)},
                }
        finally:
            for _ in procs:
                bench.jobs.put(None)
            for proc in procs:
                proc.join(timeout=60)
                if proc.is_alive():
                    proc.kill()
    report["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    submissions = len(site.state.snapshot()["submissions"])
    expected = (runners + len(backends) * (solo + runs))
    report["site_submissions"] = {"seen": submissions, "expected": expected}
    if submissions != expected:
        raise RuntimeError(f"the site saw {submissions} expense submissions, expected {expected}")
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=6, help="N: runs per backend")
    parser.add_argument("--workspaces", type=int, default=3, help="M: workspaces they spread over")
    parser.add_argument("--runners", type=int, default=2, help="K: runner processes, one Chromium each")
    parser.add_argument("--solo", type=int, default=3, help="runs measured one at a time, for the ideal")
    args = parser.parse_args()
    report = run(args.runs, args.workspaces, args.runners, args.solo)
    sys.stdout.write(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode() + "\n")


if __name__ == "__main__":
    main()
