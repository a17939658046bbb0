"""browser_overlay_act / browser_act_by_index in real Chromium: frames, shadow DOM, focus, select, errors."""

from __future__ import annotations

from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from tests.logcapture import BrowseropsLog
from tests.tools.helpers import by_name, fails, listed, ok, open_page


async def test_type_and_click_in_same_origin_frame(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/frames")
    items = await listed(tool_ctx)
    typed = await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Inner name")["n"], action="type",
                     text="Ada")
    assert typed["value"] == "Ada" and typed["matches"] is True and typed["element"]["state"]["focused"]
    await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Inner button")["n"])
    inner = next(f for f in tool_ctx.session.page.frames if f.url.endswith("/frames/inner"))
    assert await inner.locator("#inner-status").inner_text() == "Inner clicked 1 times by Ada"


async def test_type_and_click_in_cross_origin_frame(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/frames")
    items = await listed(tool_ctx)
    await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Cross field")["n"], action="type", text="xyz")
    await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Cross-origin button")["n"])
    await ok(tool_ctx, "browser_wait", text="Cross clicks: 1")
    assert demo_site.state.cross_clicks == 1


async def test_type_and_click_in_shadow_roots(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/shadow")
    items = await listed(tool_ctx)
    await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Shadow input")["n"], action="type",
             text="тень 影子")
    await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Shadow button")["n"])
    deep = await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Deep shadow button")["n"])
    assert deep["element"]["name"] == "Deep shadow button"
    page = tool_ctx.session.page
    assert await page.locator("#shadow-echo").inner_text() == "Shadow input value: тень 影子"
    assert await page.locator("#deep-status").inner_text() == "Deep clicked 1"


async def test_type_into_a_field_that_needs_focus(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    # The access code is read-only until it has the focus (onfocus lifts readOnly).
    await open_page(tool_ctx, demo_site.base_url + "/focus")
    items = await listed(tool_ctx)
    typed = await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Access code")["n"], action="type",
                     text="4321")
    assert typed["value"] == "4321" and typed["matches"] is True
    assert await tool_ctx.session.page.input_value("#access-code") == "4321"


async def test_type_replaces_content_and_can_submit(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/search?q=old")
    items = await listed(tool_ctx)
    box = next(i for i in items if i["role"] == "searchbox")
    assert box["name"] == "Search" and box["state"]["value"] == "old"
    done = await ok(tool_ctx, "browser_overlay_act", index=box["n"], action="type", text="paper", submit=True)
    assert done["navigated"] is True and "q=paper" in done["url"] and done["title"]
    assert demo_site.state.searches[-1] == "paper"


async def test_password_value_is_never_echoed(tool_ctx: ToolContext, demo_site: DemoSite,
                                              browserops_log: BrowseropsLog) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/login")
    items = await listed(tool_ctx)
    secret = "s3cr3t-Pa55"
    typed = await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Password")["n"], action="type",
                     text=secret)
    assert typed["length"] == len(secret) and "value" not in typed
    assert secret not in str(typed)
    relisted = await listed(tool_ctx)
    state = by_name(relisted, "Password")["state"]
    assert state["filled"] is True and "value" not in state
    assert secret not in browserops_log.text() and browserops_log.debug_names()


async def test_select_on_native_select(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    items = await listed(tool_ctx)
    n = by_name(items, "Category")["n"]
    done = await ok(tool_ctx, "browser_overlay_act", index=n, action="select", text="  meals ")
    assert done["chosen"] == "Meals" and done["value"] == "Meals"
    assert await tool_ctx.session.page.input_value("#category") == "Meals"
    done = await ok(tool_ctx, "browser_overlay_act", index=n, action="select", text="soft")  # partial
    assert done["value"] == "Software"
    missing = await fails(tool_ctx, "browser_overlay_act", "BROWSER_ELEMENT_NOT_FOUND", index=n, action="select",
                          text="Lodging")
    assert "Travel" in missing["error"] and "Lodging" in missing["error"]


async def test_select_on_custom_aria_combobox(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    items = await listed(tool_ctx)
    n = by_name(items, "Currency")["n"]
    done = await ok(tool_ctx, "browser_overlay_act", index=n, action="select", text="euro")  # the option's title
    assert done["chosen"] == "EUR" and done["value"] == "EUR"
    page = tool_ctx.session.page
    assert await page.input_value("#currency-value") == "EUR"
    assert await page.get_attribute("#currency-input", "aria-expanded") == "false"
    done = await ok(tool_ctx, "browser_overlay_act", index=n, action="select", text="GBP")
    assert await page.input_value("#currency-value") == "GBP"
    missing = await fails(tool_ctx, "browser_overlay_act", "BROWSER_ELEMENT_NOT_FOUND", index=n, action="select",
                          text="Yen")
    assert "USD" in missing["error"]


async def test_select_sets_checkboxes_and_radios(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    items = await listed(tool_ctx)
    billable = by_name(items, "Billable to client")["n"]
    assert (await ok(tool_ctx, "browser_overlay_act", index=billable, action="select", text="on"))["checked"]
    assert await tool_ctx.session.page.is_checked("#billable")
    await ok(tool_ctx, "browser_overlay_act", index=billable, action="select", text="off")
    assert not await tool_ctx.session.page.is_checked("#billable")
    await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Cash")["n"], action="select", text="yes")
    assert await tool_ctx.session.page.is_checked("#payment-cash")


async def test_act_by_index_uses_the_blind_id(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/frames")
    items = await listed(tool_ctx, ids=True)
    field = by_name(items, "Cross field")["id"]
    await ok(tool_ctx, "browser_act_by_index", id=field, action="type", text="by id")
    # The id keeps working after other listings (a different window of numbers).
    await ok(tool_ctx, "browser_list_interactives", limit=1)
    await ok(tool_ctx, "browser_act_by_index", id=by_name(items, "Cross-origin button")["id"])
    await ok(tool_ctx, "browser_wait", text="Cross clicks: 1")
    # Its later name is an alias of the same tool: the call runs, and says the tool's own name nowhere else.
    await ok(tool_ctx, "browser_act_by_id", id=by_name(items, "Cross-origin button")["id"])
    await ok(tool_ctx, "browser_wait", text="Cross clicks: 2")
    bad = await fails(tool_ctx, "browser_act_by_index", "BROWSER_INVALID_ARGS", id="button.primary")
    assert bad["data"]["fields"] == ["id"]
    await fails(tool_ctx, "browser_act_by_index", "BROWSER_ELEMENT_NOT_FOUND", id="b99999")


async def test_stale_and_out_of_range_numbers_say_to_relist(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    no_listing = await fails(tool_ctx, "browser_overlay_act", "BROWSER_STALE_INDEX", index=1)
    assert "browser_list_interactives" in no_listing["error"]
    items = await listed(tool_ctx, limit=5)
    out_of_range = await fails(tool_ctx, "browser_overlay_act", "BROWSER_STALE_INDEX", index=6)
    assert "1..5" in out_of_range["error"] and "Re-list" in out_of_range["error"]
    await open_page(tool_ctx, demo_site.base_url + "/shadow")
    navigated = await fails(tool_ctx, "browser_overlay_act", "BROWSER_STALE_INDEX", index=items[1]["n"])
    assert "browser_list_interactives" in navigated["error"]
    await fails(tool_ctx, "browser_overlay_act", "BROWSER_STALE_INDEX", index=40)
    # An element removed since the listing: its number is stale too.
    items = await listed(tool_ctx)
    await tool_ctx.session.page.evaluate("() => document.getElementById('light-button').remove()")
    gone = await fails(tool_ctx, "browser_overlay_act", "BROWSER_STALE_INDEX",
                       index=by_name(items, "Light DOM button")["n"])
    assert "no longer on the page" in gone["error"]


async def test_overlay_act_relists_when_its_limit_offset_differ(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    await listed(tool_ctx, limit=3)
    everything = await listed(tool_ctx, limit=40, ids=True)
    await listed(tool_ctx, limit=3)
    # Number 7 belongs to a listing with limit 8: overlay_act re-lists with it, then acts.
    done = await ok(tool_ctx, "browser_overlay_act", index=7, limit=8, offset=0)
    assert done["relisted"] == {"limit": 8, "offset": 0}
    assert done["target"]["id"] == everything[6]["id"]
    again = await ok(tool_ctx, "browser_overlay_act", index=7, limit=8, offset=0)
    assert "relisted" not in again


async def test_covered_element_is_refused_quickly(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/search?banner=force")
    items = await listed(tool_ctx)
    box = next(i for i in items if i["name"] == "Search" and i["role"] == "searchbox")
    assert box["covered"] is True
    refused = await fails(tool_ctx, "browser_overlay_act", "BROWSER_ACTION_FAILED", index=box["n"], action="type",
                          text="x")
    assert "covered by dialog" in refused["error"] and refused["data"]["covered_by"].startswith("dialog")


async def test_wrong_action_for_the_element_and_missing_text(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    items = await listed(tool_ctx)
    wrong = await fails(tool_ctx, "browser_overlay_act", "BROWSER_INVALID_ARGS",
                        index=by_name(items, "Submit expense")["n"], action="type", text="x")
    assert "action='click'" in wrong["error"]
    wrong = await fails(tool_ctx, "browser_overlay_act", "BROWSER_INVALID_ARGS",
                        index=by_name(items, "Category")["n"], action="type", text="x")
    assert "action='select'" in wrong["error"]
    missing = await fails(tool_ctx, "browser_overlay_act", "BROWSER_INVALID_ARGS", index=2, action="select")
    assert missing["data"]["fields"] == ["text"]
    bad = await fails(tool_ctx, "browser_overlay_act", "BROWSER_INVALID_ARGS", index=0)
    assert bad["data"]["fields"] == ["index"]
    bad = await fails(tool_ctx, "browser_overlay_act", "BROWSER_INVALID_ARGS", index=1, action="hover")
    assert bad["data"]["fields"] == ["action"]
    bad = await fails(tool_ctx, "browser_overlay_act", "BROWSER_INVALID_ARGS", index=1, css="#x")
    assert bad["data"]["fields"] == ["css"]


async def test_contenteditable_pointer_divs_dates_and_clearing(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    page = tool_ctx.session.page
    await page.evaluate(
        """() => { const m = document.querySelector('main');
          m.insertAdjacentHTML('afterbegin', '<div contenteditable="true" aria-label="Notes editor" ' +
            'style="border:1px solid;min-height:2em">old</div><div id="tile" style="cursor:pointer">' +
            '<span>Pick this tile</span></div>');
          document.getElementById('tile').addEventListener('click', () => { document.title = 'tile picked'; }); }"""
    )
    items = await listed(tool_ctx)
    editor = by_name(items, "Notes editor")
    assert editor["role"] == "textbox" and editor["state"]["value"] == "old"
    typed = await ok(tool_ctx, "browser_overlay_act", index=editor["n"], action="type", text="Новый текст")
    assert typed["value"] == "Новый текст" and typed["matches"] is True
    tile = by_name(items, "Pick this tile")
    assert tile["role"] == "clickable"
    assert not any(i["name"] == "Pick this tile" and i["n"] != tile["n"] for i in items)  # the span is not separate
    await ok(tool_ctx, "browser_overlay_act", index=tile["n"])
    assert await page.title() == "tile picked"
    date = await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Date")["n"], action="type",
                    text="2026-02-03")
    assert date["value"] == "2026-02-03"
    merchant = by_name(items, "Merchant")["n"]
    await ok(tool_ctx, "browser_overlay_act", index=merchant, action="type", text="Acme")
    cleared = await ok(tool_ctx, "browser_overlay_act", index=merchant, action="type", text="")
    assert cleared["value"] == "" and cleared["length"] == 0


async def test_clicks_report_spa_views_and_new_tabs(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/spa")
    items = await listed(tool_ctx)
    settings_tab = next(i for i in items if i["role"] == "tab" and i["name"] == "Settings")
    done = await ok(tool_ctx, "browser_overlay_act", index=settings_tab["n"])
    assert done["url_changed"] is True and done["url"].endswith("/spa/settings") and "navigated" not in done
    assert done["element"]["state"]["selected"] is True
    after = await listed(tool_ctx)
    switch = by_name(after, "Email notifications")
    assert switch["role"] == "switch" and switch["state"]["checked"] is False and switch["new"] is True
    toggled = await ok(tool_ctx, "browser_overlay_act", index=switch["n"])
    assert toggled["element"]["state"]["checked"] is True
    await open_page(tool_ctx, demo_site.base_url + "/popup")
    items = await listed(tool_ctx)
    opened = await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Open report in new tab")["n"])
    assert opened["new_tab"] == 1 and len(tool_ctx.session.pages) == 2


async def test_select_in_a_standalone_aria_listbox(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/shadow")
    page = tool_ctx.session.page
    await page.evaluate(
        """() => { document.querySelector('main').insertAdjacentHTML('afterbegin',
            '<ul role="listbox" aria-label="Fruit" tabindex="0" id="fruit">' +
            '<li role="option" aria-selected="true">Apple</li><li role="option" aria-selected="false">Banana</li>' +
            '<li role="option" aria-selected="false">Cherry</li></ul>');
          const list = document.getElementById('fruit');
          list.addEventListener('click', (ev) => {
            const opt = ev.target.closest('[role=option]');
            if (!opt) { return; }
            list.querySelectorAll('[role=option]').forEach((o) => o.setAttribute('aria-selected', String(o === opt)));
          }); }"""
    )
    items = await listed(tool_ctx)
    fruit = by_name(items, "Fruit")
    assert fruit["role"] == "listbox"
    assert by_name(items, "Apple")["state"] == {"selected": True}
    done = await ok(tool_ctx, "browser_overlay_act", index=fruit["n"], action="select", text="BAN")
    assert done["chosen"] == "Banana"
    assert await page.get_attribute("#fruit [role=option]:nth-child(2)", "aria-selected") == "true"
