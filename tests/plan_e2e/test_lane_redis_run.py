"""`browserops run` with ``lane_backend = "redis://…"`` against a real redis-server: the holding's fencing token
lands in bundle.json, and a runner that froze past its lease stops with BROWSER_LANE_LOST before acting."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
import redis

from browserops.browser.launch.session import BrowserSession
from browserops.demo_site import DemoSite
from browserops.lane.redis_lane import KEY_PREFIX
from browserops.plan.steps import Expectation, SemanticTarget, Step
from tests.plan_e2e.helpers import ROOT, browserops_cmd, bundle_info, subprocess_env
from tests.plan_e2e.test_lane_processes import _prepare, _slow_steps
from tests.redis_server import RedisServer


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    with RedisServer(tmp_path / "redis") as server:
        yield server.url


def _lane_key(workspace: Path) -> str:
    return KEY_PREFIX + str(workspace.resolve())


def _env(url: str, lease_s: float) -> dict[str, str]:
    return {**subprocess_env(), "BROWSEROPS_LANE_BACKEND": url, "BROWSEROPS_LANE_LEASE_S": str(lease_s)}


async def test_a_run_records_its_redis_fencing_token(session: BrowserSession, workspace: Path,
                                                     demo_site: DemoSite, redis_url: str) -> None:
    tokens = []
    # The token needs no slow page (the frozen runner below does): a quick link and its page's heading.
    quick = [Step(kind="act", target=SemanticTarget(role="link", names=["Focus and navigation"])),
             Step(kind="read", expect=Expectation(text=["Focus and navigation"], timeout_ms=20_000))]
    for _ in range(2):
        prepared = await _prepare(session, workspace, demo_site.base_url, quick)
        done = await asyncio.to_thread(
            subprocess.run, browserops_cmd(workspace, "--json", "run", prepared.plan.request_id, "--confirm",
                                           prepared.phrase),
            capture_output=True, text=True, timeout=120, cwd=ROOT, env=_env(redis_url, 5), check=False)
        assert done.returncode == 0, done.stderr
        run = bundle_info(workspace, prepared.plan.request_id)["attempts"][-1]
        assert run["status"] == "complete"
        assert run["lane"]["backend"] == redis_url and run["lane"]["leaseS"] == 5
        tokens.append(run["lane"]["token"])
    assert tokens == [1, 2]
    assert redis.Redis.from_url(redis_url).exists(_lane_key(workspace)) == 0  # released


async def test_a_runner_frozen_past_its_lease_does_not_act(session: BrowserSession, workspace: Path,
                                                           demo_site: DemoSite, redis_url: str) -> None:
    prepared = await _prepare(session, workspace, demo_site.base_url, _slow_steps("Loaded after", 20_000))
    proc = await asyncio.create_subprocess_exec(
        *browserops_cmd(workspace, "--json", "run", prepared.plan.request_id, "--confirm", prepared.phrase),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=ROOT, env=_env(redis_url, 1.0))
    assert proc.stderr is not None
    lines: list[str] = []
    while not any(line.startswith("Opening") for line in lines):  # in the lane, about to reach step 1
        line = (await asyncio.wait_for(proc.stderr.readline(), 60)).decode()
        assert line, lines
        lines.append(line)
    os.kill(proc.pid, signal.SIGSTOP)  # the runner freezes
    key = _lane_key(workspace)
    client = redis.Redis.from_url(redis_url)
    deadline = time.monotonic() + 30
    while client.exists(key):  # its lease runs out
        assert time.monotonic() < deadline
        await asyncio.sleep(0.05)
    os.kill(proc.pid, signal.SIGCONT)  # and comes back
    out, _ = await asyncio.wait_for(proc.communicate(), 90)
    assert proc.returncode == 1
    result = orjson.loads(out)
    assert result["code"] == "BROWSER_LANE_LOST", result
    assert "fencing token 1" in result["error"]
    run = bundle_info(workspace, prepared.plan.request_id)["attempts"][-1]
    assert run["status"] == "incomplete" and "BROWSER_LANE_LOST" in run["reason"] and run["lane"]["token"] == 1
    steps = result["details"]["run"]["steps"]
    assert steps[0]["status"] == "error" and steps[0]["code"] == "BROWSER_LANE_LOST"
    shots = steps[0].get("screenshots", [])
    assert any("_error_" in shot for shot in shots) and not any("_after_" in shot for shot in shots), shots
    assert demo_site.state.submissions == []
