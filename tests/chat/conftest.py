"""Fixtures for the chat tests: the scripted-plan Brain over the real browser session, and an engine."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from browserops.chat.engine import ChatEngine
from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from tests.chat.scripted_brain import Plan, ScriptedPlanBrain, demo_plans


@pytest.fixture
def plans(demo_site: DemoSite) -> dict[str, Plan]:
    return demo_plans(demo_site.base_url)


@pytest.fixture
def brain(tool_ctx: ToolContext, plans: dict[str, Plan]) -> ScriptedPlanBrain:
    return ScriptedPlanBrain(tool_ctx, plans)


@pytest.fixture
async def engine(workspace: Path, brain: ScriptedPlanBrain) -> AsyncIterator[ChatEngine]:
    eng = ChatEngine(workspace, brain, steps_per_message=10)
    yield eng
    await eng.close()
