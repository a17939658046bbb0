"""Fault injection in the agent loop (scripted model, in-process host): the run's Chromium is SIGKILLed as the
k-th tool call of the run begins. Whenever it dies, the run comes to a pause within 10 s without raising, the
next call restarts the browser, and a failure the model is shown names what was being done."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from browserops.agent.model_api import ModelTurn, tool_turn
from browserops.agent.run import AgentRun, RunConfig
from browserops.agent.scripted import ModelRequest, ScriptedModel
from browserops.agent.toolhost import InProcessToolHost
from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.config import Settings
from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from browserops.tools.definitions import ToolDef
from tests.agent_loop.helpers import act, tool_results
from tests.mcp.helpers import kill_browser_with_marker

MARKER = f"--browserops-test-marker={uuid.uuid4().hex}"
EXIT_WITHIN_S = 10.0


@pytest.fixture
async def own_ctx(workspace: Path) -> AsyncIterator[ToolContext]:
    """A browser of this test's own, so killing it touches nothing else."""
    settings = Settings()
    options = SessionOptions.from_settings(settings)
    options.extra_args.append(MARKER)
    async with BrowserSession(options) as session:
        yield ToolContext(session=session, settings=settings, workspace=workspace)


# The run's calls: observe, inspect (the gate), overlay_act (typing + Enter), wait (settle), observe, and the
# page reads of the done check.
@pytest.mark.parametrize("k", [1, 2, 3, 4, 5, 6])
async def test_a_killed_browser_ends_in_a_pause_and_is_restarted(own_ctx: ToolContext, demo_site: DemoSite,
                                                                 workspace: Path, k: int) -> None:
    host = InProcessToolHost(own_ctx)
    opened = await host.call("browser_navigate", {"url": demo_site.base_url + "/search"})
    assert opened["status"] == "ok", opened
    seen: list[str] = []
    killed_at: list[float] = []

    async def killer(tool: ToolDef[Any], args: Mapping[str, Any]) -> None:
        seen.append(tool.name)
        if len(seen) == k:
            assert kill_browser_with_marker(MARKER) == 1
            killed_at.append(time.monotonic())

    host.runner.guards.append(killer)
    typing = act("searchbox", "Search", "type", text="stapler", submit=True, progress="Typing the query.")

    def type_or_reopen(request: ModelRequest) -> ModelTurn:
        # As a model would: with no search box in sight (the browser came back empty), open the page again.
        try:
            return typing(request)
        except AssertionError:
            return tool_turn("browser_navigate", {"url": demo_site.base_url + "/search"}, "Opening the page again.")

    done = tool_turn("assistant_done", {"reason": "The results page lists the Red stapler."}, "Finishing.")
    model = ScriptedModel([type_or_reopen, type_or_reopen, done, done])
    run = AgentRun(host, model, RunConfig(goal="find a stapler", workspace=workspace, settings=own_ctx.settings))
    pause = await asyncio.wait_for(run.advance(), 60)
    assert killed_at, f"the run made only {len(seen)} calls: {seen}"
    assert time.monotonic() - killed_at[0] < EXIT_WITHIN_S
    assert pause.kind in ("done", "error", "limit"), pause
    assert host.restarts == 1 and own_ctx.session.alive  # the next call brought the browser back
    for request in model.requests:
        for block in tool_results(request):
            text = " ".join(str(c.get("text", "")) for c in block["content"])
            if "BROWSER_CRASHED" in text:
                assert "crashed while running browser_" in text, text
