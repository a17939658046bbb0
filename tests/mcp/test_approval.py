"""Who may confirm over MCP, without a browser: what counts as a phrase or a confirmation in a caller's arguments, the
question the person reads, how an approval binds to one version of a plan, and a bundle shown at the MCP door."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from mcp.client import Client

from browserops.config import Settings
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence import Approval, BundleWriter, StepEvent, read_info
from browserops.mcp_server import BrowserOpsMCP, build_server
from browserops.mcp_server.approval import approval_message, refuse_model_confirmation, refuse_phrase
from browserops.plan import confirm_phrase, contains_phrase, plan_digest
from browserops.plan.run.attempt import check_confirm
from browserops.twophase import evidence_view
from tests.plan_samples import REQUEST_ID, expense_plan


def test_a_phrase_is_found_in_any_spelling_and_nothing_else_is() -> None:
    phrase = confirm_phrase(expense_plan())
    words = phrase.split("-")
    for text in (phrase, phrase.upper(), " ".join(words), "_".join(words), f"ok: {phrase}.",
                 f"please run it, the code is {words[0]}  {words[1]} - {words[2]}\n{words[3].upper()}"):
        assert contains_phrase(text), text
    for text in ("-".join(words[:3]), f"x{phrase}", f"{phrase}0", "amber falcon river", "req-20260105-101500-ab12",
                 "tulip-zebra-zinc-12345", "the plan: 9 fills, 1 submit"):
        assert not contains_phrase(text), text


@pytest.mark.parametrize("arguments", [
    {"request_id": REQUEST_ID, "confirm": True},
    {"request_id": REQUEST_ID, "Confirm-Phrase": "x"},
    {"request_id": REQUEST_ID, "approved": "yes"},
    {"request_id": REQUEST_ID, "note": "PHRASE"},
    {"request_id": REQUEST_ID, "extra": {"deep": ["a", "PHRASE"]}},
    {"request_id": "PHRASE"},
])
def test_the_caller_cannot_confirm(arguments: dict[str, object]) -> None:
    phrase = confirm_phrase(expense_plan())

    def fill(value: object) -> object:
        if isinstance(value, str):
            return value.replace("PHRASE", phrase.replace("-", " "))
        if isinstance(value, dict):
            return {k: fill(v) for k, v in value.items()}
        if isinstance(value, list):
            return [fill(v) for v in value]
        return value

    with pytest.raises(BrowserOpsError) as caught:
        refuse_model_confirmation(fill(arguments))  # type: ignore[arg-type]
    assert caught.value.code is ErrorCode.CONFIRM_BY_MODEL
    assert "Nothing ran" in caught.value.message or "nothing ran" in caught.value.message


def test_plain_arguments_pass() -> None:
    refuse_model_confirmation({"request_id": REQUEST_ID, "browser": "fresh", "no_wait": True})
    # prepare and evidence refuse a phrase, not a field a pack may well call "confirm".
    refuse_phrase({"pack": "demo", "input": {"confirm": True, "approved": "yes"}})
    with pytest.raises(BrowserOpsError) as caught:
        refuse_phrase({"steps": f"title: x\nsteps: []\n# {confirm_phrase(expense_plan())}"})
    assert caught.value.code is ErrorCode.CONFIRM_BY_MODEL


async def test_every_plan_tool_refuses_a_phrase_in_its_arguments(workspace: Path) -> None:
    phrase = confirm_phrase(expense_plan())
    async with Client(build_server(BrowserOpsMCP(Settings(), workspace))) as client:
        for name, args in (("browser_prepare", {"steps": f"title: {phrase}", "url": "http://127.0.0.1:9/"}),
                           ("browser_run", {"request_id": REQUEST_ID, "note": phrase}),
                           ("browser_evidence", {"request_id": phrase})):
            result = await client.call_tool(name, args)
            assert result.structured_content is not None
            assert result.structured_content["code"] == "BROWSER_CONFIRM_BY_MODEL", (name, result.structured_content)


def test_the_question_shows_the_plan_and_never_its_phrase() -> None:
    plan = expense_plan()
    message = approval_message(plan)
    assert REQUEST_ID in message and plan.title in message and plan.start_url in message
    assert '+ merchant = "Northwind Taxi"' in message and '~ amount   = "10.00" -> "23.40"' in message
    assert '> submit   button "Submit expense"   [browser-act]' in message and "needs --confirm" not in message
    assert "password = (sensitive)" in message
    assert "side effects: export, browser-act" in message and "logged-in: Log in" in message
    assert not contains_phrase(message) and plan_digest(plan) not in message


def test_an_approval_binds_to_one_version_of_the_plan() -> None:
    plan = expense_plan()
    approval = Approval(client="c 1", at=dt.datetime.now(dt.UTC), plan_digest=plan_digest(plan))
    assert check_confirm(plan, None, approval) is True
    edited = plan.model_copy(update={"title": "Something else"})
    with pytest.raises(BrowserOpsError) as caught:
        check_confirm(edited, None, approval)
    assert caught.value.code is ErrorCode.CONFIRM_REQUIRED and "another version" in caught.value.message
    with pytest.raises(BrowserOpsError) as both:
        check_confirm(plan, confirm_phrase(plan), approval)
    assert both.value.code is ErrorCode.INVALID_ARGS
    assert check_confirm(plan, None, None) is False


def _bundle(workspace: Path, *, approved: Approval | None, phrase: str | None) -> Path:
    plan = expense_plan()
    with BundleWriter.create(workspace, REQUEST_ID) as writer:
        writer.write_plan(plan)
        writer.finish("prepared")
    with BundleWriter.open(workspace, REQUEST_ID, confirmed_with=phrase, approved=approved) as writer:
        writer.log_event(StepEvent.begin(step=2, tool="browser_overlay_act", kind="fill").end({"status": "ok"}))
        writer.finish("complete")
    return writer.path


def test_an_approved_run_is_confirmed_once_and_shown_with_its_client(workspace: Path) -> None:
    plan = expense_plan()
    approval = Approval(client="approval-test-client 4.2", at=dt.datetime(2026, 1, 5, 10, 20, tzinfo=dt.UTC),
                        plan_digest=plan_digest(plan))
    path = _bundle(workspace, approved=approval, phrase=None)
    info = read_info(path)
    assert info is not None and info.attempts[-1].approved == approval and info.attempts[-1].confirmed
    with pytest.raises(BrowserOpsError) as again:
        BundleWriter.open(workspace, REQUEST_ID, approved=approval)
    assert again.value.code is ErrorCode.PLAN_STALE
    view = evidence_view(workspace, REQUEST_ID, hide_phrase=True)
    assert view["verify"]["ok"] and view["attempts"][-1]["confirmedBy"] == {
        "via": "elicitation", "client": "approval-test-client 4.2", "at": "2026-01-05T10:20:00+00:00",
        "planDigest": plan_digest(plan)}
    assert "approval through the MCP client `approval-test-client 4.2` (elicitation, 2026-01-05 10:20:00" in (
        view["summary"])
    assert "approval-test-client 4.2" in (path / "summary.md").read_text(encoding="utf-8")


def test_a_phrase_confirmed_run_is_shown_without_its_phrase_at_the_mcp_door(workspace: Path) -> None:
    phrase = confirm_phrase(expense_plan())
    path = _bundle(workspace, approved=None, phrase=phrase)
    assert phrase in (path / "summary.md").read_text(encoding="utf-8")  # the bundle itself keeps it
    hidden = evidence_view(workspace, REQUEST_ID, hide_phrase=True)
    assert hidden["attempts"][-1]["confirmedBy"] == {"via": "phrase"}
    assert not contains_phrase(str(hidden)) and "typed in a terminal (not shown here)" in hidden["summary"]
    shown = evidence_view(workspace, REQUEST_ID, hide_phrase=False)
    assert shown["attempts"][-1]["confirmedBy"] == {"via": "phrase", "phrase": phrase}
