"""``allowed_origins`` in the agent (in process, and as MCP ``browser_task`` with the real client over a fake
Messages server): a link, a redirect and a popup the model follows to a refused origin load nothing there, and
the model is told what was blocked; an injected navigation through ``browser_task`` comes back for approval."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from browserops.agent.model_api import tool_turn
from browserops.agent.scripted import ModelRequest
from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.demo_site import DemoSite
from browserops.origins import OriginRules
from browserops.tools.context import ToolContext
from tests.agent.fake_messages_server import FakeMessagesServer
from tests.agent_loop.conftest import RunFactory, open_page
from tests.agent_loop.helpers import act, last_result_text, wire_responder
from tests.agent_loop.test_injection_surface import obey_navigation
from tests.mcp.helpers import call


@pytest.fixture(scope="module")
async def browser_session() -> AsyncIterator[BrowserSession]:
    """This module's own browser, not the suite's shared one: origin rules route the context's requests, and
    lifting them again (``OriginRules()``) leaves the route installed for the context's life. A later test on the
    shared browser inherited it: tools2's cross-origin banner test failed 1 run in 2 after this module (found 2
    banners instead of 1), never alone."""
    async with BrowserSession(SessionOptions()) as session:
        yield session


@pytest.fixture
async def only_main_origin(session: BrowserSession, demo_site: DemoSite) -> AsyncIterator[BrowserSession]:
    await session.set_origin_rules(OriginRules.of([demo_site.base_url]))
    try:
        yield session
    finally:
        await session.set_origin_rules(OriginRules())


async def test_the_agent_cannot_leave_the_allowed_origins_by_link_redirect_or_popup(
    make_run: RunFactory, tool_ctx: ToolContext, demo_site: DemoSite, only_main_origin: BrowserSession
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/origins")
    told: list[str] = []

    def remember(request: ModelRequest) -> None:
        told.append(last_result_text(request))

    def then(responder: object) -> object:
        def respond(request: ModelRequest) -> object:
            remember(request)
            return responder(request)  # type: ignore[operator]
        return respond

    run = make_run([
        act("link", "Partner site via redirect", progress="Opening the partner site."),
        then(act("button", "Open partner window", progress="Opening the partner window.")),
        then(act("link", "Partner site", progress="Trying the direct link.")),
        then(lambda request: tool_turn("assistant_done", {"reason": "Partner links on the Partner links page."})),
    ], goal="Look at the partner links on this page.")
    pause = await run.advance()
    assert pause.kind == "done", pause
    assert demo_site.state.collected == []
    assert all("browserops blocked" in t for t in told), told
    assert tool_ctx.session.page.url.startswith(demo_site.base_url)


@pytest.fixture
def fake() -> Iterator[FakeMessagesServer]:
    with FakeMessagesServer() as server:
        yield server


def params(workspace: Path, fake: FakeMessagesServer, *flags: str) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BROWSEROPS_", "ANTHROPIC_"))}
    env.update(ANTHROPIC_BASE_URL=fake.base_url, BROWSEROPS_MODEL="claude-fake")
    return StdioServerParameters(command=sys.executable, args=["-m", "browserops", "--workspace", str(workspace),
                                                               *flags, "mcp"], env=env)


async def test_browser_task_holds_an_injected_navigation_for_approval(
    workspace: Path, fake: FakeMessagesServer, demo_site: DemoSite
) -> None:
    demo_site.reset()
    fake.responder = wire_responder([obey_navigation])
    async with Client(params(workspace, fake)) as client:
        result = await call(client, "browser_task", goal="Read the office tips article.",
                            url=demo_site.base_url + "/inject/nav")
    assert result["status"] == "ok", result
    data = result["data"]
    assert data["outcome"] == "needs_approval", data
    assert data["pending"]["tool"] == "browser_navigate" and "came from the page" in data["pending"]["reason"]
    assert demo_site.state.collected == []


async def test_browser_task_with_allowed_origins_stays_on_them(
    workspace: Path, fake: FakeMessagesServer, demo_site: DemoSite
) -> None:
    demo_site.reset()
    fake.responder = wire_responder([
        act("link", "Partner site via redirect", progress="Opening the partner site."),
        tool_turn("assistant_done", {"reason": "Partner links are listed on the Partner links page."}),
    ])
    async with Client(params(workspace, fake, "--allowed-origins", demo_site.base_url)) as client:
        result = await call(client, "browser_task", goal="Look at the partner links.",
                            url=demo_site.base_url + "/origins")
        assert result["status"] == "ok", result
        typed = await call(client, "browser_navigate", url=demo_site.alt_url + "/collect?c=typed")
        assert typed["code"] == "BROWSER_ORIGIN_BLOCKED"
    assert demo_site.state.collected == []
    assert "browserops blocked a redirect" in str(fake.requests[-1].body["messages"])
