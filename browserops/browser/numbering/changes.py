"""Did the page change since the agent last looked? A cheap check so the loop re-lists only when needed.

:func:`arm` runs after an observation: it remembers the tab, its URL and frames, and arms a MutationObserver
in every frame (``js/watch.js``; our badges and id stamps do not count). :func:`check` then says whether
anything relevant happened since: another tab, another URL, frames added or gone, a new document (its watch
is missing), or DOM mutations. It costs one small evaluate per frame instead of a listing and a screenshot.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page

from browserops.browser.js import watch as watch_js
from browserops.browser.launch.session import BrowserSession
from browserops.browser.scripts import PageCall, call_in_frame
from browserops.browser.state.session_state import ArmedWatch


async def _run(frame: Frame, call: PageCall[watch_js.Armed] | PageCall[watch_js.Changes]) -> dict[str, Any] | None:
    try:
        result: Mapping[str, Any] = await call_in_frame(frame, call)
    except PlaywrightError:
        return None
    return dict(result)


def _frames(page: Page) -> list[Frame]:
    return [f for f in page.frames if not f.is_detached()]


async def arm(session: BrowserSession) -> None:
    """Start watching the active tab as it is now."""
    page = session.page
    frames = _frames(page)
    await asyncio.gather(*(_run(f, watch_js.arm()) for f in frames))
    session.state.armed = ArmedWatch(page, page.url, frozenset(id(f) for f in frames))


async def check(session: BrowserSession) -> dict[str, Any]:
    """``{"changed": bool, "why": str}``: what changed since :func:`arm` (``why`` is empty when nothing did)."""
    armed = session.state.armed
    page = session.page
    if armed is None:
        return {"changed": True, "why": "not observed yet"}
    if armed.page is not page:
        return {"changed": True, "why": "another tab is active"}
    if page.url != armed.url:
        return {"changed": True, "why": "the URL changed"}
    frames = _frames(page)
    if frozenset(id(f) for f in frames) != armed.frames:
        return {"changed": True, "why": "frames were added or removed"}
    results = await asyncio.gather(*(_run(f, watch_js.read()) for f in frames))
    for result in results:
        if result is None or not result.get("armed"):
            return {"changed": True, "why": "a new document was loaded"}
        if result.get("count"):
            return {"changed": True, "why": "the page content changed"}
    return {"changed": False, "why": ""}


def forget(session: BrowserSession) -> None:
    session.state.armed = None
