"""Dialogs are an explicit blocked state: reported, answered with browser_dialog, never a hang."""

from __future__ import annotations

import asyncio
import time

import pytest

from browserops.browser.launch.session import BrowserSession
from browserops.browser.page.dialogs import run_watching_dialogs
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from tests.tools2.helpers import call, goto


async def _status(session: BrowserSession) -> str:
    return str(await session.page.locator("#dialog-result").text_content())


async def _open_by_script(session: BrowserSession, button: str) -> None:
    # The page's own code presses the button on the next task, as a site script would.
    await session.page.evaluate(f"setTimeout(() => document.getElementById('{button}').click(), 0)")
    for _ in range(50):
        if session.dialogs:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("no dialog appeared")


async def test_an_action_that_opens_a_confirm_returns_promptly(session: BrowserSession, demo_site: DemoSite) -> None:
    await session.page.goto(demo_site.base_url + "/dialogs")
    started = time.monotonic()
    with pytest.raises(BrowserOpsError) as info:
        await run_watching_dialogs(session, session.page.locator("#show-confirm").click())
    # Playwright's click alone would wait for its whole timeout (15 s) on the open dialog.
    assert time.monotonic() - started < 5
    assert info.value.code is ErrorCode.DIALOG_OPEN
    assert "Do you want to continue?" in info.value.message and "browser_dialog" in info.value.message
    assert info.value.details["dialog"]["type"] == "confirm"


async def test_confirm_blocks_page_tools_until_answered(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/dialogs")
    await _open_by_script(session, "show-confirm")
    # The next observation learns about it from the session's notices...
    notices = [n for n in session.take_notices() if n["kind"] == "dialog"]
    assert notices == [{"kind": "dialog", "type": "confirm", "message": "Do you want to continue?", "tab": 0}]
    # ...and every page tool fails fast, naming the dialog and the way out.
    started = time.monotonic()
    blocked = await call(tool_ctx, "browser_close_banners")
    assert time.monotonic() - started < 2
    assert blocked["code"] == "BROWSER_DIALOG_OPEN" and "browser_dialog" in blocked["error"]
    assert blocked["data"]["dialog"]["message"] == "Do you want to continue?"
    nav = await call(tool_ctx, "browser_navigate", url=demo_site.base_url + "/")
    assert nav["code"] == "BROWSER_DIALOG_OPEN"

    answered = await call(tool_ctx, "browser_dialog", accept=False)
    assert answered["status"] == "ok", answered
    assert answered["data"]["answered"]["type"] == "confirm" and answered["data"]["accepted"] is False
    assert answered["data"]["remaining_dialogs"] == []
    assert await _status(session) == "Confirm result: Cancel"

    await _open_by_script(session, "show-confirm")
    assert (await call(tool_ctx, "browser_dialog", accept=True))["status"] == "ok"
    assert await _status(session) == "Confirm result: OK"
    # Unblocked: page tools work again.
    assert (await call(tool_ctx, "browser_close_banners"))["status"] == "ok"


async def test_prompt_gets_the_text_which_is_not_echoed(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await goto(tool_ctx, demo_site.base_url + "/dialogs")
    await _open_by_script(tool_ctx.session, "show-prompt")
    result = await call(tool_ctx, "browser_dialog", accept=True, text="Ada Lovelace")
    assert result["status"] == "ok"
    assert result["data"]["text_used"] is True and result["data"]["text_length"] == len("Ada Lovelace")
    assert "Ada" not in repr(result)  # typed text is user data: never echoed back
    assert await _status(tool_ctx.session) == "Prompt result: Ada Lovelace"


async def test_alert_is_accepted(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await goto(tool_ctx, demo_site.base_url + "/dialogs")
    await _open_by_script(tool_ctx.session, "show-alert")
    result = await call(tool_ctx, "browser_dialog", accept=True, text="ignored")
    assert result["data"]["answered"] == {"type": "alert", "message": "Hello from the demo site", "tab": 0}
    assert result["data"]["text_used"] is False and "ignored" in result["data"]["note"]
    assert await _status(tool_ctx.session) == "Alert closed"


async def test_no_dialog_is_a_clear_error(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await goto(tool_ctx, demo_site.base_url + "/dialogs")
    result = await call(tool_ctx, "browser_dialog", accept=True)
    assert result["status"] == "error" and result["code"] == "BROWSER_NO_DIALOG"


async def test_leaving_a_page_with_unsaved_changes(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/dialogs/beforeunload")
    # beforeunload only fires after a user gesture on the page.
    await session.page.locator("#unsaved-text").click()
    await session.page.keyboard.type("draft")
    started = time.monotonic()
    nav = await call(tool_ctx, "browser_navigate", url=demo_site.base_url + "/search")
    assert time.monotonic() - started < 5
    assert nav["code"] == "BROWSER_DIALOG_OPEN", nav
    assert nav["data"]["dialog"]["type"] == "beforeunload"
    assert "leave-page" in nav["error"]
    # Cancel keeps the page and its draft...
    assert (await call(tool_ctx, "browser_dialog", accept=False))["status"] == "ok"
    assert session.page.url.endswith("/dialogs/beforeunload")
    assert await session.page.locator("#unsaved-text").input_value() == "draft"
    # ...accepting leaves.
    nav = await call(tool_ctx, "browser_navigate", url=demo_site.base_url + "/search")
    assert nav["code"] == "BROWSER_DIALOG_OPEN"
    assert (await call(tool_ctx, "browser_dialog", accept=True))["status"] == "ok"
    await session.page.wait_for_url("**/search", timeout=5000)


async def test_a_dialog_in_a_background_tab_does_not_block_the_active_one(
    tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/dialogs")
    await _open_by_script(session, "show-alert")
    await session.new_page()  # the new tab is active
    assert session.active_index == 1
    nav = await call(tool_ctx, "browser_navigate", url=demo_site.base_url + "/search")
    assert nav["status"] == "ok", nav
    tabs = await call(tool_ctx, "browser_switch_tab")
    assert tabs["data"]["tabs"][0].get("dialog_open") is True
    # Switching back is allowed with the dialog open; then browser_dialog answers it.
    assert (await call(tool_ctx, "browser_switch_tab", index=0))["status"] == "ok"
    assert (await call(tool_ctx, "browser_close_banners"))["code"] == "BROWSER_DIALOG_OPEN"
    assert (await call(tool_ctx, "browser_dialog", accept=True))["status"] == "ok"
    assert await _status(session) == "Alert closed"
