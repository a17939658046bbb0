"""MCP ``browser_task``: the agent as a sub-agent tool, through a real MCP client session to a ``browserops mcp``
subprocess whose model is the real anthropic client pointed at the local fake Messages server."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from browserops.agent.model_api import tool_turn
from browserops.demo_site import DemoSite
from browserops.evidence import read_events, verify_bundle
from tests.agent.fake_messages_server import FakeMessagesServer
from tests.agent_loop.helpers import act, wire_responder
from tests.mcp.helpers import call


@pytest.fixture
def fake() -> Iterator[FakeMessagesServer]:
    with FakeMessagesServer() as server:
        yield server


def params(workspace: Path, fake: FakeMessagesServer | None) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BROWSEROPS_", "ANTHROPIC_"))}
    if fake is not None:
        env.update(ANTHROPIC_BASE_URL=fake.base_url, BROWSEROPS_MODEL="claude-fake")
    return StdioServerParameters(command=sys.executable, args=["-m", "browserops", "--workspace", str(workspace),
                                                               "mcp"], env=env)


async def test_browser_task_without_a_model_says_so(workspace: Path) -> None:
    async with Client(params(workspace, None)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
        assert "goal" in tools["browser_task"].input_schema["properties"]
        result = await call(client, "browser_task", goal="find a stapler")
        assert result["status"] == "error" and result["code"] == "BROWSER_LLM_UNAVAILABLE"
        assert "ANTHROPIC_API_KEY" in result["error"]
        bad = await call(client, "browser_task", goal="")
        assert bad["code"] == "BROWSER_INVALID_ARGS" and "goal" in bad["error"]


async def test_browser_task_returns_the_sub_agents_summary(
    workspace: Path, fake: FakeMessagesServer, demo_site: DemoSite
) -> None:
    demo_site.reset()
    fake.responder = wire_responder([
        act("searchbox", "Search", "type", text="notebook", submit=True, progress="Searching."),
        tool_turn("assistant_done", {"reason": "The results list the Spiral notebook."}, "Done."),
    ])
    async with Client(params(workspace, fake)) as client:
        result = await call(client, "browser_task", goal="find a notebook", url=demo_site.base_url + "/",
                            max_steps=6)
        assert result["status"] == "ok", result
        data = result["data"]
        assert data["outcome"] == "done" and data["verified"] is True
        assert data["summary"] == "The results list the Spiral [typed]."  # typed text stays out of records
        assert data["steps"] == 1 and data["url"].endswith("/search?q=[typed]")
        assert verify_bundle(Path(data["bundle"])).ok
        # The sub-agent used the server's own session: the page it left is the page the client sees.
        page = await call(client, "browser_extract")
        assert page["data"]["url"].endswith("/search?q=notebook")
    assert demo_site.state.searches == ["notebook"]
    assert fake.requests[0].body["model"] == "claude-fake"
    assert "browser_task" not in {t["name"] for t in fake.requests[0].body["tools"]}


async def test_a_destructive_step_comes_back_as_needs_approval(
    workspace: Path, fake: FakeMessagesServer, demo_site: DemoSite
) -> None:
    demo_site.reset()
    fake.responder = wire_responder([act("button", "Pay now", progress="Paying the invoice.")])
    async with Client(params(workspace, fake)) as client:
        result = await call(client, "browser_task", goal="pay the invoice", url=demo_site.base_url + "/injection")
    assert result["status"] == "ok", result
    data = result["data"]
    assert data["outcome"] == "needs_approval"
    pending = data["pending"]
    assert pending["tool"] == "browser_overlay_act" and pending["target"]["name"] == "Pay now"
    assert "destructive" in pending["reason"] and "Pay now" in pending["description"]
    assert "raw_args" not in pending
    assert demo_site.state.payments == []  # held, not executed
    events, _ = read_events(Path(data["bundle"]))
    assert [e.agent.policy.outcome for e in events if e.agent and e.agent.policy] == ["held"]
    assert verify_bundle(Path(data["bundle"])).status == "incomplete"
