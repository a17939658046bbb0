"""``browserops agent`` through click's CliRunner, with the real anthropic client talking to the local fake
Messages server (a scripted model over the wire) and its own Chromium — in-process tools and ``--mcp``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from click.testing import CliRunner, Result

from browserops.agent.model_api import ModelTurn, tool_turn
from browserops.agent.scripted import ModelRequest
from browserops.cli import cli
from browserops.demo_site import DemoSite
from browserops.evidence import read_events, verify_bundle
from tests.agent.fake_messages_server import FakeMessagesServer
from tests.agent_loop.helpers import act, last_result_text, wire_responder


@pytest.fixture
def fake() -> Iterator[FakeMessagesServer]:
    with FakeMessagesServer() as server:
        yield server


def invoke(workspace: Path, fake: FakeMessagesServer | None, *args: str, input: str | None = None) -> Result:
    env = {"ANTHROPIC_API_KEY": "", "ANTHROPIC_AUTH_TOKEN": "", "ANTHROPIC_BASE_URL": fake.base_url if fake else ""}
    return CliRunner().invoke(cli, ["--workspace", str(workspace), *args], env=env, input=input)


def search(query: str) -> list[Any]:
    return [act("searchbox", "Search", "type", text=query, submit=True, progress="Searching the catalogue."),
            tool_turn("assistant_done", {"reason": f"The results page for {query} lists matching items."}, "Done.")]


def test_without_a_model_it_fails_before_starting_a_browser(workspace: Path) -> None:
    result = invoke(workspace, None, "agent", "find a stapler")
    assert result.exit_code == 1
    assert "BROWSER_LLM_UNAVAILABLE" in result.output and "ANTHROPIC_API_KEY" in result.output
    assert "Agent run" not in result.stderr  # printed once the browser is up: it never started
    assert not (workspace / "artifacts").exists()
    assert "Examples:" in CliRunner().invoke(cli, ["agent", "--help"]).output


@pytest.mark.parametrize("mcp", [False, True], ids=["in-process", "mcp"])
def test_a_search_task_end_to_end(workspace: Path, fake: FakeMessagesServer, demo_site: DemoSite, mcp: bool) -> None:
    demo_site.reset()
    fake.responder = wire_responder(search("stapler"))
    args = ["--json", "agent", "find a stapler", "--url", demo_site.base_url + "/", "--max-steps", "5",
            "--model", "claude-test", *(["--mcp"] if mcp else [])]
    result = invoke(workspace, fake, *args)
    assert result.exit_code == 0, result.output
    out = orjson.loads(result.stdout)
    assert out["status"] == "ok" and out["outcome"] == "done" and out["verified"] is True
    assert out["steps"] == 1 and out["iterations"] == 2
    assert demo_site.state.searches == ["stapler"]
    # One progress line per step on stderr; stdout is only the JSON.
    assert "[1] Searching the catalogue. — browser_overlay_act: ok" in result.stderr
    assert verify_bundle(Path(out["bundle"])).ok
    assert fake.requests[0].body["model"] == "claude-test"
    assert any(t["name"] == "browser_inspect" for t in fake.requests[0].body["tools"])


def test_a_question_is_answered_from_stdin(workspace: Path, fake: FakeMessagesServer, demo_site: DemoSite) -> None:
    demo_site.reset()

    def use_answer(request: ModelRequest) -> ModelTurn:
        assert '"user_answer": "marker"' in last_result_text(request)
        return act("searchbox", "Search", "type", text="marker", submit=True)(request)

    fake.responder = wire_responder([
        tool_turn("assistant_ask", {"question": "Which product?"}, "I need to know what to look for."),
        use_answer,
        tool_turn("assistant_done", {"reason": "The results list the Whiteboard marker set."}),
    ])
    result = invoke(workspace, fake, "agent", "look something up", "--url", demo_site.base_url + "/search",
                    input="marker\n")
    assert result.exit_code == 0, result.output
    assert "Question: Which product?" in result.stderr
    assert result.stdout.startswith("Done: The results list the Whiteboard marker set.")
    assert demo_site.state.searches == ["marker"]


def test_without_a_terminal_destructive_steps_are_refused_and_limits_end_the_run(
    workspace: Path, fake: FakeMessagesServer, demo_site: DemoSite
) -> None:
    demo_site.reset()
    fake.responder = wire_responder([act("button", "Delete", progress="Deleting it.")] * 3)
    result = invoke(workspace, fake, "--json", "agent", "delete the first expense", "--url",
                    demo_site.base_url + "/expenses", "--max-steps", "3")
    assert result.exit_code == 1
    out = orjson.loads(result.stdout)
    assert out["code"] == "BROWSER_LIMIT_REACHED" and out["details"]["outcome"] == "limit"
    assert "I made 3 steps: 0 worked, 3 failed" in out["error"]
    assert demo_site.state.deletions == []
    bundle = Path(out["details"]["bundle"])
    events, _ = read_events(bundle)
    refused = [e for e in events if e.agent and e.agent.policy and e.agent.policy.outcome == "refused"]
    assert len(refused) == 3 and all(e.code == "BROWSER_POLICY_REFUSED" for e in refused)
    assert verify_bundle(bundle).status == "incomplete"


def test_a_login_handoff_without_a_terminal_stops_with_needs_user(
    workspace: Path, fake: FakeMessagesServer, demo_site: DemoSite
) -> None:
    demo_site.reset()
    fake.responder = wire_responder([act("textbox", "Password", "type", text="demo")])
    result = invoke(workspace, fake, "agent", "log in", "--url", demo_site.base_url + "/login")
    assert result.exit_code == 1
    assert "BROWSER_NEEDS_USER" in result.stderr and "password" in result.stderr
    assert demo_site.state.logins == []
