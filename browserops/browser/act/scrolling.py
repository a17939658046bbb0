"""Scrolling the page, a scrollable container, or the document inside an iframe."""

from __future__ import annotations

from typing import Any

from playwright.async_api import Error as PlaywrightError

from browserops.browser.errors import first_line
from browserops.browser.js import scroll as scroll_js
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.frames import frame_ids
from browserops.browser.numbering.locate import locate
from browserops.browser.scripts import call_in_frame
from browserops.contract import BrowserOpsError, ElementRef, ErrorCode


async def scroll(
    session: BrowserSession,
    *,
    to: str | None = None,
    by_x: int | None = None,
    by_y: int | None = None,
    element: ElementRef | None = None,
    behavior: str = "auto",
) -> dict[str, Any]:
    """Scroll and report the position: ``y``, pixels ``above``/``below`` (and ``left``/``right`` when it
    scrolls sideways), what scrolled (``page`` or ``container``), and whether it ``moved``.

    - no target: the page; by default one screen (80 %) down;
    - a target that scrolls (a list box, a panel): that container;
    - a target inside a container, or inside an iframe: the nearest thing that scrolls around it (the
      frame's own document for an iframe);
    - a target and nothing else: bring the element into view (centred).
    """
    page = session.page
    result: dict[str, Any]
    try:
        if element is None:
            position = await call_in_frame(page.main_frame, scroll_js.scroll_document(to, by_x, by_y, behavior))
            result = dict(position)
        else:
            into_view = to is None and by_x is None and by_y is None
            located, position = await locate(session, element, scroll_js.scroll_around(to, by_x, by_y, behavior,
                                                                                       into_view=into_view))
            result = dict(position)
            label = frame_ids(session, located.frame).label
            if label != "main":
                result["frame"] = label
                if result.get("kind") == "page":
                    result["kind"] = "frame"
    except PlaywrightError as exc:
        raise BrowserOpsError(
            ErrorCode.ACTION_FAILED, f"Scrolling failed: {first_line(exc)}. List the elements and retry."
        ) from exc
    result["hint"] = "Numbers of the last listing still work; list again to number what came into view."
    return result
