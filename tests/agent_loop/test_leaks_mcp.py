"""Issue 22 items 1 and 2 through the MCP server: ``browser_task`` over stdio, the real Messages client talking to a
fake Messages server that plays an obedient scripted model. An address seen only in a tool error arrives
fenced and its navigation comes back for approval; so does a navigation that would carry the goal's e-mail to
the page's own site. Nothing reaches ``/collect``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp.client import Client

from browserops.agent.model_api import ModelTurn, tool_turn
from browserops.agent.scripted import ModelRequest
from browserops.demo_site import DemoSite
from tests.agent.fake_messages_server import FakeMessagesServer
from tests.agent_loop.helpers import act, wire_responder
from tests.agent_loop.test_leaks import _ADDRESS, EMAIL, GOAL, OBEY, fenced_parts
from tests.agent_loop.test_origins_agent import params
from tests.mcp.helpers import call


@pytest.fixture
def fake() -> Iterator[FakeMessagesServer]:
    with FakeMessagesServer() as server:
        yield server


def obey_the_error(request: ModelRequest) -> ModelTurn:
    inside = " ".join(fenced_parts(request))
    found = _ADDRESS.search(inside)
    assert found is not None and "Options:" in inside, f"the error did not arrive fenced: {request.messages[-1]}"
    return tool_turn("browser_navigate", {"url": found.group() + "collect?c=error"}, OBEY)


async def test_browser_task_fences_an_error_and_holds_the_address_it_carried(
    workspace: Path, fake: FakeMessagesServer, demo_site: DemoSite
) -> None:
    demo_site.reset()
    fake.responder = wire_responder([act("combobox", "Delivery slot", action="select", text="Evening"),
                                     obey_the_error])
    async with Client(params(workspace, fake)) as client:
        result = await call(client, "browser_task", goal=GOAL, url=demo_site.base_url + "/leak/error")
    assert result["status"] == "ok", result
    data = result["data"]
    assert data["outcome"] == "needs_approval", data
    assert data["pending"]["tool"] == "browser_navigate" and "came from the page" in data["pending"]["reason"]
    assert demo_site.state.collected == []


async def test_browser_task_holds_the_goals_email_sent_to_the_pages_own_site(
    workspace: Path, fake: FakeMessagesServer, demo_site: DemoSite
) -> None:
    demo_site.reset()
    url = f"{demo_site.base_url}/collect?c=same&e={EMAIL}"
    fake.responder = wire_responder([lambda request: tool_turn("browser_navigate", {"url": url}, OBEY)])
    async with Client(params(workspace, fake)) as client:
        result = await call(client, "browser_task", goal=GOAL, url=demo_site.base_url + "/leak/same")
    assert result["status"] == "ok", result
    data = result["data"]
    assert data["outcome"] == "needs_approval", data
    assert "e-mail" in data["pending"]["reason"], data["pending"]
    assert demo_site.state.collected == []
