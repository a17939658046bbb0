"""The listing's row format reads back into exactly the object form it was written from."""

from __future__ import annotations

from typing import Any

import pytest

from browserops.listing_rows import format_row, listing_items, parse_row

ITEMS: list[dict[str, Any]] = [
    {"n": 1, "role": "link", "name": "Home"},
    {"n": 12, "role": "button", "name": "Edit", "in": "Printer toner"},
    {"n": 3, "role": "checkbox", "name": "Remember me", "state": {"checked": False, "required": True}},
    {"n": 4, "role": "textbox", "name": "Email", "type": "email", "state": {"value": "false", "focused": True}},
    {"n": 5, "role": "heading", "name": "Intro", "state": {"level": 2}},
    {"n": 6, "role": "link", "name": "Home | Site", "frame": "f1", "new": True},
    {"n": 7, "role": "clickable", "name": "", "covered": True},
    {"n": 8, "role": "clickable", "name": "more horiz", "name_guessed": True, "in": "@cierra · 2h"},
    {"n": 9, "role": "combobox", "name": '"Quoted" name', "state": {"value": "a | b", "expanded": "mixed"}},
    {"n": 10, "role": "textbox", "name": "Search", "state": {"value": "x=1"}, "id": "f1b7",
     "box": [10.5, 20.0, 100.0, 24.0]},
    {"n": 11, "role": "button", "name": "Поиск 搜索", "in": "Строка = 2 | ok"},
]


@pytest.mark.parametrize("item", ITEMS, ids=lambda i: str(i["n"]))
def test_a_row_reads_back_as_the_object_it_was_written_from(item: dict[str, Any]) -> None:
    row = format_row(item)
    assert "\n" not in row
    assert parse_row(row) == item


def test_rows_are_short_and_plain() -> None:
    assert format_row(ITEMS[0]) == "1 link Home"
    assert format_row(ITEMS[1]) == "12 button Edit | in=Printer toner"
    assert format_row(ITEMS[2]) == "3 checkbox Remember me | checked=false | required"
    assert format_row(ITEMS[6]) == '7 clickable "" | covered'
    assert format_row(ITEMS[5]) == '6 link "Home | Site" | frame=f1 | new'


def test_in_role_is_left_to_the_object_form() -> None:
    assert parse_row(format_row({"n": 2, "role": "button", "name": "Edit", "in": "Row", "in_role": "row"})) == {
        "n": 2, "role": "button", "name": "Edit", "in": "Row"}


def test_listing_items_reads_both_forms_and_carries_off_screen() -> None:
    rows = {"items": [format_row(ITEMS[0]), format_row(ITEMS[1])], "off_screen_from": 12}
    objects = {"items": [ITEMS[0], ITEMS[1]], "off_screen_from": 12}
    assert listing_items(rows) == listing_items(objects)
    assert listing_items(rows)[1]["in_viewport"] is False and "in_viewport" not in listing_items(rows)[0]
    assert listing_items({"matches": ["4 link A | id=b4"]}, "matches") == [
        {"n": 4, "role": "link", "name": "A", "id": "b4"}]
    assert listing_items({"items": ["not a row"]}) == []


@pytest.mark.parametrize("bad", ["", "x button A", "3", '3 button "unclosed', '3 button "A" junk'])
def test_text_that_is_not_a_row_is_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_row(bad)
