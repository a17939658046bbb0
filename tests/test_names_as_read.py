"""Names match as people read them (issue 34 item 2): whitespace between CJK characters, full/half width, a required
field's '*', icon words beside CJK words never break a match — and nothing else is loosened (no near match that
could choose another button)."""

from __future__ import annotations

from typing import Any

import pytest

from browserops.plan.interpret.resolve import match_items
from browserops.plan.steps import SemanticTarget
from browserops.text import fold, name_key, without_icon_words


def _item(n: int, role: str, name: str) -> dict[str, Any]:
    return {"n": n, "id": f"b{n}", "role": role, "name": name}


def _target(role: str, name: str) -> SemanticTarget:
    return SemanticTarget.model_validate({"role": role, "names": [name]})


@pytest.mark.parametrize(("shown", "written"), [
    ("确 定", "确定"), ("查 询", "查询"), ("取  消", "取消"),  # antd's space between two CJK characters
    ("ＳＡＶＥ", "save"), ("保存（草稿）", "保存(草稿)"),  # full width (NFKC)
    ("* 客户名称", "客户名称"), ("客户名称 *", "客户名称"), ("Имя:", "Имя"), ("名称：", "名称"),  # required mark, colon
])
def test_the_same_name_written_another_way(shown: str, written: str) -> None:
    assert name_key(shown) == name_key(written)


@pytest.mark.parametrize(("one", "other"), [
    ("确定", "确认"), ("Save", "Save draft"), ("删除", "删除全部"), ("a b", "ab"),  # Latin spaces are word breaks
    ("통 과", "통과"),  # Korean writes spaces between words: kept
])
def test_different_names_stay_different(one: str, other: str) -> None:
    assert name_key(one) != name_key(other)


def test_icon_words_beside_cjk_words_are_not_the_names_own() -> None:
    assert without_icon_words(name_key("save 保存")) == "保存"
    assert without_icon_words(name_key("exclamation-circle 确定要删除吗？")) == name_key("确定要删除吗?")
    assert without_icon_words(name_key("Save draft")) == "save draft"  # no CJK: every word is the name's own
    assert without_icon_words(name_key("save")) == "save"
    assert fold("确 定") == "确定" and fold("Sign  in") == "sign in"


def test_a_plan_finds_the_button_as_the_page_spaces_it_and_never_a_near_one() -> None:
    items = [_item(1, "button", "取 消"), _item(2, "button", "确 定"), _item(3, "button", "save 保存"),
             _item(4, "button", "保存并新建"), _item(5, "textbox", "* 客户名称")]
    assert (hit := match_items(items, _target("button", "确定"))) and hit[0]["n"] == 2 and hit[2] == "exact"
    assert (hit := match_items(items, _target("button", "保存"))) and hit[0]["n"] == 3 and hit[2] == "exact"
    assert (hit := match_items(items, _target("textbox", "客户名称"))) and hit[0]["n"] == 5 and hit[2] == "exact"
    assert match_items(items, _target("button", "确认")) is None  # a near name is not this button


def test_the_whole_name_wins_over_one_without_its_icon_words() -> None:
    items = [_item(1, "textbox", "email 地址"), _item(2, "textbox", "地址")]
    assert (hit := match_items(items, _target("textbox", "地址"))) and hit[0]["n"] == 2
