"""The numbered overlay: badges with the latest listing's numbers drawn over its elements in every frame.

Badges never intercept clicks (``pointer-events: none``), follow scrolling, and live in one host element
per frame that :func:`hide_overlay` removes. While the overlay is on, every new listing redraws it, so
badges always show the numbers of the latest listing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any, Literal

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame

from browserops.browser.js import overlay as overlay_js
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.elements import latest_listing
from browserops.browser.numbering.isolated import FrameWorlds, frame_worlds
from browserops.browser.scripts import PageCall
from browserops.browser.state.listing import Listing
from browserops.browser.state.session_state import OverlayState

Scheme = Literal["dark", "blue", "light"]
SCHEMES: dict[str, str] = {
    "dark": "yellow numbers on black (default)",
    "blue": "white numbers on dark blue",
    "light": "black numbers on white",
}


def overlay_state(session: BrowserSession) -> OverlayState | None:
    return session.state.overlay


async def _run(worlds_now: FrameWorlds, frame: Frame,
               call: PageCall[overlay_js.Shown] | PageCall[overlay_js.Removed]) -> dict[str, Any] | None:
    try:
        # Where the listing runs, so controls inside the closed shadow roots it reached get badges too.
        result: Mapping[str, Any] = await worlds_now.run_here(frame, call)
    except PlaywrightError:
        return None  # a frame that navigated away has no badges to draw or remove
    return dict(result)


async def show_overlay(session: BrowserSession, listing: Listing, scheme: str = "dark") -> dict[str, Any]:
    """Draw the listing's numbers. Returns how many badges were drawn and which numbers had no element."""
    page = session.page
    worlds_now = await frame_worlds(session, page)
    state = overlay_state(session)
    if (state is not None and state.page is page and state.generation == listing.generation
            and state.scheme == scheme and state.result is not None):
        # Already drawn for this listing (a listing redraws an overlay that is on): keep it if still there.
        try:
            present = await worlds_now.run_here(page.main_frame, overlay_js.present())
            if present or not any(i.frame == "main" for i in listing.items):
                return dict(state.result)
        except PlaywrightError:
            pass
    by_frame: dict[str, list[tuple[str, int]]] = {}
    for item in listing.items:
        by_frame.setdefault(item.frame, []).append((item.blind_id, item.number))
    frames = [f for f in page.frames if not f.is_detached()]
    labelled = {id(f): label for label, f in listing.frames.items()}
    jobs = []
    for frame in frames:
        items = by_frame.get(labelled.get(id(frame), ""), [])
        # Frames without items still run, to remove badges a previous overlay left there.
        jobs.append(_run(worlds_now, frame, overlay_js.show(items, scheme) if items else overlay_js.hide()))
    results = await asyncio.gather(*jobs)
    shown = sum(int(r.get("shown", 0)) for r in results if r)
    missing = sorted(n for r in results if r for n in r.get("missing", []))
    out: dict[str, Any] = {"shown": shown, "scheme": scheme}
    if missing:
        out["missing"] = missing
    session.state.overlay = OverlayState(page, scheme, listing.generation, dict(out))
    return out


async def hide_overlay(session: BrowserSession) -> dict[str, Any]:
    """Remove every badge and listener we added, in every frame of the active page."""
    page = session.page
    worlds_now = await frame_worlds(session, page)
    frames = [f for f in page.frames if not f.is_detached()]
    results = await asyncio.gather(*(_run(worlds_now, f, overlay_js.hide()) for f in frames))
    session.state.overlay = None
    return {"removed": sum(int(r.get("removed", 0)) for r in results if r)}


async def refresh_overlay(session: BrowserSession) -> dict[str, Any] | None:
    """After a new listing: redraw if the overlay is on for this page (numbers must never be stale)."""
    state = overlay_state(session)
    listing = latest_listing(session)
    if state is None or listing is None or state.page is not session.page or listing.page is not state.page:
        return None
    if state.generation == listing.generation:
        return None
    return await show_overlay(session, listing, state.scheme)
