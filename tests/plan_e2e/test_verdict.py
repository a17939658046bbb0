"""Issue 35: the verdict is exact. A plan prepare calls ready runs on the unchanged page: several steps on one field
are one line of the diff, whose staleness baseline is the field's value before any step touched it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from browserops.demo_site.zoo_site import ZooSite
from tests.plan_e2e.helpers import cli_json, write_steps


@pytest.fixture(scope="module")
def zoo() -> Iterator[ZooSite]:
    with ZooSite() as site:
        yield site


def _pick(field: str, option: str) -> dict[str, object]:
    return {"kind": "fill", "action": "select", "field": field, "target": {"role": "listbox", "names": ["Fruits"]},
            "value": option}


def test_two_steps_on_one_multiple_select_prepare_and_run(zoo: ZooSite, workspace: Path) -> None:
    steps = write_steps(workspace, "fruits.yaml", {"title": "Pick fruits", "steps": [
        _pick("fruit1", "Apple"), _pick("fruit2", "Banana")]})
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--url", zoo.url("native"))
    assert code == 2, (prepared, err)
    # One field, one line: the value before either step (empty), and what the last step leaves.
    assert [(d["field"], d["op"], d.get("before"), d["after"]) for d in prepared["diff"]] == [
        ("fruit1", "+", None, "Banana")], prepared["diff"]
    code, run, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert code == 0 and run["runStatus"] == "complete", (run.get("error"), err)
    assert [s["status"] for s in run["steps"]] == ["ok", "ok"]



def test_a_field_that_rewrites_what_is_typed_is_read_back_before_the_next_step(zoo: ZooSite,
                                                                                workspace: Path) -> None:
    """IMask (from npm) formats a phone number as it is typed: the field then holds other text than the plan's.
    The read-back after the act says so — in prepare's rehearsal as a problem, in the run as BROWSER_VALUE_MISMATCH
    with the field, the planned and the found value — and the run's later steps never run."""
    steps = write_steps(workspace, "phone.yaml", {"title": "Phone and card", "steps": [
        {"kind": "fill", "field": "phone", "target": {"role": "textbox", "names": ["Phone"]}, "value": "15551234567"},
        {"kind": "fill", "field": "card", "target": {"role": "textbox", "names": ["Card number"]},
         "value": "4111111111111111"}]})
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--url", zoo.url("masks"))
    assert code == 2, (prepared, err)
    problems = [(p["step"], p["code"]) for p in prepared["problems"]]
    assert (1, "BROWSER_VALUE_MISMATCH") in problems, prepared["problems"]
    code, run, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert code == 1 and run["code"] == "BROWSER_VALUE_MISMATCH", (run, err)
    details = run["details"]
    assert details["field"] == "phone" and details["planned"] == "15551234567" and details["found"] != "15551234567"
    assert [s["status"] for s in details["run"]["steps"]] == ["error"]  # the card was never typed


def test_a_typed_list_becomes_exactly_the_planned_tags(zoo: ZooSite, workspace: Path) -> None:
    """Issue 35 item 1: Tom Select (from npm) in create mode makes a tag at each comma. Typing ``launch, editor``
    into a field that says it takes "a comma-separated list" is the list {launch, editor}: typed whole, the widget
    would make ``launch`` at the comma and keep `` editor`` as typing. It is typed as a person does, an item at a time,
    each ended as the widget makes a tag (never with Enter, which could send the form), so prepare's rehearsal sends
    nothing and reads back exactly the planned tags (from the hidden field the widget stands for), and the run sends
    the form once, with exactly those tags."""
    steps = write_steps(workspace, "tags.yaml", {"title": "Tag the post", "steps": [
        {"kind": "fill", "field": "topics", "target": {"role": "combobox", "names": ["Topics"]},
         "value": "launch, editor"},
        {"kind": "submit", "target": {"role": "button", "names": ["Save"]}, "expect": {"text": ["Form received"]}}]})
    posts = len(zoo.posts)
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--url", zoo.url("tags"))
    assert code == 2 and prepared["problems"] == [], (prepared, err)
    assert zoo.posts[posts:] == []  # the rehearsal's typing sent nothing
    code, run, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    assert [p.get("post_tags") for p in zoo.posts[posts:]] == ["launch,editor"], zoo.posts[posts:]


