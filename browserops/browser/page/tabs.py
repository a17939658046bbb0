"""Tabs: the tab list every observation can show, switching, and opening a link in a new tab.

The session already notices tabs the site opens (``target=_blank``, ``window.open``) and files a "new_tab"
notice; here they are reported in the tab list with ``opened_by_site`` and can be switched to by index or title.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from browserops.browser.errors import first_line
from browserops.browser.js import element as element_js
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.locate import locate
from browserops.browser.page import navigation
from browserops.contract import BrowserOpsError, ElementRef, ErrorCode


def _ours(session: BrowserSession) -> list[Page]:
    return session.state.tool_tabs


async def _title(page: Page) -> str:
    try:
        return await page.title()
    except PlaywrightError:
        return ""


async def tab_list(session: BrowserSession) -> list[dict[str, Any]]:
    """``[{index, url, title, active, opened_by_site?, dialog?}]`` for every open tab."""
    ours = _ours(session)
    blocked = {id(d.page) for d in session.dialogs}
    out: list[dict[str, Any]] = []
    for index, page in enumerate(session.pages):
        item: dict[str, Any] = {"index": index, "url": page.url, "title": "", "active": index == session.active_index}
        # A tab blocked by a dialog cannot be asked for its title (the call would wait for the dialog).
        if id(page) in blocked:
            item["dialog_open"] = True
        else:
            item["title"] = await _title(page)
        if index > 0 and not any(p is page for p in ours):
            item["opened_by_site"] = True
        out.append(item)
    return out


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


async def switch_tab(session: BrowserSession, index: int | None = None,
                     title_contains: str | None = None) -> dict[str, Any]:
    """Make a tab active by index, or by a case-insensitive piece of its title (or URL). With neither,
    only report the tabs."""
    if index is not None and title_contains is not None:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, "Give either index or title_contains, not both.")
    tabs = await tab_list(session)
    if index is None and title_contains is None:
        return {"switched": False, "active": session.active_index, "tabs": tabs}
    if title_contains is not None:
        wanted = _norm(title_contains)
        if not wanted:
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, "title_contains is empty.")
        matches = [t["index"] for t in tabs if wanted in _norm(t["title"])]
        matches = matches or [t["index"] for t in tabs if wanted in t["url"].casefold()]
        if not matches:
            raise BrowserOpsError(
                ErrorCode.TAB_NOT_FOUND,
                f"No tab's title or address contains {title_contains!r}. Open tabs are listed in data.tabs.",
                details={"tabs": tabs},
            )
        index = matches[0]
    assert index is not None
    if not 0 <= index < len(tabs):
        raise BrowserOpsError(
            ErrorCode.TAB_NOT_FOUND, f"No tab {index}; open tabs are 0..{len(tabs) - 1} (see data.tabs).",
            details={"tabs": tabs},
        )
    page = session.switch_to(index)
    # A tab with a dialog open or one that is closing may refuse; it is still the active one now.
    with contextlib.suppress(PlaywrightError):
        await page.bring_to_front()
    tabs = await tab_list(session)
    return {"switched": True, "active": index, "url": page.url, "title": tabs[index]["title"], "tabs": tabs}


async def open_in_new_tab(session: BrowserSession, element: ElementRef, timeout_ms: int,
                          *, switch: bool = False) -> dict[str, Any]:
    """Open the address of the link ``target`` (a number or blind id) in a new tab (the current tab stays as
    it is). Refuses non-links: opening a button "in a new tab" would mean clicking it, which is not a
    read-only step."""
    try:
        _, href = await locate(session, element, element_js.link_address())
    except PlaywrightError as exc:
        raise BrowserOpsError(ErrorCode.ACTION_FAILED, f"Could not read the element: {first_line(exc)}.") \
            from exc
    if not href:
        raise BrowserOpsError(
            ErrorCode.ACTION_FAILED,
            "That element is not a link, so it has no address to open in a new tab. Click it with "
            "browser_overlay_act instead (a tab it opens will show up in the tab list).",
        )
    url = navigation.normalise_url(str(href))
    referer = session.page.url
    previous = session.active_index
    page = await session.new_page()
    _ours(session).append(page)
    index = session.active_index
    # Our own tab is not news: drop the "new_tab" notice the session filed for it.
    session.notices = [n for n in session.notices if not (n.get("kind") == "new_tab" and n.get("index") == index)]
    if not switch:
        session.switch_to(previous)
    try:
        response = await page.goto(url, wait_until="domcontentloaded", timeout=timeout_ms, referer=referer)
    except PlaywrightError as exc:
        raise BrowserOpsError(
            ErrorCode.NAVIGATION_FAILED,
            f"The new tab {index} could not load {url}: {first_line(exc)}. The tab stays open; "
            "switch to it or close the task.",
            details={"index": index},
        ) from exc
    return {
        "index": index,
        "url": page.url,
        "title": await _title(page),
        "http_status": response.status if response is not None else None,
        "switched": switch,
        "active": session.active_index,
        "tabs": await tab_list(session),
    }
