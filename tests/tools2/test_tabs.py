"""Tabs: a link opened in a new tab by id, tabs the site opens noticed and switchable, clear errors."""

from __future__ import annotations

import asyncio

from browserops.browser.launch.session import BrowserSession
from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from tests.tools2.helpers import call, goto, stamp


async def _wait_tabs(session: BrowserSession, n: int) -> None:
    for _ in range(100):
        if len(session.pages) >= n:
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"expected {n} tabs, have {len(session.pages)}")


async def test_open_link_in_new_tab_then_switch(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/popup")
    link = await stamp(session, "a[target=_blank]", "t-report")
    result = await call(tool_ctx, "browser_open_in_new_tab", id=link)
    assert result["status"] == "ok", result
    data = result["data"]
    assert data["index"] == 1 and data["title"] == "Report" and data["http_status"] == 200
    # The current tab stays active and unchanged; the new one is listed, as ours, not the site's.
    assert session.active_index == 0 and session.page.url.endswith("/popup")
    assert [t["title"] for t in data["tabs"]] == ["Popups", "Report"]
    assert data["tabs"][1]["active"] is False and "opened_by_site" not in data["tabs"][1]
    assert not [n for n in session.take_notices() if n["kind"] == "new_tab"]

    switched = await call(tool_ctx, "browser_switch_tab", title_contains="  REPORT ")
    assert switched["status"] == "ok" and switched["data"]["active"] == 1
    assert session.active_index == 1 and session.page.url.endswith("/popup/target")
    back = await call(tool_ctx, "browser_switch_tab", index=0)
    assert back["data"]["url"].endswith("/popup") and session.active_index == 0


async def test_open_in_new_tab_and_switch_at_once(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await goto(tool_ctx, demo_site.base_url + "/popup")
    link = await stamp(tool_ctx.session, "a[target=_blank]", "t-report")
    result = await call(tool_ctx, "browser_open_in_new_tab", id=link, switch=True)
    assert result["data"]["active"] == 1 and tool_ctx.session.page.url.endswith("/popup/target")


async def test_a_window_the_site_opens_is_noticed_and_can_be_switched_to(
    tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/popup")
    await session.page.locator("#open-window").click()  # the site calls window.open
    await _wait_tabs(session, 2)
    notices = [n for n in session.take_notices() if n["kind"] == "new_tab"]
    assert len(notices) == 1 and notices[0]["index"] == 1
    listed = await call(tool_ctx, "browser_switch_tab")
    assert listed["data"]["switched"] is False and session.active_index == 0
    assert listed["data"]["tabs"][1]["opened_by_site"] is True
    switched = await call(tool_ctx, "browser_switch_tab", index=1)
    assert switched["status"] == "ok"
    await session.page.wait_for_load_state("domcontentloaded")
    assert "via=window" in session.page.url
    assert "Opened via window" in str(await session.page.locator("#report-text").text_content())


async def test_target_blank_link_clicked_by_the_page(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/popup")
    await session.page.locator("a[target=_blank]").click()
    await _wait_tabs(session, 2)
    result = await call(tool_ctx, "browser_switch_tab", title_contains="popup/target")  # falls back to the URL
    assert result["status"] == "ok" and result["data"]["active"] == 1
    assert result["data"]["tabs"][1]["opened_by_site"] is True


async def test_tab_errors(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/popup")
    missing = await call(tool_ctx, "browser_switch_tab", index=5)
    assert missing["code"] == "BROWSER_TAB_NOT_FOUND" and len(missing["data"]["tabs"]) == 1
    no_title = await call(tool_ctx, "browser_switch_tab", title_contains="invoices")
    assert no_title["code"] == "BROWSER_TAB_NOT_FOUND" and "invoices" in no_title["error"]
    both = await call(tool_ctx, "browser_switch_tab", index=0, title_contains="Popups")
    assert both["code"] == "BROWSER_INVALID_ARGS"
    negative = await call(tool_ctx, "browser_switch_tab", index=-1)
    assert negative["code"] == "BROWSER_INVALID_ARGS" and "index" in negative["error"]
    button = await stamp(session, "#open-window", "t-button")
    not_link = await call(tool_ctx, "browser_open_in_new_tab", id=button)
    assert not_link["code"] == "BROWSER_ACTION_FAILED" and "not a link" in not_link["error"]
    assert len(session.pages) == 1  # nothing was opened
    gone = await call(tool_ctx, "browser_open_in_new_tab", id="nope-1")
    assert gone["code"] == "BROWSER_ELEMENT_NOT_FOUND"
    selector = await call(tool_ctx, "browser_open_in_new_tab", id="a[target=_blank]")
    assert selector["code"] == "BROWSER_INVALID_ARGS"  # no CSS selectors through the id
    stale = await call(tool_ctx, "browser_open_in_new_tab", id=3)
    assert stale["code"] == "BROWSER_STALE_INDEX" and "browser_list_interactives" in stale["error"]
