"""A new action word is one entry in ACTION_WORDS naming its browser call: the args model, the policy gate, the MCP
schema and the runner follow it without another edit (docs/design.md §3.5)."""

from __future__ import annotations

from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client

from browserops.browser.launch.session import BrowserSession
from browserops.config import Settings
from browserops.contract import SideEffect
from browserops.demo_site import DemoSite
from browserops.mcp_server import BrowserOpsMCP, build_server
from browserops.plan.steps import Kind, Step, StepFile
from browserops.policy import TargetInfo, Verdict, classify
from browserops.tools.context import ToolContext
from browserops.tools.definitions import get_definition
from browserops.tools.definitions.acting import ACTION_WORDS, ActionWord
from browserops.tools.runner import BARE, ToolRunner
from tests.plan_e2e.helpers import cli_json, events, write_steps

OVERLAY_ACT = get_definition("browser_overlay_act")
assert OVERLAY_ACT is not None
SAVE = TargetInfo(role="button", name="Save draft")
DELETE = TargetInfo(role="button", name="Delete account")


WIGGLED: list[Any] = []  # what the fake word's browser call was given
WIGGLE_CALL = "tests.tools.test_action_words:wiggle_call"


async def _record(element: int | str, text: str) -> dict[str, Any]:
    WIGGLED.append((element, text))
    return {"wiggled": element, "text_length": len(text)}


def wiggle_call(session: BrowserSession, element: int | str, text: str, submit: bool, timeout_ms: int
                ) -> Awaitable[dict[str, Any]]:
    """The fake word's browser call, named by its ActionWord as any word's is."""
    return _record(element, text)


