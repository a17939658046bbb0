"""The read-back's comparisons (issue 35 item 1) on acting results as the tools give them: a choice by what it shows,
a field that takes several by its set of values (through the hidden field a widget stands for), a comma-separated
text typed into a field that says it takes a comma-separated list as that list. Real pages: tests/plan_e2e/
test_verdict.py (Tom Select) and tests/realapps/test_wagtail_site.py (Wagtail's Tags)."""

from __future__ import annotations

from typing import Any

from browserops.plan.interpret.acting import Act
from browserops.plan.interpret.read_back import read_back, split_list
from browserops.plan.model.document import number_steps
from browserops.plan.model.steps import Step

TAGS = {"role": "combobox", "names": ["Topics"]}
LIST_HELP = "A comma-separated list of topics."


def _action(**raw: Any) -> Any:
    return number_steps([Step.model_validate({"kind": "fill", "field": "f", **raw})])[0]


def _act(*, types: bool = False) -> Act:
    return Act("browser_overlay_act", {"index": 2}, did="did", where='combobox "Topics" (#2)', types=types)


def _tags(before: str, after: str, described: str = LIST_HELP) -> dict[str, Any]:
    return {"matches": True, "target": {"stands_for": {"text": before, "described": described, "asShown": True}},
            "element": {"state": {"value": "launch, editor"},
                        "stands_for": {"text": after, "described": described, "asShown": True}}}


def test_split_list_keeps_quoted_commas() -> None:
    assert split_list('launch, editor') == ["launch", "editor"]
    assert split_list('"a, b", c,,') == ["a, b", "c"]


def test_typed_comma_list_is_the_set_of_tags_the_field_holds() -> None:
    a = _action(target=TAGS, value="launch, editor")
    assert read_back(a, _act(types=True), _tags("", "launch,editor"), "launch, editor") is None
    assert read_back(a, _act(types=True), _tags("finance", "finance,editor,launch"), "launch, editor") is None
    made_one = read_back(a, _act(types=True), _tags("", "launch"), "launch, editor")  # the rest left as typing
    assert made_one is not None and made_one.details == {"planned": ["launch", "editor"], "found": ["launch"]}
    whole = read_back(a, _act(types=True), _tags("", 'launch,"launch, editor"'), "launch, editor")
    assert whole is not None and whole.details["found"] == ["launch", "launch, editor"]
    # A field that does not say it takes a list: its typed text is one value (the typing's own check applies).
    assert read_back(a, _act(types=True), _tags("", "launch", described="Your topic"), "launch, editor") is None


def test_multiple_picks_by_set_and_by_meaning() -> None:
    a = _action(action="select", target={"role": "listbox", "names": ["Channels"]}, value=["Web", "Social"])
    ok = {"target": {}, "element": {"state": {"values": ["Social", "Web"]}}}
    assert read_back(a, _act(), ok, ["Web", "Social"]) is None
    extra = {"target": {}, "element": {"state": {"values": ["Web", "Social", "Newsletter"]}}}
    assert read_back(a, _act(), extra, ["Web", "Social"]) is not None  # a pick nobody planned
    kept = {"target": {"state": {"values": ["Newsletter"]}}, "element": {"state": {"values": ["Web", "Social",
                                                                                             "Newsletter"]}}}
    assert read_back(a, _act(), kept, ["Web", "Social"]) is None  # it held that one before the step
    amounts = _action(action="select", target={"role": "listbox", "names": ["Amounts"]}, value=["13250"])
    shown = {"target": {}, "element": {"state": {"values": ["13 250"]}}}
    assert read_back(amounts, _act(), shown, ["13250"], lang="ru") is None


def test_a_choice_is_read_by_what_it_shows() -> None:
    a = _action(action="select", target={"role": "combobox", "names": ["Status"]}, value="In review")
    assert read_back(a, _act(), {"chosen": "In review", "element": {"state": {"value": "In review"}}},
                     "In review") is None
    other = read_back(a, _act(), {"chosen": "In review", "element": {"state": {"value": "Draft"}}}, "In review")
    assert other is not None and other.details == {"planned": "In review", "found": "Draft"}
    assert read_back(a, _act(), {"chosen": "Germany", "chosen_value": "de",
                                 "element": {"state": {"value": "Germany"}}}, "de") is None  # by its value
    assert read_back(a, _act(), {"navigated": True, "element": {"state": {"value": "x"}}}, "In review") is None


def test_picks_are_judged_by_the_options_the_tool_clicked() -> None:
    """A tag widget that made a tag of a whole typed text while picking is caught even though a planned value is a
    part of it: the options clicked are compared whole."""
    a = _action(action="select", target=TAGS, value=["launch", "editor"])
    good = {"chosen": ["launch", "editor"], "target": {"stands_for": {"text": ""}},
            "element": {"stands_for": {"text": "launch,editor", "asShown": True}}}
    assert read_back(a, _act(), good, ["launch", "editor"]) is None
    bad = {"chosen": ["launch", "editor"], "target": {"stands_for": {"text": ""}},
           "element": {"stands_for": {"text": 'launch,"launch, editor"', "asShown": True}}}
    assert read_back(a, _act(), bad, ["launch", "editor"]) is not None
    ids = {"chosen": ["Partner", "Trial"], "target": {}, "element": {"stands_for": {"text": "3,6", "asShown": False}}}
    assert read_back(_action(action="select", target=TAGS, value=["Partner", "Trial"]), _act(), ids,
                     ["Partner", "Trial"]) is None  # the server's ids for them: nothing to compare
    by_part = {"chosen": ["Электросила"], "target": {}, "element": {"stands_for": {"values": ["Электросила"]}}}
    assert read_back(_action(action="select", target=TAGS, value=["Электро"]), _act(), by_part, ["Электро"]) is None


def test_a_widget_without_a_hidden_field_is_read_by_its_chips() -> None:
    """A UI kit's multiple select (antd, Element Plus) keeps no hidden field: the chips it shows are what it holds.
    A pick that did not stick, or a held chip gone after the act, is a mismatch; a widget showing no chip before or
    after says nothing comparable."""
    box = {"role": "combobox", "names": ["Certificates"]}
    a = _action(action="select", target=box, value=["CE", "RoHS"])
    good = {"chosen": ["CE", "RoHS"], "target": {}, "element": {"chips": ["CE", "RoHS"]}}
    assert read_back(a, _act(), good, ["CE", "RoHS"]) is None
    refused = {"chosen": ["CE", "RoHS"], "target": {}, "element": {"chips": ["CE"]}}
    found = read_back(a, _act(), refused, ["CE", "RoHS"])
    assert found is not None and found.details == {"planned": ["CE", "RoHS"], "found": ["CE"]}
    emptied = {"chosen": ["CE", "RoHS"], "target": {"chips": ["CE"]}, "element": {}}
    assert read_back(a, _act(), emptied, ["CE", "RoHS"]) is not None  # it showed chips, now none: holds nothing
    assert read_back(a, _act(), {"chosen": ["CE", "RoHS"], "target": {}, "element": {}}, ["CE", "RoHS"]) is None
    one = _action(action="select", target=box, value="RoHS")
    assert read_back(one, _act(), {"chosen": "RoHS", "element": {"chips": ["CE", "RoHS"]}}, "RoHS") is None
    off = read_back(one, _act(), {"chosen": "RoHS", "element": {"chips": ["CE"]}}, "RoHS")
    assert off is not None and off.details == {"planned": "RoHS", "found": "CE"}
