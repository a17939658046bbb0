"""Fault injection in the agent loop (scripted model, in-process host): the run's Chromium is SIGKILLed as the
k-th tool call of the run begins (the model's own calls, the loop's observations and the done check's read).
Whenever it dies: the next call brings the browser back once, the model is told (its own call fails naming the
tool that was running; the next observation says the browser was restarted), a done check never verifies against
a page that is gone, and a model that opens the page again finishes the task, verified on the page."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Mapping
from pathlib import Path
from typing import Any

import orjson
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
from tests.agent_loop.helpers import act
from tests.mcp.helpers import kill_browser_with_marker

MARKER = f"--browserops-test-marker={uuid.uuid4().hex}"
# The call the browser died under answers within this, the browser's restart and the call's retry included.
ANSWER_WITHIN_S = 20.0


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
    answered_at: list[float] = []
    call = host.call

    async def timed_call(name: str, args: Mapping[str, Any]) -> Any:
        result = await call(name, args)
        if killed_at and not answered_at:
            answered_at.append(time.monotonic())  # the call the kill hit has answered
        return result

    host.call = timed_call  # type: ignore[method-assign]
    typing = act("searchbox", "Search", "type", text="stapler", submit=True, progress="Typing the query.")
    reopen = tool_turn("browser_navigate", {"url": demo_site.base_url + "/search"}, "Opening the page again.")
    done = tool_turn("assistant_done", {"reason": "The results page lists the Red stapler."}, "Finishing.")

    def as_a_model_would(request: ModelRequest) -> ModelTurn | Awaitable[ModelTurn]:
        # Finish on the results page; type the query on the search page; anywhere else (the browser came back
        # empty after the crash) open the search page again.
        latest = orjson.dumps(request.messages[-1]).decode()
        if "q=stapler" in latest:
            return done
        try:
            return typing(request)
        except AssertionError:
            return reopen

    model = ScriptedModel([as_a_model_would] * 8)
    run = AgentRun(host, model, RunConfig(goal="find a stapler", workspace=workspace, settings=own_ctx.settings))
    pause = await asyncio.wait_for(run.advance(), 60)
    assert killed_at, f"the run made only {len(seen)} calls: {seen}"
    assert answered_at[0] - killed_at[0] < ANSWER_WITHIN_S  # the call the browser died under did not hang
    # The run got over the crash: the browser came back once, and the task was finished and checked on the page.
    assert host.restarts == 1 and own_ctx.session.alive
    assert pause.kind == "done" and pause.verified, pause
    # The model was told, whichever call the crash hit: its own call fails naming the tool that was running, and
    # the next observation says the browser was restarted and the old pages and numbers are gone.
    # (Every request the model got: older observations are shortened in later ones.)
    told = [orjson.dumps(m).decode() for request in model.requests for m in request.messages if m["role"] == "user"]
    assert any("The browser had crashed and was restarted" in text for text in told), told
    crashed = [text for text in told if "BROWSER_CRASHED" in text]
    assert all(f"crashed while running {seen[k - 1]}" in text for text in crashed), (seen[k - 1], crashed)
