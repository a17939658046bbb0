"""What one element is and what it belongs to, read live from the page (for the policy gate and for people).

:func:`inspect_element` describes an element by number, blind id, or — with no target — the focused element
(or the dialog blocking the tab): role, accessible name, state, input type, ``autocomplete``, the text it is
described by, and the text of its enclosing form/dialog/section (capped). It is read live rather than taken
from the latest listing, so the gate judges the element an action will really hit.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from playwright.async_api import Error as PlaywrightError

from browserops.browser.js import element as element_js
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.frames import frame_ids
from browserops.browser.numbering.isolated import frame_worlds
from browserops.browser.numbering.locate import locate
from browserops.browser.page.dialogs import blocking_dialog, dialog_info, dialog_open_error
from browserops.contract import BrowserOpsError, ElementRef, ErrorCode

CONTEXT_CHARS = 600


async def inspect_element(session: BrowserSession, element: ElementRef | None = None, *,
                          max_chars: int = CONTEXT_CHARS) -> dict[str, Any]:
    """``{"role", "name", "state"?, "type"?, "autocomplete"?, "described_by"?, "context"?, ...}``."""
    dialog = blocking_dialog(session)
    if dialog is not None:
        if element is not None:
            raise dialog_open_error(session, dialog)
        info = dialog_info(session, dialog)
        return {"role": "alertdialog", "name": info["message"][:200], "dialog": info["type"],
                "context": info["message"][:max_chars]}
    try:
        if element is None:
            # Asked where the listing runs: inside a closed shadow root the page's own world sees only the host.
            worlds = await frame_worlds(session, session.page)
            focused: Mapping[str, Any] = await worlds.run_here(session.page.main_frame,
                                                               element_js.inspect_focused(max_chars))
            return dict(focused)
        located, inspected = await locate(session, element, element_js.inspect(max_chars))
    except PlaywrightError as exc:
        raise BrowserOpsError(
            ErrorCode.STALE_INDEX,
            f"Could not read element {element!r}: {str(exc).splitlines()[0] if str(exc) else 'it went away'}. "
            "List the elements again.",
        ) from exc
    out: dict[str, Any] = dict(inspected)
    out["id"] = located.blind_id
    if located.item is not None:
        out["n"] = located.item.number
    label = frame_ids(session, located.frame).label
    if label != "main":
        out["frame"] = label
    return out
