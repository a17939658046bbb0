"""The widget zoo: real UI libraries from npm, each widget listed as a screen reader announces it and
operated by number, checked through the library's own state.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator

import pytest

from browserops.browser.launch.session import BrowserSession
from browserops.demo_site.zoo_site import ZooSite
from browserops.demo_site.zoo_tasks import REPEATED_TASKS, TASKS, WIDGET_TASKS, Task
from browserops.tools.context import ToolContext
from tests.realweb.zoo_driver import find_item, page_true, run_task
from tests.tools.helpers import fails, ok, open_page


@pytest.fixture(scope="module")
def zoo() -> Iterator[ZooSite]:
    with ZooSite() as site:
        yield site


def test_every_library_page_loads_its_library(zoo: ZooSite) -> None:
    import urllib.request

    for page in {t.page for t in TASKS}:
        with urllib.request.urlopen(zoo.url(page), timeout=10) as response:
            html = response.read().decode()
        for src in [part.split('"', 1)[0] for part in html.split('src="/lib/')[1:]]:
            with urllib.request.urlopen(f"{zoo.base_url}/lib/{src}", timeout=10) as lib:
                assert lib.status == 200 and len(lib.read()) > 1000, src
    assert len({t.page for t in TASKS} - {"native"}) >= 8


@pytest.mark.parametrize("task", WIDGET_TASKS, ids=[t.id for t in WIDGET_TASKS])
async def test_widget_is_listed_and_operated(tool_ctx: ToolContext, zoo: ZooSite, task: Task) -> None:
    outcome = await run_task(tool_ctx, zoo.url(task.page), task)
    assert outcome.listed, (task.id, outcome.item)
    state = (outcome.item or {}).get("state") or {}
    assert all(state.get(k, False if v is False else None) == v for k, v in task.state.items()), (task.state, state)
    assert not outcome.errors, outcome.errors
    assert outcome.operated, task.check


@pytest.mark.parametrize("task", REPEATED_TASKS, ids=[t.id for t in REPEATED_TASKS])
async def test_repeated_controls_page_tasks_are_judged_by_its_state(session: BrowserSession, zoo: ZooSite,
                                                                     task: Task) -> None:
    """The benchmark's repeated-controls tasks hold as judged: each check is false on the fresh page and true
    once the task is done with Playwright's own locators (the container found by the text it holds)."""
    page = session.page
    await page.goto(zoo.url(task.page), wait_until="load")
    assert not await page_true(page, task.check, timeout_s=0)
    for step in task.steps:
        assert step.role is not None
        scope = page.locator("article, tr, .card").filter(has_text=step.within) if step.within else page
        await scope.get_by_role(step.role, name=step.label, exact=True).click()  # type: ignore[arg-type]
    assert await page_true(page, task.check)


async def test_bare_slider_handle_is_named_from_its_labelled_container_and_moved_by_keys(
        tool_ctx: ToolContext, zoo: ZooSite) -> None:
    """jQuery UI's slider handle has no role and no name: it is listed focusable, with a name guessed from the
    container the page labelled (aria-labelledby) and the class words few elements share, said to be guessed;
    arrow keys pressed
    on it by number move the slider's own value, Home/End to its ends."""
    await open_page(tool_ctx, zoo.url("jqueryui"))
    handle = await find_item(tool_ctx, "focusable", "Volume (slider)")
    assert handle is not None and handle["name_guessed"] is True, handle
    assert await page_true(tool_ctx, "$('#slider').slider('value') === 20")
    for _ in range(3):
        await ok(tool_ctx, "browser_press", key="ArrowRight", id=handle["n"])
    assert await page_true(tool_ctx, "$('#slider').slider('value') === 23")
    pressed = await ok(tool_ctx, "browser_press", key="ArrowLeft", id=handle["n"])
    assert pressed["target"]["n"] == handle["n"]
    assert await page_true(tool_ctx, "$('#slider').slider('value') === 22")
    await ok(tool_ctx, "browser_press", key="End", id=handle["n"])
    assert await page_true(tool_ctx, "$('#slider').slider('value') === 100")
    # The focus stays on the handle: a key pressed without a target moves it too.
    await ok(tool_ctx, "browser_press", key="Home")
    assert await page_true(tool_ctx, "$('#slider').slider('value') === 0")


