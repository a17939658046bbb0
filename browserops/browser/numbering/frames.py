"""Frames as the numbering engine sees them: a stable label and id prefix per frame, and where each
frame's viewport sits inside the top-level viewport (so items in iframes sort and report "in viewport"
like everything else).

Labels: the main frame is ``main`` (blind ids ``b1``, ``b2``…); child frames get ``f1``, ``f2``… in the
order the session first meets them (ids ``f1b1``…), for the frame's lifetime. Same- and cross-origin
frames are handled alike: our script runs inside each frame through Playwright's ``Frame``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page

from browserops.browser.js import frames as frames_js
from browserops.browser.launch.session import BrowserSession
from browserops.browser.scripts import run_on_handle
from browserops.browser.state.frames import FrameIds, FrameView, Rect
from browserops.browser.state.session_state import FrameRegistry

MAIN = "main"


def _registry(session: BrowserSession) -> FrameRegistry:
    return session.state.frames


def frame_ids(session: BrowserSession, frame: Frame) -> FrameIds:
    reg = _registry(session)
    ids = reg.by_frame.get(frame)
    if ids is None:
        if frame.parent_frame is None:
            ids = FrameIds(MAIN, "b")
        else:
            label = f"f{reg.next_label}"
            reg.next_label += 1
            ids = FrameIds(label, label + "b")
        reg.by_frame[frame] = ids
        # Forget frames that are gone so the registry does not grow with every navigation.
        for old in [f for f in reg.by_frame if f.is_detached()]:
            del reg.by_frame[old]
    return ids


def frame_by_label(session: BrowserSession, page: Page, label: str) -> Frame | None:
    for frame in page.frames:
        if not frame.is_detached() and frame_ids(session, frame).label == label:
            return frame
    return None


def _intersect(a: Rect, b: Rect) -> Rect:
    return (max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3]))


def _empty(r: Rect) -> bool:
    return r[2] - r[0] < 1 or r[3] - r[1] < 1


async def _child_box(frame: Frame) -> tuple[Rect, tuple[float, float]] | None:
    """The frame's visible box and content origin in top-level viewport coordinates, or None if hidden."""
    try:
        handle = await frame.frame_element()
    except PlaywrightError:
        return None
    try:
        box, info = await asyncio.gather(handle.bounding_box(), run_on_handle(handle, frames_js.frame_box()))
    except PlaywrightError:
        return None
    finally:
        with contextlib.suppress(PlaywrightError):
            await handle.dispose()
    if box is None or not info[0] or box["width"] < 1 or box["height"] < 1:
        return None
    x, y = box["x"], box["y"]
    return (x, y, x + box["width"], y + box["height"]), (x + float(info[1]), y + float(info[2]))


# Where DevTools reaches a frame: (reached, border box or None when not rendered, content origin), in
# top-level viewport pixels, as DevTools' box model gives them for same-process frames
# (browserops.browser.numbering.isolated.FrameWorlds.frame_box).
FrameBox = Callable[[Frame], Awaitable[tuple[bool, Rect | None, tuple[float, float]]]]


Geometry = tuple[Rect, tuple[float, float]]  # border box, content origin


async def _measure(frame: Frame, devtools: FrameBox | None) -> Geometry | None:
    """The frame element's box and content origin in top-level viewport pixels, or None if not rendered."""
    if devtools is not None:
        reached, box, origin = await devtools(frame)
        if reached:
            return (box, origin) if box is not None else None
    return await _child_box(frame)


def main_view(session: BrowserSession, page: Page) -> FrameView:
    """The main frame's view: its walk needs nothing measured, so it can start before the child frames are."""
    return FrameView(page.main_frame, frame_ids(session, page.main_frame), 0, title="")


async def visible_frames(session: BrowserSession, page: Page, devtools: FrameBox | None = None) -> list[FrameView]:
    """The main frame and every rendered child frame (nested ones clipped by their parents). ``devtools``
    measures frame elements in fewer round trips where it reaches them."""
    main = main_view(session, page)
    return [main, *await child_views(session, page, main, devtools)]


async def child_views(session: BrowserSession, page: Page, main_frame_view: FrameView,
                      devtools: FrameBox | None = None) -> list[FrameView]:
    """Every rendered child frame of ``page`` (nested ones clipped by their parents), numbered after the main
    frame's ``main_frame_view``."""
    viewport = page.viewport_size
    main = page.main_frame
    views: dict[Frame, FrameView] = {main: main_frame_view}
    main_clip: Rect | None = (0.0, 0.0, float(viewport["width"]), float(viewport["height"])) if viewport else None
    children = [f for f in page.frames if f is not main and not f.is_detached()]
    measured = await asyncio.gather(*(_measure(f, devtools) for f in children))
    geometry = dict(zip(children, measured, strict=True))

    def place(frame: Frame) -> FrameView | None:
        if frame in views:
            return views[frame]
        parent = frame.parent_frame
        geo = geometry.get(frame)
        if parent is None or geo is None:
            return None
        parent_view = place(parent)
        if parent_view is None:
            return None
        box, origin = geo
        clip = box
        parent_clip = parent_view.clip or main_clip
        if parent_clip is not None:
            clip = _intersect(box, parent_clip)
        view = FrameView(frame, frame_ids(session, frame), len(views), origin, clip)
        # An iframe scrolled out of sight still holds elements; they just are not in the viewport.
        views[frame] = view
        return view

    for frame in children:
        place(frame)
    out = sorted((v for v in views.values() if v is not main_frame_view), key=lambda v: v.order)
    for view in out:
        if view.clip is not None and _empty(view.clip):
            # Keep the frame (its items exist, off-screen) but give it a clip nothing intersects.
            view.clip = (0.0, 0.0, 0.0, 0.0)
    return out
