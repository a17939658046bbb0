"""BrowserPlan and Step: derived fields, the rules a hand edit cannot break, the phrase, the diff text."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

import orjson
import pytest
from pydantic import ValidationError

from browserops.contract import SideEffect
from browserops.evidence.layout import check_request_id, new_request_id
from browserops.plan import (
    BrowserPlan,
    DiffEntry,
    Fingerprint,
    PlanDraft,
    PlanSource,
    Step,
    build_plan,
    confirm_phrase,
    missing_evidence,
    parse_plan,
    plan_digest,
    render_diff,
    stale_fields,
    verify_phrase,
)
from browserops.plan.model.document import fill_keys, number_steps
from browserops.plan.model.phrase import WORDS
from browserops.plan.model.step_values import multi_text, wanted_value
from tests.plan_samples import REQUEST_ID, expense_plan, expense_steps


def step(**raw: Any) -> Step:
    return Step.model_validate(raw)


# --------------------------------------------------------------------------- steps


def test_kind_and_action_derive_each_other_with_side_effect_and_tool() -> None:
    s = step(kind="submit", target={"role": "button", "names": ["Pay"]})
    assert (s.action, s.side_effect, s.tool) == ("click", SideEffect.BROWSER_ACT, "browser_overlay_act")
    s = step(action="download", target={"role": "link", "names": ["Export CSV"]})
    assert (s.kind, s.side_effect, s.tool) == ("export", SideEffect.EXPORT, "browser_click_and_wait_download")
    s = step(action="click", target={"role": "button", "names": ["Add row"]})
    assert s.kind == "act" and s.needs_confirm  # a bare click is never a read
    s = step(kind="navigate", url="https://example.com/x")
    assert s.side_effect is SideEffect.READ_ONLY and not s.needs_confirm


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        ({"kind": "submit", "sideEffect": "read-only", "target": {"role": "button", "names": ["Submit"]}},
         "lower than 'browser-act'"),
        ({"kind": "export", "action": "click", "target": {"role": "link", "names": ["x"]}}, "cannot be kind"),
        ({"kind": "fill", "target": {"role": "textbox", "names": ["Amount"]}, "value": 23.4}, "quoted text"),
        ({"kind": "fill", "target": {"role": "textbox", "names": ["A"]}}, "needs a 'value'"),
        ({"kind": "fill", "target": {"role": "textbox", "names": ["P"]}, "value": "x",
          "valueRef": {"key": "p", "sensitive": True}}, "sensitive value must not be written"),
        ({"kind": "fill", "action": "check", "target": {"role": "checkbox", "names": ["B"]}, "value": "yes"},
         "true or false"),
        ({"kind": "navigate", "url": "javascript:alert(1)"}, "not allowed"),
        ({"kind": "navigate", "url": "//evil.example/x"}, "start with '//'"),
        ({"kind": "submit"}, "needs a 'target'"),
        ({"kind": "fill", "target": {"role": "textbox", "names": []}, "value": "x"}, "candidate name"),
        ({"kind": "fill", "target": {"role": "div.button > a", "names": ["x"]}, "value": "x"}, "not an ARIA role"),
        ({"kind": "submit", "target": {"role": "button", "names": ["x"], "selector": "#pay"}}, "Extra inputs"),
        ({"kind": "export", "target": {"role": "link", "names": ["x"]}, "saveAs": "../../etc/passwd"},
         "plain file name"),
        ({"kind": "submit", "tool": "browser_navigate", "target": {"role": "button", "names": ["x"]}},
         "cannot perform click"),
        ({"kind": "read", "action": "wait_text"}, "needs 'expect'"),
    ],
)
def test_invalid_steps_are_refused_with_a_reason(raw: dict[str, Any], fragment: str) -> None:
    with pytest.raises(ValidationError) as info:
        Step.model_validate(raw)
    assert fragment in str(info.value)


def test_side_effect_may_be_raised_never_lowered() -> None:
    s = step(kind="navigate", url="/logout", sideEffect="browser-act")
    assert s.side_effect is SideEffect.BROWSER_ACT and s.needs_confirm


# --------------------------------------------------------------------------- plans


def test_build_plan_derives_side_effects_and_evidence() -> None:
    plan = expense_plan()
    assert [a.number for a in plan.actions] == list(range(1, 9))
    assert plan.side_effects.highest is SideEffect.BROWSER_ACT
    assert plan.side_effects.confirm_steps == [2, 3, 4, 5, 6, 7]
    assert plan.side_effects.free_steps == [1, 8]
    paths = {e.path for e in plan.evidence_plan}
    assert {"screenshots/007_before_submit.png", "screenshots/007_after_submit.png",
            "exports/statements_2026-01.csv", "snapshots/001_expense.aria.txt"} <= paths
    assert plan.request_id == REQUEST_ID


def test_plan_json_round_trips_exactly() -> None:
    plan = expense_plan()
    again = parse_plan(plan.to_json())
    assert again == plan
    assert plan_digest(again) == plan_digest(plan)


def test_sensitive_values_never_reach_plan_json() -> None:
    text = expense_plan().to_json().decode()
    assert "secret" not in text
    assert '"sensitive": true' in text


def _edit(plan: BrowserPlan, path: list[Any], value: Any) -> dict[str, Any]:
    data: dict[str, Any] = orjson.loads(plan.to_json())
    node: Any = data
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return data


@pytest.mark.parametrize(
    ("path", "value", "fragment"),
    [
        (["actions", 6, "sideEffect"], "read-only", "lower than"),
        (["sideEffects", "confirmSteps"], [], "sideEffects does not match"),
        (["actions", 2, "number"], 9, "numbered 1, 2, 3"),
        (["evidencePlan"], [], "lacks required evidence"),
        (["diff", 0, "op"], "-", "values say '+'"),
        (["diff", 0, "step"], 7, "not a fill"),
        (["fingerprint"], None, "needs the fingerprint"),
        (["requestId"], "req-20261399-000000-abcd", "not a request id"),
        (["created"], "2026-01-05T10:15:00", "time zone"),
        (["format_version"], 2, "newer than this browserops"),
        (["startUrl"], "file:///etc/passwd", "absolute http(s) URL"),
        (["requirements", 0, "step"], 99, "does not exist"),
        (["diff", 1, "before"], "10.01", "before value is not the fingerprint's"),
        (["fingerprint", "values", "password"], "hunter2", "must not record sensitive fields"),
    ],
)
def test_hand_edits_that_break_the_rules_are_refused(path: list[Any], value: Any, fragment: str) -> None:
    from browserops.contract import BrowserOpsError, ErrorCode

    data = _edit(expense_plan(), path, value)
    with pytest.raises(BrowserOpsError) as info:
        parse_plan(orjson.dumps(data), "plan.json")
    assert info.value.code is ErrorCode.PLAN_INVALID
    assert fragment in info.value.message and info.value.message.startswith("plan.json: ")


def test_counts_use_the_diff_once_prepare_computed_it() -> None:
    assert expense_plan(with_diff=False).counts().fills == 5
    assert expense_plan().counts().fills == 5  # all five fields change
    plan = build_plan(PlanDraft(
        title="t", start_url="http://x/", steps=expense_steps()[:3], workspace="/ws",
        source=PlanSource(kind="steps"), diff=[], fingerprint=expense_plan().fingerprint))
    assert plan.counts().fills == 0 and not plan.has_changes


# --------------------------------------------------------------------------- request ids and phrases


def test_request_ids_are_dated_and_distinct() -> None:
    now = dt.datetime(2026, 3, 4, 5, 6, 7, tzinfo=dt.UTC)
    ids = {new_request_id(now) for _ in range(50)}
    assert len(ids) > 40
    assert all(re.fullmatch(r"req-20260304-050607-[0-9a-f]{4}", i) for i in ids)
    assert check_request_id(next(iter(ids))) == dt.date(2026, 3, 4)


def test_phrase_is_deterministic_and_confirms_only_this_plan() -> None:
    plan = expense_plan()
    phrase = confirm_phrase(plan)
    words = phrase.split("-")
    assert len(words) == 4 and all(w in WORDS for w in words[:3]) and re.fullmatch(r"[0-9a-f]{4}", words[3])
    assert confirm_phrase(parse_plan(plan.to_json())) == phrase
    assert verify_phrase(plan, phrase)
    assert verify_phrase(plan, "  " + phrase.upper().replace("-", " ") + " ")
    assert not verify_phrase(plan, phrase[:-1] + ("0" if phrase[-1] != "0" else "1"))
    assert not verify_phrase(plan, "")
    other = expense_plan(request_id="req-20260105-101500-ab13")
    assert confirm_phrase(other) != phrase


@pytest.mark.parametrize(
    ("path", "value"),
    [
        (["actions", 1, "value"], "Northwind Taxi!"),
        (["actions", 6, "target", "names", 0], "Pay now"),
        (["actions", 1, "target", "nth"], 1),
        (["title"], "Something else"),
        (["fingerprint", "values", "category"], "Travel"),
        (["fingerprint", "pages", 0, "title"], "Old expense"),
    ],
)
def test_any_edit_of_plan_json_changes_the_phrase(path: list[Any], value: Any) -> None:
    plan = expense_plan()
    edited = parse_plan(orjson.dumps(_edit(plan, path, value)))
    assert confirm_phrase(edited) != confirm_phrase(plan)
    assert not verify_phrase(edited, confirm_phrase(plan))


# --------------------------------------------------------------------------- diff text


def test_render_diff_is_terraform_like() -> None:
    text = render_diff(expense_plan())
    lines = text.splitlines()
    assert '  + merchant = "Northwind Taxi"' in lines
    assert '  ~ amount   = "10.00" -> "23.40"' in lines
    assert "  - notes" in lines
    assert '  ~ billable = "false" -> "true"' in lines
    assert "  + password = (sensitive)" in lines
    assert any(line.startswith('  > submit   button "Submit expense"') and "needs --confirm" in line for line in lines)
    assert any("↓ export" in line and "exports/statements_2026-01.csv" in line for line in lines)
    assert lines[-1] == "Plan: 5 fills, 1 submit, 1 export; side effects: export, browser-act"


def test_render_diff_quotes_untrusted_page_values() -> None:
    plan = expense_plan()
    data = orjson.loads(plan.to_json())
    data["diff"][1]["before"] = data["fingerprint"]["values"]["amount"] = "\x1b[2J\nrm -rf / " + "x" * 200
    text = render_diff(parse_plan(orjson.dumps(data)))
    assert "\x1b" not in text and "\\u001b" in text and "\\n" in text
    assert max(len(line) for line in text.splitlines()) < 250


def test_render_diff_without_changes() -> None:
    plan = build_plan(PlanDraft(
        title="t", start_url="http://x/", steps=expense_steps()[:3], workspace="/ws",
        source=PlanSource(kind="steps"), diff=[], fingerprint=expense_plan().fingerprint))
    text = render_diff(plan)
    assert "No changes" in text
    assert text.endswith("Plan: 0 fills, 0 submits, 0 exports; side effects: browser-act")


def test_read_only_plan_summary() -> None:
    plan = build_plan(PlanDraft(
        title="t", start_url="http://x/", steps=[step(kind="navigate", url="/")], workspace="/ws",
        source=PlanSource(kind="steps")))
    assert render_diff(plan).endswith("side effects: none (read-only)")
    assert not plan.has_changes and not plan.side_effects.requires_confirm


def test_stale_fields_and_missing_evidence() -> None:
    plan = expense_plan()
    now = {"merchant": None, "amount": "10.00", "notes": "old note", "billable": "false"}
    assert stale_fields(plan, now) == []
    assert stale_fields(plan, {**now, "amount": "11.00"}) == ["amount"]
    assert stale_fields(plan, {k: v for k, v in now.items() if k != "notes"}) == ["notes"]
    assert stale_fields(expense_plan(with_diff=False), {}) == []
    # Issue 34 item 3: the same value as the page's language writes it is no change; another value still is.
    assert stale_fields(plan, {**now, "amount": "10,00"}, "ru") == []
    assert stale_fields(plan, {**now, "amount": "10,00"}, "en") == ["amount"]  # an English page: no such number
    assert stale_fields(plan, {**now, "amount": "10,50"}, "ru") == ["amount"]
    files = [e.path for e in plan.evidence_plan if e.path]
    assert missing_evidence(plan, files) == []
    missing = missing_evidence(plan, [f for f in files if "after_submit" not in f])
    assert [m.path for m in missing] == ["screenshots/007_after_submit.png"]


def test_diff_entry_compute() -> None:
    assert DiffEntry.compute("f", 1, "a", "a") is None
    # By meaning, in the page's language: a field showing the planned amount or date as the page writes it.
    assert DiffEntry.compute("f", 1, "13\u00a0250,50", "13250.50", lang="ru") is None
    assert DiffEntry.compute("f", 1, "02.11.2026", "2026-11-02", lang="ru") is None
    assert DiffEntry.compute("f", 1, "2026年11月2日", "2026-11-02", lang="zh-CN") is None
    assert DiffEntry.compute("f", 1, "13,250", "13250", lang="en") is None
    changed = DiffEntry.compute("f", 1, "13 250,50", "13250.60", lang="ru")
    assert changed is not None and changed.op == "~"
    assert DiffEntry.compute("f", 1, None, "") is None
    entry = DiffEntry.compute("f", 1, "", "b")
    assert entry is not None and entry.op == "+"
    entry = DiffEntry.compute("f", 1, "a", None)
    assert entry is not None and entry.op == "-" and entry.after is None
    entry = DiffEntry.compute("pw", 1, "old", "new", sensitive=True)
    assert entry is not None and entry.before is None and entry.after is None and entry.op == "~"


def _unread_amount_plan(values: dict[str, str | None], unread: list[str], entry: DiffEntry) -> BrowserPlan:
    plan = expense_plan()
    assert plan.diff is not None and plan.fingerprint is not None
    fingerprint = plan.fingerprint.model_copy(update={"values": values, "unread": unread})
    diff = [entry if d.field == "amount" else d for d in plan.diff]
    data = orjson.loads(plan.model_copy(update={"diff": diff, "fingerprint": fingerprint}).to_json())
    return BrowserPlan.model_validate(data)


def test_a_value_prepare_did_not_read_is_unknown_never_empty() -> None:
    """bug: an unread value stored as null was compared as "empty" and every pre-filled field went stale."""
    base = expense_plan()
    assert base.fingerprint is not None
    values = {k: v for k, v in base.fingerprint.values.items() if k != "amount"}
    plan = _unread_amount_plan(values, ["amount"], DiffEntry.not_read("amount", 3, "23.40"))
    entry = next(d for d in plan.diff or [] if d.field == "amount")
    assert (entry.op, entry.before, entry.after, entry.unread) == ("+", None, "23.40", True)
    # Whatever the run finds there (the real 10.00), an unread field is not stale; a read one still is.
    now = {"merchant": None, "amount": "10.00", "notes": "old note", "billable": "false"}
    assert stale_fields(plan, now) == []
    assert stale_fields(plan, {**now, "notes": "changed"}) == ["notes"]
    assert "+ amount   = \"23.40\"   (current value not read)" in render_diff(plan)


@pytest.mark.parametrize(("values_has_amount", "unread", "fragment"), [
    (False, [], "is unread, but the fingerprint says it was read"),
    (True, ["amount"], "as read and as unread"),
])
def test_unread_fields_are_consistent(values_has_amount: bool, unread: list[str], fragment: str) -> None:
    base = expense_plan()
    assert base.fingerprint is not None
    values = {k: v for k, v in base.fingerprint.values.items() if values_has_amount or k != "amount"}
    with pytest.raises(ValidationError, match=re.escape(fragment)):
        _unread_amount_plan(values, unread, DiffEntry.not_read("amount", 3, "23.40"))
    with pytest.raises(ValidationError, match="was not read, so it has no before value"):
        DiffEntry(field="amount", op="~", before="1", after="2", step=3, unread=True)


def test_press_steps_and_dialog_answers_validate() -> None:
    from browserops.plan.steps import Step

    escape = Step.model_validate({"kind": "press", "key": "esc", "target": {"role": "combobox", "names": ["Tags"]}})
    assert escape.key == "Escape" and escape.tool == "browser_overlay_act" and not escape.activates
    assert escape.side_effect == "browser-act" and escape.needs_confirm
    focused = Step.model_validate({"kind": "press", "key": "Enter"})
    assert focused.tool == "browser_press" and focused.activates  # Enter may send a form: like a click
    submit = Step.model_validate({"kind": "submit", "action": "press", "key": "ctrl+enter",
                                  "target": {"role": "textbox", "names": ["Message"]}})
    assert submit.key == "Control+Enter" and submit.activates
    with pytest.raises(ValueError, match="needs a 'key'"):
        Step.model_validate({"kind": "press"})
    with pytest.raises(ValueError, match="'key' belongs to press steps"):
        Step.model_validate({"kind": "act", "key": "Enter", "target": {"role": "button", "names": ["Go"]}})
    with pytest.raises(ValueError):
        Step.model_validate({"kind": "press", "key": "NoSuchKey"})
    delete = Step.model_validate({"kind": "submit", "dialog": "accept", "target": {"role": "button", "names": ["X"]}})
    assert delete.dialog is not None and delete.dialog.answer == "accept" and delete.dialog.text == []
    with pytest.raises(ValueError, match="'dialog' belongs to steps that click or press"):
        Step.model_validate({"kind": "fill", "dialog": "accept", "value": "a",
                             "target": {"role": "textbox", "names": ["A"]}})
    with pytest.raises(ValueError):
        Step.model_validate({"kind": "submit", "dialog": "maybe", "target": {"role": "button", "names": ["X"]}})


# --------------------------------------------------------------------------- several options in one field


def _tags_step(value: Any) -> Step:
    return Step.model_validate({"kind": "fill", "action": "select", "field": "tags",
                                "target": {"role": "listbox", "names": ["Tags"]}, "value": value})


def test_a_select_step_takes_a_list_of_options_and_only_a_non_empty_one() -> None:
    assert _tags_step(["conference", "q4"]).value == ["conference", "q4"]
    for bad in ([], ["conference", ""], True):
        with pytest.raises(ValidationError, match="non-empty list of them"):
            _tags_step(bad)
    with pytest.raises(ValidationError, match="needs a text value"):
        Step.model_validate({"kind": "fill", "field": "t", "target": {"role": "textbox", "names": ["T"]},
                             "value": ["a", "b"]})


def test_several_options_are_one_diff_line_and_their_order_is_no_change() -> None:
    steps = [expense_steps()[0], _tags_step(["q4", "conference"])]
    wanted = wanted_value(steps[1])
    assert wanted == '["conference", "q4"]'
    entry = DiffEntry.compute("tags", 2, '["conference"]', wanted)
    assert entry is not None and entry.op == "~"
    fingerprint = Fingerprint(pages=expense_plan().fingerprint.pages,  # type: ignore[union-attr]
                              values={"tags": '["conference"]'})
    plan = build_plan(PlanDraft(title="t", start_url="http://x/", steps=steps, workspace="/ws",
                                source=PlanSource(kind="steps"), diff=[entry], fingerprint=fingerprint))
    assert '  ~ tags     = ["conference"] -> ["conference", "q4"]' in render_diff(plan).splitlines()
    assert DiffEntry.compute("tags", 2, multi_text(["q4", "conference"]), wanted) is None  # the page holds them
    assert stale_fields(plan, {"tags": multi_text(["conference"])}) == []
    assert stale_fields(plan, {"tags": multi_text(["conference", "trial"])}) == ["tags"]


def test_steps_on_one_field_share_its_key_and_must_name_an_earlier_fill() -> None:
    raw = [{"kind": "fill", "action": "select", "field": f"tag{n}", "target": {"role": "listbox", "names": ["Tags"]},
            "value": f"t{n}", **({"sameFieldAs": 1} if n == 2 else {})} for n in (1, 2)]
    numbered = number_steps([Step.model_validate({k: v for k, v in r.items() if k != "sameFieldAs"}) for r in raw])
    actions = [a.model_copy(update={"same_field_as": 1 if a.number == 2 else None}) for a in numbered]
    assert fill_keys(actions) == {1: "tag1", 2: "tag1"}  # one line of the diff, one baseline
    good = build_plan(PlanDraft(title="Tags", start_url="https://example.test/", steps=actions, workspace="/w",
                                source=PlanSource(kind="steps")))
    assert good.actions[1].same_field_as == 1
    bad = [numbered[0].model_copy(update={"same_field_as": 1}), actions[1]]
    with pytest.raises(ValidationError, match="sameFieldAs must name an earlier fill step"):
        build_plan(PlanDraft(title="Tags", start_url="https://example.test/", steps=bad, workspace="/w",
                             source=PlanSource(kind="steps")))