@pytest.fixture
def wiggle(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The fake word "wiggle": it only types (commits nothing by itself), takes text, and calls a recorder — one
    table entry naming its browser call, nothing else."""
    WIGGLED.clear()
    monkeypatch.setitem(ACTION_WORDS, "wiggle", ActionWord("wiggle", WIGGLE_CALL,
                                                           "move the element a little", commits="type",
                                                           text="required", text_hint="how far"))
    return WIGGLED


def test_the_args_model_and_the_policy_follow_a_new_word(wiggle: list[Any]) -> None:
    args = OVERLAY_ACT.args.model_validate({"index": 3, "action": "wiggle", "text": "2px"})
    assert args.action == "wiggle"  # type: ignore[attr-defined]
    traits = OVERLAY_ACT.traits
    # It only types: allowed even on a button named like a destructive action, as typing is.
    assert classify("browser_overlay_act", {"index": 3, "action": "wiggle"}, DELETE, traits).verdict is Verdict.ALLOW
    assert classify("browser_overlay_act", {"index": 3, "action": "click"}, DELETE, traits).verdict \
        is Verdict.CONFIRM
    # Made to activate instead, the same call is judged as a click.
    ACTION_WORDS["wiggle"] = ActionWord("wiggle", WIGGLE_CALL, commits="activate")
    assert classify("browser_overlay_act", {"index": 3, "action": "wiggle"}, DELETE, traits).verdict \
        is Verdict.CONFIRM
    assert classify("browser_overlay_act", {"index": 3, "action": "wiggle"}, SAVE, traits).allowed


def test_an_unknown_word_is_refused_by_the_args_model_and_judged_strictly() -> None:
    with pytest.raises(ValueError, match="'click', 'type', 'select' or 'press'"):
        OVERLAY_ACT.args.model_validate({"index": 3, "action": "wiggle"})
    traits = OVERLAY_ACT.traits
    assert classify("browser_overlay_act", {"index": 3, "action": "wiggle"}, SAVE, traits).verdict \
        is not Verdict.HANDOFF
    assert classify("browser_overlay_act", {"index": 3, "action": "wiggle"}, None, traits).verdict \
        is Verdict.CONFIRM


async def test_the_mcp_schema_lists_the_new_word(wiggle: list[Any], tmp_path: Path) -> None:
    app = BrowserOpsMCP(Settings(), tmp_path)
    async with Client(build_server(app)) as client:
        listed = {t.name: t for t in (await client.list_tools()).tools}
    for name in ("browser_overlay_act", "browser_act_by_index"):
        action = listed[name].input_schema["properties"]["action"]
        assert action["enum"] == ["click", "type", "select", "press", "wiggle"], name
    assert "wiggle (move the element a little)" in listed["browser_overlay_act"].input_schema["properties"][
        "action"]["description"]


async def test_the_runner_runs_the_new_word_through_its_call(wiggle: list[Any], tool_ctx: ToolContext,
                                                              demo_site: DemoSite) -> None:
    runner = ToolRunner(tool_ctx, BARE)
    assert (await runner.call("browser_navigate", {"url": demo_site.base_url + "/search"})).status == "ok"
    result = await runner.call("browser_overlay_act", {"index": 2, "action": "wiggle", "text": "3px"})
    assert result.status == "ok" and result.data == {"wiggled": 2, "text_length": 3}
    assert wiggle == [(2, "3px")] and tool_ctx.signals.acted
    missing = await runner.call("browser_overlay_act", {"index": 2, "action": "wiggle"})
    assert missing.code == "BROWSER_INVALID_ARGS" and "give how far" in str(missing.error)


def test_a_step_file_takes_the_new_word(wiggle: list[Any]) -> None:
    """The plan's step schema follows the table: the word is a step action, typed-only words are fills, the
    step-file JSON schema lists it, and a word nobody defined is refused naming the ones that exist."""
    step = Step.model_validate({"action": "wiggle", "field": "nudge", "value": "2px",
                                "target": {"role": "searchbox", "names": ["Search"]}})
    assert step.kind is Kind.FILL and step.tool == "browser_overlay_act" and step.side_effect is SideEffect.BROWSER_ACT
    with pytest.raises(ValueError, match="needs a 'value'"):
        Step.model_validate({"action": "wiggle", "target": {"role": "searchbox", "names": ["Search"]}})
    action = StepFile.model_json_schema()["$defs"]["Step"]["properties"]["action"]
    assert "wiggle" in action["anyOf"][0]["enum"] and "click" in action["anyOf"][0]["enum"]
    with pytest.raises(ValueError, match=r"'twirl' is not an action \(use navigate, .*, press, wiggle\)"):
        Step.model_validate({"action": "twirl", "target": {"role": "button", "names": ["Go"]}})
    # A word that activates is a click step.
    ACTION_WORDS["wiggle"] = ActionWord("wiggle", WIGGLE_CALL, commits="activate")
    clicky = Step.model_validate({"action": "wiggle", "target": {"role": "button", "names": ["Go"]}})
    assert clicky.kind is Kind.ACT and clicky.activates


def test_a_plan_runs_the_new_word_through_prepare_and_run(wiggle: list[Any], demo_site: DemoSite,
                                                          workspace: Path) -> None:
    """prepare rehearses the step with the word (in its fenced copy) and run performs it, both through the tool."""
    doc = {"title": "Wiggle the search box", "startUrl": "/search", "steps": [
        {"action": "wiggle", "field": "nudge", "value": "3px", "target": {"role": "searchbox", "names": ["Search"]}}]}
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(write_steps(workspace, "w.yaml", doc)),
                                   "--base-url", demo_site.base_url)
    assert code == 2, (prepared, err)
    assert '+ nudge' in prepared["diffText"] and len(wiggle) == 1  # rehearsed once by prepare
    code, ran, err = cli_json(workspace, "run", str(prepared["requestId"]), "--confirm",
                              str(prepared["confirmPhrase"]))
    assert code == 0, (ran, err)
    assert len(wiggle) == 2 and wiggle[0] == wiggle[1] and wiggle[1][1] == "3px"
    acted = [e for e in events(workspace, str(prepared["requestId"])) if e.get("step") == 1
             and e.get("tool") == "browser_overlay_act" and e.get("status") == "ok"]
    assert acted and acted[-1]["args"]["action"] == "wiggle"