async def test_ambiguous_or_impossible_dates_are_refused(tool_ctx: ToolContext, zoo: ZooSite) -> None:
    await open_page(tool_ctx, zoo.url("native"))
    birthday = await find_item(tool_ctx, "textbox", "Birthday")
    assert birthday is not None
    for text in ("03/04/2016", "02/30/2016", "tomorrow"):
        result = await fails(tool_ctx, "browser_overlay_act", "BROWSER_INVALID_ARGS", index=birthday["n"],
                             action="type", text=text)
        assert "2016-11-21" in result["error"]  # says how to write it instead
    assert await page_true(tool_ctx, "document.getElementById('d').value === ''")
    meeting = await find_item(tool_ctx, "textbox", "Meeting time")
    assert meeting is not None
    await fails(tool_ctx, "browser_overlay_act", "BROWSER_INVALID_ARGS", index=meeting["n"], action="type",
                text="13:23 PM")


@pytest.mark.parametrize("text", ["11/21/2016", "21.11.2016", "2016-11-21", "Nov 21 2016"])
async def test_date_written_as_people_write_it(tool_ctx: ToolContext, zoo: ZooSite, text: str) -> None:
    await open_page(tool_ctx, zoo.url("native"))
    birthday = await find_item(tool_ctx, "textbox", "Birthday")
    assert birthday is not None
    data = await ok(tool_ctx, "browser_overlay_act", index=birthday["n"], action="type", text=text)
    assert data["value"] == "2016-11-21" and data["matches"] is True
    assert await page_true(tool_ctx, "document.getElementById('d').value === '2016-11-21'")


# A date typed and the next field acted on, with no Enter between (as a plan's steps go): both kits keep the calendar
# open over the form until the date field is left (Element Plus names it by aria-controls and opens it above the field
# here, over 所在城市; antd links nothing and opens it below, over 年度预算). The call on the next field leaves the date
# field by Tab (never Escape or Enter), reads it back, and acts: both values are the widgets' own.
DATE_THEN_NEXT = [
    ("element_plus", ("combobox", "合作日期"), ("combobox", "所在城市", "select", "宁波"), "appState.city === '宁波'"),
    ("antd", ("textbox", "签约日期"), ("spinbutton", "年度预算", "type", "1250"), "appState.amount === 1250"),
]


@pytest.mark.parametrize(("page", "date", "after", "done"), DATE_THEN_NEXT, ids=[d[0] for d in DATE_THEN_NEXT])
async def test_date_panel_left_open_is_closed_by_leaving_the_field(
        tool_ctx: ToolContext, zoo: ZooSite, page: str, date: tuple[str, str], after: tuple[str, str, str, str],
        done: str) -> None:
    await open_page(tool_ctx, zoo.url(page))
    day, then = await find_item(tool_ctx, *date), await find_item(tool_ctx, *after[:2])
    assert day is not None and then is not None
    typed = await ok(tool_ctx, "browser_overlay_act", index=day["n"], action="type", text="2026-11-02")
    assert typed["value"] == "2026-11-02", typed
    data = await ok(tool_ctx, "browser_overlay_act", index=then["n"], action=after[2], text=after[3])
    assert data["closed_popups"] == [{"field": f'{date[0]} "{date[1]}"', "how": "Tab", "kept_value": True}], data
    assert await page_true(tool_ctx, f"appState.day === '2026-11-02' && {done}")


# A multiple select that already holds one of the options asked for (a record edited: "certify CE and FSC" while
# CE is held): the held one is not clicked again (a click would take it away), the step reads back as held — by the
# chips the widget shows, the kit keeping no hidden field.
HELD = [("element_plus", "资质认证", ("CE", "FSC"), "appState.certs"),
        ("antd", "客户标签", ("重点", "海外"), "appState.tags")]


@pytest.mark.parametrize(("page", "label", "options", "state"), HELD, ids=[h[0] for h in HELD])
async def test_multi_select_keeps_an_option_already_chosen(tool_ctx: ToolContext, zoo: ZooSite, page: str,
                                                           label: str, options: tuple[str, str], state: str) -> None:
    await open_page(tool_ctx, zoo.url(page))
    box = await find_item(tool_ctx, "combobox", label)
    assert box is not None
    await ok(tool_ctx, "browser_overlay_act", index=box["n"], action="select", options=[options[0]])
    assert await page_true(tool_ctx, f"JSON.stringify({state}) === JSON.stringify({json.dumps([options[0]])})")
    data = await ok(tool_ctx, "browser_overlay_act", index=box["n"], action="select", options=list(options))
    assert data["chosen"] == list(options), data
    # No hidden field behind it: what it holds is read from the chips it shows, before and after the act.
    assert data["target"]["chips"] == [options[0]] and data["element"]["chips"] == list(options), data
    assert await page_true(tool_ctx, f"JSON.stringify({state}) === JSON.stringify({json.dumps(list(options))})")
    # And a single pick of a held option leaves it held too.
    await ok(tool_ctx, "browser_overlay_act", index=box["n"], action="select", text=options[1])
    assert await page_true(tool_ctx, f"JSON.stringify({state}) === JSON.stringify({json.dumps(list(options))})")


