"""Options that exist only on a server (issue 18 item 2): Tom Select with ``load`` and jQuery UI's autocomplete
with a URL source, both from npm, ask the zoo's /suggest endpoint as the person types. ``select`` types the
value, waits for the answer, picks the exact match, refuses a text only part of several options, reports what
was offered when nothing matches, and the widget is checked through its own state. A multiple picker left open
after its picks is closed (Escape on the widget) and the next field is reachable."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from browserops.demo_site.zoo_site import ZooSite
from browserops.tools.context import ToolContext
from tests.realweb.zoo_driver import page_true
from tests.tools.helpers import by_name, fails, listed, ok, open_page


@pytest.fixture(scope="module")
def zoo() -> Iterator[ZooSite]:
    with ZooSite() as site:
        yield site


async def _number(ctx: ToolContext, role: str, name: str) -> int:
    items = [i for i in await listed(ctx) if i["role"] == role]
    return int(by_name(items, name)["n"])


async def test_a_server_backed_tom_select_gets_the_exact_city(tool_ctx: ToolContext, zoo: ZooSite) -> None:
    await open_page(tool_ctx, zoo.url("remote"))
    assert await tool_ctx.session.page.evaluate("() => Object.keys(tsCity.options).length") == 0  # none yet
    data = await ok(tool_ctx, "browser_overlay_act", index=await _number(tool_ctx, "combobox", "Destination"),
                    action="select", text="Porto")
    assert data["chosen"] == "Porto", data
    assert await page_true(tool_ctx, "tsCity.getValue() === 'porto'")


async def test_part_of_several_server_options_is_refused_and_nothing_is_picked(tool_ctx: ToolContext,
                                                                                zoo: ZooSite) -> None:
    await open_page(tool_ctx, zoo.url("remote"))
    result = await fails(tool_ctx, "browser_overlay_act", "BROWSER_TARGET_AMBIGUOUS",
                         index=await _number(tool_ctx, "combobox", "Destination"), action="select", text="Port")
    assert {"Porto", "Portland", "Port Louis"} <= set(result["data"]["options"]), result
    assert await page_true(tool_ctx, "tsCity.getValue() === ''")


async def test_nothing_offered_is_not_found_and_says_so(tool_ctx: ToolContext, zoo: ZooSite) -> None:
    await open_page(tool_ctx, zoo.url("remote"))
    result = await fails(tool_ctx, "browser_overlay_act", "BROWSER_ELEMENT_NOT_FOUND",
                         index=await _number(tool_ctx, "combobox", "Destination"), action="select", text="Madrid")
    assert "No option matching 'Madrid'" in result["error"], result


async def test_several_server_options_in_a_multiple_picker_then_the_next_field(tool_ctx: ToolContext,
                                                                                zoo: ZooSite) -> None:
    await open_page(tool_ctx, zoo.url("remote"))
    data = await ok(tool_ctx, "browser_overlay_act", index=await _number(tool_ctx, "combobox", "Stops"),
                    action="select", options=["Oslo", "Lyon"])
    assert data["chosen"] == ["Oslo", "Lyon"], data
    assert await page_true(tool_ctx, "tsCities.getValue().join() === 'oslo,lyon'")
    # The list it opened does not cover the next field: the office is picked by typing and a suggestion.
    data = await ok(tool_ctx, "browser_overlay_act", index=await _number(tool_ctx, "textbox", "Office"),
                    action="select", text="Zurich")
    assert await page_true(tool_ctx, "document.getElementById('office').value === 'Zurich'")


async def test_a_jquery_ui_autocomplete_with_a_url_source_through_act_by_id(tool_ctx: ToolContext,
                                                                             zoo: ZooSite) -> None:
    await open_page(tool_ctx, zoo.url("remote"))
    office = by_name([i for i in await listed(tool_ctx, ids=True) if i["role"] == "textbox"], "Office")
    data = await ok(tool_ctx, "browser_act_by_index", id=office["id"], action="select", text="Osaka")
    assert data["chosen"] == "Osaka", data
    assert await page_true(tool_ctx, "document.getElementById('office').value === 'Osaka'")


async def test_a_tag_input_keeping_tags_as_text_takes_the_typed_tag_at_once(tool_ctx: ToolContext,
                                                                             zoo: ZooSite) -> None:
    """tag-it's hidden field holds the tags as shown ("Lisbon"): "Porto" typed and ended with a comma is the tag
    its suggestion would have given, so the server's answer (SUGGEST_DELAY_S away) is not waited for: a new tag,
    not a pick."""
    await open_page(tool_ctx, zoo.url("remote"))
    data = await ok(tool_ctx, "browser_overlay_act", index=await _number(tool_ctx, "textbox", "Labels"),
                    action="select", text="Porto")
    assert data["chosen"] == "Porto" and data.get("new_tag") is True, data
    data = await ok(tool_ctx, "browser_overlay_act", index=await _number(tool_ctx, "textbox", "Labels"),
                    action="select", options=["Q4 review", "Oslo"])
    assert data["chosen"] == ["Q4 review", "Oslo"], data
    assert await page_true(tool_ctx, "document.getElementById('labels').value === 'Lisbon,Porto,Q4 review,Oslo'")


async def test_a_tag_input_keeping_the_servers_values_gets_the_offered_one(tool_ctx: ToolContext,
                                                                           zoo: ZooSite) -> None:
    """Its hidden field holds the server's value ("lisbon") for the tag shown as "Lisbon": a typed "Porto" would
    be a new tag the server does not know; the offered one (value "porto") is waited for and picked."""
    await open_page(tool_ctx, zoo.url("remote"))
    data = await ok(tool_ctx, "browser_overlay_act", index=await _number(tool_ctx, "combobox", "Visited"),
                    action="select", options=["Porto"])
    assert data["chosen"] == ["Porto"], data
    assert await page_true(tool_ctx, "document.getElementById('visited').value === 'lisbon,porto'")
