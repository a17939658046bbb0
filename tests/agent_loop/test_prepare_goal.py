"""``prepare --goal``: the agent explores read-only (the real anthropic client against the fake Messages server
playing a script), its actions become a plan ending at the first submit, and ``run --confirm`` reproduces the
task on the demo site."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

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

GOAL = "file an expense: merchant Paper & Co, amount 12.50, category Office"


@pytest.fixture
def fake() -> Iterator[FakeMessagesServer]:
    with FakeMessagesServer() as server:
        yield server


def invoke(workspace: Path, fake: FakeMessagesServer | None, *args: str) -> Result:
    env = {"ANTHROPIC_API_KEY": "", "ANTHROPIC_AUTH_TOKEN": "", "ANTHROPIC_BASE_URL": fake.base_url if fake else ""}
    return CliRunner().invoke(cli, ["--workspace", str(workspace), *args], env=env)


def planned(number: int, then: object) -> object:
    """Check the previous call was recorded as plan step ``number`` (not executed), then answer ``then``."""
    def respond(request: ModelRequest) -> ModelTurn:
        text = last_result_text(request)
        assert f"Recorded as plan step {number}" in text and "not executed" in text, text
        return then(request) if callable(then) else then  # type: ignore[return-value]
    return respond


def test_prepare_goal_plans_the_task_and_run_confirm_reproduces_it(
    workspace: Path, fake: FakeMessagesServer, demo_site: DemoSite
) -> None:
    demo_site.reset()
    fake.responder = wire_responder([
        act("textbox", "Merchant", "type", text="Paper & Co", progress="Filling in the merchant."),
        planned(1, act("spinbutton", "Amount", "type", text="12.50")),
        planned(2, act("combobox", "Category", "select", text="Office")),
        planned(3, act("button", "Submit expense", progress="Submitting the expense.")),
    ])
    result = invoke(workspace, fake, "--json", "prepare", "--goal", GOAL, "--url", demo_site.base_url + "/expense")
    assert result.exit_code == 2, result.output  # the plan has side effects
    prepared = orjson.loads(result.stdout)
    assert prepared["requiresConfirm"] is True
    steps = [(s["kind"], s["action"], s["target"]) for s in prepared["steps"]]
    assert steps == [("fill", "type", 'textbox "Merchant"'), ("fill", "type", 'spinbutton "Amount"'),
                     ("fill", "select", 'combobox "Category"'), ("submit", "click", 'button "Submit expense"')]
    assert "Paper & Co" in prepared["diffText"] and "12.50" in prepared["diffText"]
    # Exploring and preparing changed nothing on the site.
    assert demo_site.state.submissions == [] and demo_site.state.draft == {}
    assert "Exploration req-" in result.stderr and "explore: Filling in the merchant." in result.stderr

    plan = orjson.loads((Path(prepared["bundle"]) / "plan.json").read_bytes())
    assert plan["source"]["kind"] == "agent" and plan["source"]["name"].startswith("agent exploration req-")
    exploration = Path(plan["source"]["path"])
    assert verify_bundle(exploration).ok
    events, _ = read_events(exploration)
    assert [e.agent.policy.outcome for e in events if e.agent and e.agent.policy] == ["planned"] * 4

    ran = invoke(workspace, fake, "--json", "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert ran.exit_code == 0, ran.output
    [submission] = demo_site.state.submissions
    assert submission["merchant"] == "Paper & Co" and submission["amount"] == "12.50"
    assert submission["category"] == "Office"
    assert len(fake.requests) == 4  # run used no model: the plan did the work


def test_prepare_goal_needs_a_url_one_source_and_a_model(workspace: Path, fake: FakeMessagesServer) -> None:
    no_url = invoke(workspace, fake, "prepare", "--goal", GOAL)
    assert no_url.exit_code == 1 and "--goal needs --url" in no_url.output
    both = invoke(workspace, fake, "prepare", "--goal", GOAL, "--url", "http://127.0.0.1:9/", "--pack", "demo_expense")
    assert both.exit_code == 1 and "exactly one plan source" in both.output
    no_model = invoke(workspace, None, "prepare", "--goal", GOAL, "--url", "http://127.0.0.1:9/")
    assert no_model.exit_code == 1 and "BROWSER_LLM_UNAVAILABLE" in no_model.output
    assert not (workspace / "artifacts").exists()  # nothing started


def test_an_exploration_that_plans_nothing_is_an_error(
    workspace: Path, fake: FakeMessagesServer, demo_site: DemoSite
) -> None:
    fake.responder = wire_responder([tool_turn("assistant_done", {"reason": "New expense form: nothing to do."})])
    result = invoke(workspace, fake, "prepare", "--goal", GOAL, "--url", demo_site.base_url + "/expense")
    assert result.exit_code == 1 and "BROWSER_PLAN_INVALID" in result.output and "no step" in result.output