async def test_multi_select_reports_what_is_selected(tool_ctx: ToolContext, zoo: ZooSite) -> None:
    await open_page(tool_ctx, zoo.url("native"))
    fruits = await find_item(tool_ctx, "listbox", "Fruits")
    assert fruits is not None
    data = await ok(tool_ctx, "browser_overlay_act", index=fruits["n"], action="select", options=["Cherry", "apple"])
    assert data["selected"] == ["Apple", "Cherry"]
    await fails(tool_ctx, "browser_overlay_act", "BROWSER_ELEMENT_NOT_FOUND", index=fruits["n"], action="select",
                options=["Kiwi"])
    await fails(tool_ctx, "browser_overlay_act", "BROWSER_INVALID_ARGS", index=fruits["n"], action="click",
                options=["Apple"])


async def test_covered_target_is_activated_not_what_lies_on_top(tool_ctx: ToolContext, zoo: ZooSite) -> None:
    await open_page(tool_ctx, zoo.url("native"))
    send = await find_item(tool_ctx, "button", "Send report")
    assert send is not None
    data = await ok(tool_ctx, "browser_overlay_act", index=send["n"], action="click")
    assert data["activated_under_cover"]["how"] == "focus + default action"
    assert data["activated_under_cover"]["covered_by"]
    assert await page_true(tool_ctx, "document.getElementById('send-out').textContent === 'yes'")


async def test_target_under_a_modal_backdrop_is_still_refused(tool_ctx: ToolContext, zoo: ZooSite) -> None:
    await open_page(tool_ctx, zoo.url("jqueryui"))
    opener = await find_item(tool_ctx, "button", "Delete account")
    menu_item = await find_item(tool_ctx, "menuitem", "Print")
    assert opener is not None and menu_item is not None
    await ok(tool_ctx, "browser_overlay_act", index=opener["n"], action="click")
    result = await fails(tool_ctx, "browser_overlay_act", "BROWSER_ACTION_FAILED", index=menu_item["n"],
                         action="click")
    assert "covered" in result["error"]
    assert await page_true(tool_ctx, "$('#menu-out').text() === ''")


# Tree items and disclosures: listed collapsed, and expanded once operated by number (issue 14, item 2).
EXPANDING = [
    ("jstree", "treeitem", "Documents", {"key": "ArrowRight"}),
    ("shoelace", "button", "Shipping details", {"action": "click"}),
    ("bootstrap", "button", "How long is delivery?", {"action": "click"}),
    ("bootstrap", "button", "Actions", {"action": "click"}),
]


@pytest.mark.parametrize(("page", "role", "name", "move"), EXPANDING, ids=[f"{p}:{n}" for p, _, n, _ in EXPANDING])
async def test_expanded_state_follows_the_widget(tool_ctx: ToolContext, zoo: ZooSite, page: str, role: str,
                                                  name: str, move: dict[str, str]) -> None:
    await open_page(tool_ctx, zoo.url(page))
    item = await find_item(tool_ctx, role, name)
    assert item is not None and item["state"]["expanded"] is False, item
    if "key" in move:
        await ok(tool_ctx, "browser_press", key=move["key"], id=item["n"])
    else:
        await ok(tool_ctx, "browser_overlay_act", index=item["n"], action=move["action"])
    deadline = asyncio.get_running_loop().time() + 3.0
    while True:
        after = await find_item(tool_ctx, role, name)
        if (after and after.get("state", {}).get("expanded")) or asyncio.get_running_loop().time() > deadline:
            break
        await asyncio.sleep(0.1)
    assert after is not None and after["state"]["expanded"] is True, after


