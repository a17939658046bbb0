"""Issue 22 item 7: ``assistant_done`` is verified only when the page shows the outcome claimed, in its own
language — not when it merely shows the identifiers. A scripted model claims "Invoice INV-4242 was paid" on real
pages (``/invoice/<case>``) through the loop on real Chromium and through MCP ``browser_task``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp.client import Client

from browserops.agent.model_api import tool_turn
from browserops.agent.scripted import ModelRequest
from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from tests.agent.fake_messages_server import FakeMessagesServer
from tests.agent_loop.conftest import RunFactory, open_page
from tests.agent_loop.helpers import last_result_text, wire_responder
from tests.agent_loop.test_origins_agent import params
from tests.mcp.helpers import call

GOAL = "Pay invoice INV-4242 of 120.00."
CLAIM = "Invoice INV-4242 was paid, 120.00."
WRONG = ["due", "unpaid", "not-paid", "failed", "offen", "ne-oplachen"]
RIGHT = ["paid", "bezahlt", "payee", "yizhifu"]


def claim(request: ModelRequest) -> object:
    return tool_turn("assistant_done", {"reason": CLAIM})


@pytest.mark.parametrize("case", WRONG + RIGHT)
async def test_done_is_verified_only_when_the_page_shows_the_state_claimed(
    make_run: RunFactory, tool_ctx: ToolContext, demo_site: DemoSite, case: str
) -> None:
    await open_page(tool_ctx, f"{demo_site.base_url}/invoice/{case}")
    told: list[str] = []

    def claim_again(request: ModelRequest) -> object:
        told.append(last_result_text(request))
        return claim(request)

    run = make_run([claim, claim_again, claim_again], goal=GOAL)
    pause = await run.advance()
    assert pause.kind == "done", pause
    if case in RIGHT:
        assert pause.verified, (case, pause)
        assert told == []
    else:
        assert not pause.verified, (case, pause)  # accepted only as unverified, after two rejections
        assert len(told) == 2 and all("outcome claimed (paid)" in t for t in told), told


@pytest.fixture
def fake() -> Iterator[FakeMessagesServer]:
    with FakeMessagesServer() as server:
        yield server


async def test_browser_task_reports_a_claim_the_page_contradicts_as_unverified(
    workspace: Path, fake: FakeMessagesServer, demo_site: DemoSite
) -> None:
    fake.responder = wire_responder([claim, claim, claim, claim])
    async with Client(params(workspace, fake)) as client:
        wrong = await call(client, "browser_task", goal=GOAL, url=demo_site.base_url + "/invoice/due")
        right = await call(client, "browser_task", goal=GOAL, url=demo_site.base_url + "/invoice/bezahlt")
    assert wrong["data"]["outcome"] == "done" and wrong["data"]["verified"] is False, wrong
    assert right["data"]["outcome"] == "done" and right["data"]["verified"] is True, right
