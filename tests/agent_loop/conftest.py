"""Fixtures for the loop tests: an in-process tool host over the shared browser, settings, a run factory."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from browserops.agent.run import AgentRun, Emit, RunConfig
from browserops.agent.scripted import ScriptedModel, ScriptItem
from browserops.agent.toolhost import InProcessToolHost
from browserops.config import Settings
from browserops.policy import Confirmer
from browserops.tools.context import ToolContext
from tests.calls import call_tool

RunFactory = Callable[..., AgentRun]


@pytest.fixture
def host(tool_ctx: ToolContext) -> InProcessToolHost:
    return InProcessToolHost(tool_ctx)


@pytest.fixture
def make_run(host: InProcessToolHost, tool_ctx: ToolContext, workspace: Path) -> RunFactory:
    def make(script: Iterable[ScriptItem], goal: str = "find a stapler", settings: Settings | None = None, *,
             confirmer: Confirmer | None = None, emit: Emit | None = None, **config: Any) -> AgentRun:
        run_config = RunConfig(goal=goal, workspace=workspace, settings=settings or tool_ctx.settings, **config)
        return AgentRun(host, ScriptedModel(script), run_config, confirmer=confirmer, emit=emit)
    return make


async def open_page(ctx: ToolContext, url: str) -> None:
    result = await call_tool("browser_navigate", ctx, {"url": url})
    assert result["status"] == "ok", result