# Pages whose every listed control has an accessible name (web components and custom selects included): a
# nameless one is one a person cannot tell from its neighbours. A focusable container of named items (jsTree's
# tree, a menu) is announced by its role alone, as a screen reader does when the page gives it no name.
CONTAINERS = {"tree", "menu", "menubar", "tablist", "grid"}
@pytest.mark.parametrize("page", ["shoelace", "choices", "tomselect", "flatpickr", "bootstrap", "react", "jstree"])
async def test_every_listed_widget_has_a_name(tool_ctx: ToolContext, zoo: ZooSite, page: str) -> None:
    await open_page(tool_ctx, zoo.url(page))
    first = next(t.target for t in TASKS if t.page == page)
    assert first.role is not None
    assert await find_item(tool_ctx, first.role, first.label) is not None  # the library has rendered
    data = await ok(tool_ctx, "browser_list_interactives", limit=200)
    nameless = [i for i in data["items"] if not i["name"] and i["role"] not in CONTAINERS]
    assert not nameless, nameless


# Names come from what a person sees and the accessibility tree says, never from class words: the parts a kit draws a
# switch, a select or a date field with (Element Plus's switch track "el-switch__core", a select's caret, a date
# field's calendar icon: nameless, no role) are that control's drawing, listed once as the control.
@pytest.mark.parametrize(("page", "expected"), [
    ("element_plus", [("combobox", "供应商类别"), ("combobox", "资质认证"), ("combobox", "所在城市"),
                      ("combobox", "合作日期"), ("button", "减少数值"), ("spinbutton", "采购数量"),
                      ("button", "增加数值"), ("switch", "启用"), ("button", "删除供应商")]),
    ("antd", [("combobox", "客户等级"), ("combobox", "客户标签"), ("combobox", "所在城市"), ("textbox", "签约日期"),
              ("spinbutton", "年度预算"), ("switch", "启用"), ("button", "删除客户")]),
])
async def test_kit_controls_are_listed_once_by_their_own_names(tool_ctx: ToolContext, zoo: ZooSite, page: str,
                                                               expected: list[tuple[str, str]]) -> None:
    await open_page(tool_ctx, zoo.url(page))
    assert await find_item(tool_ctx, "switch", "启用") is not None  # the kit has rendered
    items = (await ok(tool_ctx, "browser_list_interactives", limit=200))["items"]
    assert [(i["role"], i["name"]) for i in items] == expected, items
    assert not [i for i in items if i.get("name_guessed")], items


# A control a widget hid and stands in for (Tom Select keeps the original <select> or <input>, clipped to nothing and
# out of the tab order, beside its own box, and points the <label> at its own text box) is not listed beside the
# widget: not as "combobox Pick a country" (its placeholder option), "listbox Pick toppings" with its options, nor
# "textbox post tags" (its name attribute).
@pytest.mark.parametrize(("page", "expected"), [
    ("tomselect", [("combobox", "Country"), ("combobox", "Toppings")]),
    ("tags", [("combobox", "Topics"), ("combobox", "Status"), ("listbox", "Channels"), ("option", "Web"),
              ("option", "Newsletter"), ("option", "Social"), ("button", "Save")]),
])
async def test_original_control_a_widget_stands_in_for_is_not_listed(tool_ctx: ToolContext, zoo: ZooSite, page: str,
                                                                     expected: list[tuple[str, str]]) -> None:
    await open_page(tool_ctx, zoo.url(page))
    assert await find_item(tool_ctx, *expected[0]) is not None  # Tom Select has rendered
    items = (await ok(tool_ctx, "browser_list_interactives", limit=200))["items"]
    assert [(i["role"], i["name"]) for i in items] == expected, items
    assert await page_true(tool_ctx, "document.querySelectorAll('.tomselected').length >= 1")  # the originals exist


async def test_autocomplete_suggestions_are_listed_as_options_and_picked_by_number(tool_ctx: ToolContext,
                                                                                   zoo: ZooSite) -> None:
    await open_page(tool_ctx, zoo.url("jqueryui"))
    field = await find_item(tool_ctx, "textbox", "Programming language")
    assert field is not None
    await ok(tool_ctx, "browser_overlay_act", index=field["n"], action="type", text="Ja")
    suggestion = await find_item(tool_ctx, "option", "JavaScript")
    assert suggestion is not None
    data = await ok(tool_ctx, "browser_list_interactives", limit=200)
    assert [i["name"] for i in data["items"] if i["role"] == "option"] == ["Java", "JavaScript"]
    assert not [i for i in data["items"] if i["role"] == "list"]  # not one nameless list instead
    await ok(tool_ctx, "browser_overlay_act", index=suggestion["n"], action="click")
    assert await page_true(tool_ctx, "$('#tags').val() === 'JavaScript'")
