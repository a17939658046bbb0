"""What one element is and what it belongs to, read live from the page (for the policy gate and for people).

:func:`inspect_element` describes an element by number, blind id, or — with no target — the focused element
(or the dialog blocking the tab): role, accessible name, state, input type, ``autocomplete``, the text it is
described by, and the text of its enclosing form/dialog/section (capped). It is read live rather than taken
from the latest listing, so the gate judges the element an action will really hit.
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import ElementHandle, Locator
from playwright.async_api import Error as PlaywrightError

from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.elements import resolve_element
from browserops.browser.numbering.frames import frame_ids
from browserops.browser.page.dialogs import blocking_dialog, dialog_info, dialog_open_error
from browserops.browser.scripts import element_script, page_script
from browserops.contract import BrowserOpsError, ErrorCode

EVAL_TIMEOUT_MS = 5000
CONTEXT_CHARS = 600


async def _read(target: Locator | ElementHandle, max_chars: int) -> dict[str, Any]:
    args = {"op": "inspect", "max": max_chars}
    if isinstance(target, Locator):
        out = await target.evaluate(element_script("element"), args, timeout=EVAL_TIMEOUT_MS)
    else:
        out = await target.evaluate(element_script("element"), args)
    return dict(out or {})


async def inspect_element(session: BrowserSession, target: int | str | None = None, *,
                          max_chars: int = CONTEXT_CHARS) -> dict[str, Any]:
    """``{"role", "name", "state"?, "type"?, "autocomplete"?, "described_by"?, "context"?, ...}``."""
    dialog = blocking_dialog(session)
    if dialog is not None:
        if target is not None:
            raise dialog_open_error(session, dialog)
        info = dialog_info(session, dialog)
        return {"role": "alertdialog", "name": info["message"][:200], "dialog": info["type"],
                "context": info["message"][:max_chars]}
    page = session.page
    try:
        if target is None:
            handle = (await page.main_frame.evaluate_handle(page_script("focused"), {})).as_element()
            if handle is None:
                return {"focused": False}
            out = await _read(handle, max_chars)
            out["focused"] = True
            return out
        resolved = await resolve_element(session, target)
        out = await _read(resolved.locator, max_chars)
    except PlaywrightError as exc:
        raise BrowserOpsError(
            ErrorCode.STALE_INDEX,
            f"Could not read element {target!r}: {str(exc).splitlines()[0] if str(exc) else 'it went away'}. "
            "List the elements again.",
        ) from exc
    out["id"] = resolved.blind_id
    if resolved.item is not None:
        out["n"] = resolved.item.number
    label = frame_ids(session, resolved.frame).label
    if label != "main":
        out["frame"] = label
    return out
