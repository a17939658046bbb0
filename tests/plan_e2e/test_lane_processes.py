"""Real `python -m browserops run` processes: one at a time per workspace, in parallel across workspaces, and a
killed run leaves an incomplete bundle and a free lane."""

from __future__ import annotations

import asyncio
import datetime as dt
import itertools
import signal
import subprocess
import time
from pathlib import Path

import orjson

from browserops.browser.launch.session import BrowserSession
from browserops.config import Settings
from browserops.demo_site import DemoSite
from browserops.evidence import verify_bundle
from browserops.lane import Lane
from browserops.plan.model import PlanSource
from browserops.plan.prepare.prepare import PlanRequest, PreparedPlan, prepare_plan
from browserops.plan.steps import Expectation, SemanticTarget, Step
from browserops.tools.context import ToolContext
from tests.plan_e2e.helpers import ROOT, browserops_cmd, bundle_info, cli_run, events, subprocess_env
from tests.procs import chromium_processes, descendants, wait_gone


def _slow_steps(wait_text: str, timeout_ms: int) -> list[Step]:
    """Click the home page's "Slow page" link (the server takes 2 s to answer), then wait for a text. Prepare
    does not click, so it neither waits for the slow page nor checks the text: preparing is fast."""
    return [
        Step(kind="act", target=SemanticTarget(role="link", names=["Slow page"])),
        Step(kind="read", expect=Expectation(text=[wait_text], timeout_ms=timeout_ms)),
    ]


async def _prepare(session: BrowserSession, workspace: Path, base_url: str, steps: list[Step]) -> PreparedPlan:
    ctx = ToolContext(session=session, settings=Settings(), workspace=workspace)
    request = PlanRequest(title="Open the slow page", start_url=base_url + "/?nobanner=1", steps=steps,
                          source=PlanSource(kind="steps", name="slow"))
    return await prepare_plan(ctx, workspace, request)


def _attempt_window(workspace: Path, request_id: str) -> tuple[dt.datetime, dt.datetime]:
    run = [a for a in bundle_info(workspace, request_id)["attempts"] if a["phase"] == "run"]
    assert len(run) == 1 and run[0]["status"] == "complete", run
    return dt.datetime.fromisoformat(run[0]["started"]), dt.datetime.fromisoformat(run[0]["ended"])


async def test_runs_queue_per_workspace_and_overlap_across_workspaces(
        session: BrowserSession, demo_site: DemoSite, tmp_path: Path) -> None:
    shared, other_a, other_b = (tmp_path / name for name in ("shared", "a", "b"))
    jobs: list[tuple[Path, PreparedPlan]] = []
    for ws, count in ((shared, 3), (other_a, 1), (other_b, 1)):
        ws.mkdir()
        for _ in range(count):
            jobs.append((ws, await _prepare(session, ws, demo_site.base_url, _slow_steps("Loaded after", 20_000))))
    procs = [
        await asyncio.create_subprocess_exec(
            *browserops_cmd(ws, "--json", "run", p.plan.request_id, "--confirm", p.phrase),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=ROOT, env=subprocess_env())
        for ws, p in jobs
    ]
    # A bound against hanging, not a speed check: five Chromium start-ups and three queued runs on a loaded
    # two-core machine took more than 150 s.
    outputs = await asyncio.wait_for(asyncio.gather(*(proc.communicate() for proc in procs)), timeout=480)
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, err.decode()
        assert orjson.loads(out)["runStatus"] == "complete"
    windows = {p.plan.request_id: _attempt_window(ws, p.plan.request_id) for ws, p in jobs}
    queued = sorted(windows[p.plan.request_id] for ws, p in jobs if ws == shared)
    for (_, end), (start, _) in itertools.pairwise(queued):
        assert end <= start, queued  # one at a time on the shared workspace
    (a_start, a_end), (b_start, b_end) = (windows[p.plan.request_id] for ws, p in jobs if ws != shared)
    assert a_start < b_end and b_start < a_end  # different workspaces ran at the same time
    for _, p in jobs:
        assert verify_bundle(p.bundle).ok
    waited = [orjson.loads(out)["laneWaitS"] for out, _ in outputs[:3]]
    assert sum(1 for w in waited if w > 0.5) >= 2  # two of the three queued behind another


def _wait_for_step(workspace: Path, request_id: str, attempt: int, step: int, timeout_s: float = 60) -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            done = [e for e in events(workspace, request_id) if e["attempt"] == attempt and e["step"] == step]
        except FileNotFoundError:
            done = []
        if done:
            return
        time.sleep(0.1)
    raise AssertionError(f"the run never finished step {step}")




def _start_run(workspace: Path, prepared: PreparedPlan) -> subprocess.Popen[bytes]:
    return subprocess.Popen(browserops_cmd(workspace, "run", prepared.plan.request_id, "--confirm", prepared.phrase),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, env=subprocess_env())


async def test_killed_run_leaves_an_incomplete_bundle_and_a_free_lane(
        session: BrowserSession, demo_site: DemoSite, workspace: Path) -> None:
    prepared = await _prepare(session, workspace, demo_site.base_url, _slow_steps("Never on this page", 60_000))
    proc = _start_run(workspace, prepared)
    try:
        await asyncio.to_thread(_wait_for_step, workspace, prepared.plan.request_id, 2, 1)
        spawned = descendants(proc.pid)
        assert set(chromium_processes()) & spawned  # its browser is running
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == -signal.SIGKILL
    report = verify_bundle(prepared.bundle)
    assert not report.ok and report.interrupted and report.status == "incomplete"
    assert bundle_info(workspace, prepared.plan.request_id)["status"] == "open"
    verify = cli_run(workspace, "evidence", "verify", prepared.plan.request_id)  # in-process: no boundary tested
    assert verify.exit_code == 1 and "BROWSER_EVIDENCE_MISMATCH" in verify.stderr
    lane = Lane(workspace, no_wait=True)
    assert lane.is_free()
    with lane:  # taken at once: the kernel dropped the killed holder's lock
        assert lane.current_holder() is not None
    assert wait_gone(spawned, timeout_s=15) == set()  # its browser went with it
    # A later run of the same plan can retry: the killed attempt stays on record.
    proc = _start_run(workspace, prepared)
    try:
        await asyncio.to_thread(_wait_for_step, workspace, prepared.plan.request_id, 3, 1)
        proc.send_signal(signal.SIGTERM)  # this time a catchable stop: the bundle is closed as incomplete
        _, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 128 + signal.SIGTERM, err.decode()
    assert b"Interrupted (SIGTERM)" in err
    info = bundle_info(workspace, prepared.plan.request_id)
    assert [a["status"] for a in info["attempts"]] == ["prepared", None, "incomplete"]
    assert "interrupted" in info["attempts"][-1]["reason"]
    report = verify_bundle(prepared.bundle)
    assert report.intact and not report.interrupted and report.status == "incomplete"
    assert Lane(workspace).is_free()
    assert demo_site.state.submissions == []
