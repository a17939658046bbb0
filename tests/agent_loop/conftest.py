"""Fixtures for the loop tests: an in-process tool host over the shared browser, settings, a run factory."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import pytest

from browserops.agent.loop import AgentRun
from browserops.agent.scripted import ScriptedModel, ScriptItem
from browserops.agent.toolhost import InProcessToolHost
from browserops.config import Settings
from browserops.tools.context import ToolContext
from tests.calls import call_tool

RunFactory = Callable[..., AgentRun]


@pytest.fixture
def host(tool_ctx: ToolContext) -> InProcessToolHost:
    return InProcessToolHost(tool_ctx)


@pytest.fixture
def make_run(host: InProcessToolHost, tool_ctx: ToolContext, workspace: Path) -> RunFactory:
    def make(script: Iterable[ScriptItem], goal: str = "find a stapler", settings: Settings | None = None,
             **kwargs: Any) -> AgentRun:
        return AgentRun(host, ScriptedModel(script), settings or tool_ctx.settings, goal=goal,
                        workspace=workspace, **kwargs)
    return make


async def open_page(ctx: ToolContext, url: str) -> None:
    result = await call_tool("browser_navigate", ctx, {"url": url})
    assert result["status"] == "ok", result