def test_picks_in_a_multiple_select_and_a_choice_are_read_back(zoo: ZooSite, workspace: Path) -> None:
    """A native choice and a native multiple select hold what the plan says after their steps: both read back as
    planned (by the shown choice, by the set of picks), the run completes and the form sends exactly those."""
    steps = write_steps(workspace, "post.yaml", {"title": "Publish the post", "steps": [
        {"kind": "fill", "action": "select", "field": "status", "target": {"role": "combobox", "names": ["Status"]},
         "value": "In review"},
        {"kind": "fill", "action": "select", "field": "channels",
         "target": {"role": "listbox", "names": ["Channels"]}, "value": ["Web", "Social"]},
        {"kind": "submit", "target": {"role": "button", "names": ["Save"]}, "expect": {"text": ["Form received"]}}]})
    posts = len(zoo.posts)
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--url", zoo.url("tags"))
    assert code == 2 and prepared["problems"] == [], (prepared, err)
    code, run, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    sent = zoo.posts[posts:]
    assert len(sent) == 1 and sent[0]["status"] == "In review" and sent[0]["channels"] == "Web,Social", sent


# A UI kit's multiple select with no hidden field, on a page that sends its form, refusing one option on change:
# (page, field label, save button, form field, picks that stick, picks with the refused one, what then shows).
KITS = [("kit_certs", "资质认证", "保存", "certs", ["CE", "FSC"], ["CE", "RoHS"], ["CE"]),
        ("kit_tags", "客户标签", "保存客户", "tags", ["重点", "代理商"], ["重点", "海外"], ["重点"])]


def _picks(label: str, save: str, value: list[str]) -> dict[str, object]:
    return {"title": "Pick", "steps": [
        {"kind": "fill", "action": "select", "field": "picks", "target": {"role": "combobox", "names": [label]},
         "value": value},
        {"kind": "submit", "target": {"role": "button", "names": [save]}, "expect": {"text": ["Form received"]}}]}


@pytest.mark.parametrize(("page", "label", "save", "name", "good", "refused", "shown"), KITS, ids=[k[0] for k in KITS])
def test_a_kit_multiple_select_is_read_back_by_the_chips_it_shows(zoo: ZooSite, workspace: Path, page: str,
                                                                   label: str, save: str, name: str, good: list[str],
                                                                   refused: list[str], shown: list[str]) -> None:
    """Element Plus and antd 5 (from npm) keep no hidden field for a multiple select: its chips are what it holds.
    Picks that stick read back as planned and the form sends exactly them; a pick the app takes away again on change
    (validation refusing it) is not among the chips after the act, so prepare reports it and the run stops with
    BROWSER_VALUE_MISMATCH before Save: the site records nothing."""
    posts = len(zoo.posts)
    steps = write_steps(workspace, f"{page}.yaml", _picks(label, save, good))
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--url", zoo.url(page))
    assert code == 2 and prepared["problems"] == [], (prepared, err)
    code, run, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    assert [p.get(name) for p in zoo.posts[posts:]] == [",".join(good)], zoo.posts[posts:]

    posts = len(zoo.posts)
    steps = write_steps(workspace, f"{page}_refused.yaml", _picks(label, save, refused))
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--url", zoo.url(page))
    assert code == 2, (prepared, err)
    assert [(p["step"], p["code"]) for p in prepared["problems"]] == [(1, "BROWSER_VALUE_MISMATCH")], prepared
    code, run, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert code == 1 and run["code"] == "BROWSER_VALUE_MISMATCH", (run, err)
    details = run["details"]
    assert details["planned"] == refused and details["found"] == shown, details
    assert [s["status"] for s in details["run"]["steps"]] == ["error"]  # Save never ran
    assert zoo.posts[posts:] == []  # the site's own record: nothing sent
