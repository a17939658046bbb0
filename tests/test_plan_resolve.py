"""Semantic target matching, values for the diff, reference finding and the run's pre-checks (no browser)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence import BundleWriter
from browserops.plan.interpret.field_values import current_value
from browserops.plan.interpret.resolve import Resolved, match_items, wanted_value
from browserops.plan.interpret.resolve import label_key as normalise
from browserops.plan.model import number_steps
from browserops.plan.model.phrase import confirm_phrase
from browserops.plan.prepare.prepare import bind_values, fill_keys
from browserops.plan.run.attempt import check_confirm, check_plan_file, sensitive_values
from browserops.plan.run.reference import find_reference
from browserops.plan.steps import SemanticTarget, Step
from browserops.twophase import start_url
from tests.plan_samples import expense_plan


def item(n: int, role: str, name: str, **extra: Any) -> dict[str, Any]:
    return {"n": n, "id": f"b{n}", "role": role, "name": name, **extra}


ITEMS = [
    item(1, "link", "Demo home"),
    item(2, "textbox", "Merchant *"),
    item(3, "searchbox", "Search"),
    item(4, "button", "Submit expense"),
    item(5, "button", "Submit expense"),
    item(6, "button", "Save draft"),
    item(7, "button", "Save and close"),
    item(8, "textbox", "Имя", frame="main>1"),
    item(9, "textbox", "Имя"),
]


def target(role: str, *names: str, **extra: Any) -> SemanticTarget:
    return SemanticTarget.model_validate({"role": role, "names": list(names), **extra})


def test_exact_name_first_then_prefix_then_contains() -> None:
    hit = match_items(ITEMS, target("textbox", "merchant"))  # trailing '*' and case do not matter
    assert hit is not None and hit[0]["n"] == 2 and hit[2] == "exact"
    hit = match_items(ITEMS, target("textbox", "Search"))  # a searchbox is a textbox to a person
    assert hit is not None and hit[0]["n"] == 3
    hit = match_items(ITEMS, target("button", "Submit", "Save draft"))  # an exact later candidate beats a prefix
    assert hit is not None and hit[0]["n"] == 6 and hit[1] == "Save draft"
    hit = match_items(ITEMS, target("link", "home"))
    assert hit is not None and hit[0]["n"] == 1 and hit[2] == "contains"
    assert match_items(ITEMS, target("button", "Pay now")) is None
    assert match_items(ITEMS, target("link", "Submit expense")) is None  # the role must match


def test_several_matches() -> None:
    hit = match_items(ITEMS, target("button", "Submit expense"))  # two exact: the first (nth 0)
    assert hit is not None and hit[0]["n"] == 4
    hit = match_items(ITEMS, target("button", "Submit expense", nth=1))
    assert hit is not None and hit[0]["n"] == 5
    with pytest.raises(BrowserOpsError) as err:
        match_items(ITEMS, target("button", "Save"))  # two partial matches: ambiguous, not a guess
    assert err.value.code is ErrorCode.SITE_CHANGED and "ambiguous" in err.value.message
    assert err.value.details["ambiguous"] is True
    hit = match_items(ITEMS, target("button", "Save", nth=1))
    assert hit is not None and hit[0]["n"] == 7
    with pytest.raises(BrowserOpsError):
        match_items(ITEMS, target("button", "Submit expense", nth=5))


def test_frame_filter() -> None:
    hit = match_items(ITEMS, target("textbox", "имя", frame="main>1"))
    assert hit is not None and hit[0]["n"] == 8
    hit = match_items(ITEMS, target("textbox", "имя", frame="inner.html"), frames={"main>1": "http://x/inner.html"})
    assert hit is not None and hit[0]["n"] == 8
    assert match_items(ITEMS, target("textbox", "имя", frame="nowhere")) is None


@given(st.text(max_size=40))
def test_normalise_is_idempotent_and_case_blind(text: str) -> None:
    once = normalise(text)
    assert normalise(once) == once
    assert normalise(text.upper()) == normalise(text.lower()) or not text.isascii()
    assert "  " not in once and once == once.strip()


def _element(state: dict[str, Any]) -> Resolved:
    return Resolved(number=1, blind_id="b1", role="x", name="x", frame="main", state=state, matched="x", how="exact")


def test_values_for_the_diff() -> None:
    radio = Step.model_validate({"kind": "fill", "action": "check", "field": "pay",
                                 "target": {"role": "radio", "names": ["Card"]}, "value": True, "display": "Card"})
    assert current_value(radio, _element({"checked": False})) == "" and wanted_value(radio) == "Card"
    assert current_value(radio, _element({"checked": True})) == "Card"
    box = Step.model_validate({"kind": "fill", "action": "check", "field": "b",
                               "target": {"role": "checkbox", "names": ["B"]}, "value": False})
    assert current_value(box, _element({"checked": True})) == "true" and wanted_value(box) == "false"
    upload = Step.model_validate({"kind": "fill", "action": "upload", "field": "r",
                                  "target": {"role": "button", "names": ["R"]}, "value": ["/a/x.png", "b/y.pdf"]})
    assert wanted_value(upload) == "x.png, y.pdf" and current_value(upload, _element({"files": 2})) == \
        "2 files attached"
    text = Step.model_validate({"kind": "fill", "field": "t", "target": {"role": "textbox", "names": ["T"]},
                                "value": "new"})
    assert current_value(text, _element({"value": "old"})) == "old" and current_value(text, _element({})) == ""
    secret = Step.model_validate({"kind": "fill", "field": "p", "target": {"role": "textbox", "names": ["P"]},
                                  "valueRef": {"key": "p", "sensitive": True}})
    assert current_value(secret, _element({"filled": True})) == "(filled)" and wanted_value(secret) is None


def test_bind_values_and_fill_keys() -> None:
    steps = [
        Step.model_validate({"kind": "fill", "field": "a", "target": {"role": "textbox", "names": ["A"]},
                             "valueRef": {"key": "a"}}),
        Step.model_validate({"kind": "fill", "field": "a", "target": {"role": "textbox", "names": ["A2"]},
                             "valueRef": {"key": "secret", "sensitive": True}}),
        Step.model_validate({"kind": "fill", "target": {"role": "textbox", "names": ["B"]}, "value": "b"}),
    ]
    bound = bind_values(steps, {"a": "Ada", "secret": "hunter2"})
    assert bound[0].value == "Ada" and bound[0].value_ref is not None and bound[0].value_ref.digest
    assert bound[1].value is None  # a secret never enters the plan
    assert fill_keys(number_steps(bound)) == {1: "a", 2: "a.2", 3: "step3"}
    with pytest.raises(BrowserOpsError) as err:
        bind_values(steps, {"a": "Ada"})
    assert err.value.code is ErrorCode.INPUT_INVALID and "'secret'" in err.value.message
    with pytest.raises(BrowserOpsError) as err:
        bind_values(steps, None)
    assert "--input FILE" in err.value.message
    with pytest.raises(BrowserOpsError) as err:
        bind_values(steps, {"a": 23.4, "secret": "x"})
    assert err.value.code is ErrorCode.INPUT_INVALID and "quoted" in err.value.message


def test_find_reference() -> None:
    assert find_reference(["Reference: EXP-0001"]) == "EXP-0001"
    assert find_reference(["Номер заявки: 123-45."]) == "123-45"
    assert find_reference(["Thank you", "Order #A12345 is on its way"]) == "A12345"
    assert find_reference(["订单编号：SO-2026-77"]) == "SO-2026-77"
    assert find_reference(["Saved.", "Your id is ready"]) is None  # no digits: not a reference
    assert find_reference(["Payment received"]) is None


@given(st.lists(st.text(max_size=200), max_size=5))
def test_find_reference_on_any_page_text(texts: list[str]) -> None:
    found = find_reference(texts)
    assert found is None or (any(found in t for t in texts) and any(c.isdigit() for c in found) and len(found) <= 41)


def test_confirm_phrase_check() -> None:
    plan = expense_plan()
    assert check_confirm(plan, None) is False
    assert check_confirm(plan, confirm_phrase(plan).upper().replace("-", "_")) is True
    with pytest.raises(BrowserOpsError) as err:
        check_confirm(plan, "acorn-actor-adobe-0000")
    assert err.value.code is ErrorCode.CONFIRM_REQUIRED and "nothing ran" in err.value.message


def test_sensitive_values_need_the_unchanged_input() -> None:
    plan = expense_plan()
    with pytest.raises(BrowserOpsError) as err:
        sensitive_values(plan, None, None)
    assert err.value.code is ErrorCode.INPUT_INVALID and "password" in err.value.message
    assert sensitive_values(plan, {"password": "pw"}, None) == {6: "pw"}
    with pytest.raises(BrowserOpsError) as err:
        sensitive_values(plan, {"password": ""}, None)
    assert err.value.code is ErrorCode.INPUT_INVALID


def test_plan_file_must_match_the_manifest(workspace: Path) -> None:
    plan = expense_plan(workspace=str(workspace.resolve()))
    with BundleWriter.create(workspace, plan.request_id) as writer:
        writer.write_plan(plan)
        writer.finish("prepared")
    check_plan_file(writer.path)
    plan_file = writer.path / "plan.json"
    plan_file.write_bytes(plan_file.read_bytes().replace(b"Northwind Taxi", b"Northwind Taxl"))
    with pytest.raises(BrowserOpsError) as err:
        check_plan_file(writer.path)
    assert err.value.code is ErrorCode.PLAN_INVALID and "changed after prepare" in err.value.message
    assert hashlib.sha256(plan_file.read_bytes()).hexdigest() not in (writer.path / "manifest-sha256.txt").read_text()


def test_start_url() -> None:
    steps = [Step.model_validate({"kind": "navigate", "url": "/a"})]
    assert start_url("/expense", steps, None, "http://127.0.0.1:8765") == "http://127.0.0.1:8765/expense"
    assert start_url(None, steps, None, "http://h:1/") == "http://h:1/a"
    assert start_url("/x", steps, "https://example.com/form", None) == "https://example.com/form"
    assert start_url("https://s.example/x", steps, None, None) == "https://s.example/x"
    for declared, url, base in (("/expense", None, None), ("/e", "/relative", None), ("/e", None, "ftp://x")):
        with pytest.raises(BrowserOpsError) as err:
            start_url(declared, steps, url, base)
        assert err.value.code is ErrorCode.INVALID_ARGS


ROWS = [
    item(20, "link", "Edit", **{"in": "Stapler 2", "in_role": "row"}),
    item(21, "button", "Delete", **{"in": "Stapler 2", "in_role": "row"}),
    item(22, "button", "Delete", **{"in": "Stapler refill", "in_role": "row"}),
    item(23, "button", "Delete", **{"in": "Printer toner", "in_role": "row"}),
    item(24, "button", "Delete", **{"in": "Printer paper", "in_role": "row"}),
    item(25, "button", "Add to cart", **{"in": "Widget Mini", "in_role": "generic"}),
    item(26, "button", "Delete", **{"in": "Stapler 2", "in_role": "listitem"}),
]


def _within(role: str, *names: str, **more: Any) -> SemanticTarget:
    return SemanticTarget.model_validate({"role": "button", "names": ["Delete"],
                                          "within": {"role": role, "names": list(names)}, **more})


def test_within_takes_the_closest_named_container_and_refuses_several() -> None:
    hit = match_items(ROWS, _within("row", "stapler 2"))
    assert hit is not None and hit[0]["n"] == 21  # exact container name; the list item of that name is no row
    with pytest.raises(BrowserOpsError) as caught:
        match_items(ROWS, _within("row", "Printer"))  # starts two rows' names
    assert caught.value.details["ambiguous"] and [s["n"] for s in caught.value.details["seen"]] == [23, 24]
    assert 'in row "Printer toner"' in caught.value.message and 'in row "Printer paper"' in caught.value.message
    hit = match_items(ROWS, _within("row", "Printer", nth=1))
    assert hit is not None and hit[0]["n"] == 24
    assert match_items(ROWS, _within("row", "Desk lamp")) is None
    card = SemanticTarget.model_validate({"role": "button", "names": ["Add to cart"],
                                          "within": {"role": "group", "names": ["widget mini"]}})
    hit = match_items(ROWS, card)  # a card without a role of its own is a group
    assert hit is not None and hit[0]["n"] == 25


def test_run_takes_only_the_container_prepare_saw() -> None:
    # Prepare matched "Stapler 2"; at run that row is gone and a look-alike starts the same: nothing matches.
    gone = [r for r in ROWS if r["in"] != "Stapler 2"]
    assert match_items(gone, _within("row", "Stapler"), seen_within="Stapler 2") is None
    hit = match_items(list(reversed(ROWS)), _within("row", "Stapler"), seen_within="Stapler 2")
    assert hit is not None and hit[0]["n"] == 21


def test_within_roles_are_the_containers_a_person_names() -> None:
    with pytest.raises(ValueError, match="not a container role"):
        _within("table", "Orders")
    with pytest.raises(ValueError):
        SemanticTarget.model_validate({"role": "button", "names": ["Delete"], "within": {"role": "row", "names": []}})
    assert _within("dialog", "Confirm").describe() == 'button "Delete" in dialog "Confirm"'
    # A confirm bubble the page marks role=tooltip (antd's Popconfirm), an alert dialog: both a dialog.
    assert _within("tooltip", "确定要删除吗？").describe() == 'button "Delete" in dialog "确定要删除吗？"'
    assert _within("alertdialog", "Sure?").describe() == 'button "Delete" in dialog "Sure?"'
    bubble = [{"n": 3, "role": "button", "name": "Delete", "in": "百川食品", "in_role": "row"},
              {"n": 9, "role": "button", "name": "Delete", "in": "确定要删除吗？", "in_role": "tooltip"}]
    hit = match_items(bubble, _within("tooltip", "确定要删除吗？"))
    assert hit is not None and hit[0]["n"] == 9
