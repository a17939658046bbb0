"""The id-based tools with real numbers from browser_list_interactives (tool catalogue I), end to end."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from browserops.demo_site import DemoSite
from browserops.listing_rows import listing_items
from browserops.tools.context import ToolContext
from tests.tools2.helpers import call, goto


async def number_of(ctx: ToolContext, name: str, role: str | None = None) -> int:
    listing = await call(ctx, "browser_list_interactives", limit=200)
    assert listing["status"] == "ok", listing
    for item in listing_items(listing["data"]):
        if item["name"] == name and (role is None or item["role"] == role):
            return int(item["n"])
    raise AssertionError(f"{name!r} not listed: {[i['name'] for i in listing['data']['items']]}")


async def _listed(ctx: ToolContext) -> dict[str, Any]:
    listing = await call(ctx, "browser_list_interactives", limit=200)
    assert listing["status"] == "ok", listing
    return dict(listing["data"])


async def test_clicking_a_confirm_button_by_number(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await goto(tool_ctx, demo_site.base_url + "/dialogs")
    n = await number_of(tool_ctx, "Show confirm", "button")
    started = time.monotonic()
    clicked = await call(tool_ctx, "browser_overlay_act", index=n, action="click")
    assert time.monotonic() - started < 5  # not the click's 15 s timeout
    assert clicked["code"] == "BROWSER_DIALOG_OPEN" and "browser_dialog" in clicked["error"]
    assert clicked["data"]["dialog"] == {"type": "confirm", "message": "Do you want to continue?", "tab": 0}
    # The next observation is refused with the same explanation, quickly.
    listing = await call(tool_ctx, "browser_list_interactives")
    assert listing["code"] == "BROWSER_DIALOG_OPEN"
    answered = await call(tool_ctx, "browser_dialog", accept=True)
    assert answered["status"] == "ok"
    text = await call(tool_ctx, "browser_extract", mode="text")
    assert "Confirm result: OK" in str(text["data"])


async def test_download_by_number(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await goto(tool_ctx, demo_site.base_url + "/statements")
    n = await number_of(tool_ctx, "Hostile file name download", "link")
    result = await call(tool_ctx, "browser_click_and_wait_download", id=n)
    assert result["status"] == "ok", result
    assert Path(result["data"]["path"]).parent == (tool_ctx.workspace / "artifacts" / "downloads").resolve()
    assert len(result["data"]["sha256"]) == 64


async def test_upload_by_number_through_the_file_chooser(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    (tool_ctx.workspace / "scan.pdf").write_bytes(b"%PDF-1.4 fake")
    await goto(tool_ctx, demo_site.base_url + "/upload")
    n = await number_of(tool_ctx, "Choose file", "button")
    result = await call(tool_ctx, "browser_upload", id=n, files=["scan.pdf"])
    assert result["status"] == "ok", result
    assert result["data"]["via"] == "file chooser"
    submit = await number_of(tool_ctx, "Upload", "button")
    assert (await call(tool_ctx, "browser_overlay_act", index=submit, action="click"))["status"] == "ok"
    for _ in range(50):
        if demo_site.state.snapshot()["uploads"]:
            break
        await asyncio.sleep(0.05)
    assert [u["name"] for u in demo_site.state.snapshot()["uploads"]] == ["scan.pdf"]


async def test_tabs_by_number(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/popup")
    link = await number_of(tool_ctx, "Open report in new tab", "link")
    opened = await call(tool_ctx, "browser_open_in_new_tab", id=link)
    assert opened["status"] == "ok" and opened["data"]["index"] == 1
    # Numbers belong to a tab: after switching, the old numbers are refused until the new tab is listed.
    assert (await call(tool_ctx, "browser_switch_tab", index=1))["status"] == "ok"
    stale = await call(tool_ctx, "browser_overlay_act", index=link, action="click")
    assert stale["code"] == "BROWSER_STALE_INDEX"
    assert (await call(tool_ctx, "browser_switch_tab", index=0))["status"] == "ok"
    # A window the site opens on a click is noticed and can be switched to.
    button = await number_of(tool_ctx, "Open window", "button")
    assert (await call(tool_ctx, "browser_overlay_act", index=button, action="click"))["status"] == "ok"
    for _ in range(100):
        if len(session.pages) == 3:
            break
        await asyncio.sleep(0.02)
    assert [n["index"] for n in session.take_notices() if n["kind"] == "new_tab"] == [2]
    switched = await call(tool_ctx, "browser_switch_tab", title_contains="via=window")
    assert switched["data"]["active"] == 2 and switched["data"]["tabs"][2]["opened_by_site"] is True


async def test_covered_content_is_usable_after_closing_the_banner(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await goto(tool_ctx, demo_site.base_url + "/banners/shadow")
    before = await _listed(tool_ctx)
    content = next(i for i in listing_items(before) if i["name"] == "Content button")
    assert content.get("covered") is True
    closed = await call(tool_ctx, "browser_close_banners")
    assert closed["data"]["closed"] == 1
    n = await number_of(tool_ctx, "Content button", "button")
    after = await _listed(tool_ctx)
    assert "covered_by" not in after
    assert (await call(tool_ctx, "browser_overlay_act", index=n, action="click"))["status"] == "ok"
    text = await call(tool_ctx, "browser_extract", mode="text")
    assert "Content clicked 1 times" in str(text["data"])


async def test_hook_renumbers_after_closing_on_the_first_listing(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    from browserops.tools.hooks import after_action

    await goto(tool_ctx, demo_site.base_url + "/banners/iframe")
    assert (await call(tool_ctx, "browser_overlay_show"))["status"] == "ok"
    listed = await call(tool_ctx, "browser_list_interactives")
    assert "covered_by" in listed["data"]  # the consent iframe lies over the content
    hook = await after_action(tool_ctx, "browser_list_interactives", listed, {})
    assert hook["closed"] == 1 and hook["relist"] is False
    fresh = hook["relisted"]
    assert "covered_by" not in fresh
    content = next(i for i in listing_items(fresh) if i["name"] == "Content button")
    # The new numbers are the session's latest listing: acting on them works straight away.
    clicked = await call(tool_ctx, "browser_overlay_act", index=content["n"], action="click")
    assert clicked["status"] == "ok", clicked
