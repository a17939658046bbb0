"""Quick navigation like a screen reader's (H for headings, B for buttons…): move to the next or previous
element of a role, give it the focus when it can take it, and report it.

The reference point is the focused element, or the "virtual cursor" (the last element we moved to, e.g. a
heading that cannot take focus) while the focus has not moved since. Frames are visited one after the
other (main frame first), not inline at the iframe's position.
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import Error as PlaywrightError

from browserops.browser.js import focusnav as focusnav_js
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.elements import latest_listing
from browserops.browser.numbering.frames import frame_ids
from browserops.browser.numbering.isolated import frame_worlds
from browserops.browser.state.session_state import FocusCursor
from browserops.contract import BrowserOpsError, ErrorCode

LANDMARKS = ("banner", "navigation", "main", "complementary", "contentinfo", "region", "form", "search")
NAV_ROLES: dict[str, tuple[str, ...]] = {
    "heading": ("heading",),
    "headings": ("heading",),
    "landmark": LANDMARKS,
    "landmarks": LANDMARKS,
    "region": LANDMARKS,
    "link": ("link",),
    "button": ("button",),
    "field": ("textbox", "searchbox", "spinbutton", "combobox", "listbox", "checkbox", "radio", "switch", "slider"),
    "form field": ("textbox", "searchbox", "spinbutton", "combobox", "listbox", "checkbox", "radio", "switch",
                   "slider"),
    "input": ("textbox", "searchbox", "spinbutton", "combobox"),
    "textbox": ("textbox", "searchbox"),
    "edit": ("textbox", "searchbox", "spinbutton"),
    "checkbox": ("checkbox", "switch"),
    "radio": ("radio",),
    "combobox": ("combobox", "listbox"),
    "select": ("combobox", "listbox"),
    "list": ("list",),
    "table": ("table", "grid"),
    "graphic": ("img",),
    "image": ("img",),
    "tab": ("tab",),
    "dialog": ("dialog", "alertdialog"),
}


def parse_nav_role(role: str | None) -> tuple[list[str], int | None]:
    """'heading' / 'h2' / 'heading 2' / 'button' / any ARIA role → (roles, heading level)."""
    if not role or not role.strip():
        return [], None
    key = " ".join(role.strip().lower().split())
    level = None
    if len(key) == 2 and key[0] == "h" and key[1] in "123456":
        return ["heading"], int(key[1])
    if key.startswith("heading") and key[-1] in "123456" and key[:-1].strip() in ("heading", "heading level"):
        return ["heading"], int(key[-1])
    return list(NAV_ROLES.get(key, (key,))), level


async def move_focus(session: BrowserSession, role: str | None, direction: int) -> dict[str, Any]:
    roles, level = parse_nav_role(role)
    page = session.page
    cursor = session.state.focus_cursor
    if cursor is None or cursor.frame.is_detached() or cursor.frame.page is not page:
        cursor = None
    frames = [f for f in page.frames if not f.is_detached()]
    if not frames:
        raise BrowserOpsError(ErrorCode.TAB_NOT_FOUND, "The tab has no document to navigate.")
    start = frames.index(cursor.frame) if cursor and cursor.frame in frames else 0
    # No wrap-around, like a screen reader: "no next heading" is an answer too.
    order = frames[start:] if direction > 0 else frames[: start + 1][::-1]
    total_matches = 0
    worlds = await frame_worlds(session, page)  # walks where the listing does: closed roots included
    for i, frame in enumerate(order):
        ids = frame_ids(session, frame)
        at_cursor = i == 0 and cursor is not None and cursor.frame is frame
        call = focusnav_js.move(ids.prefix, ids.seq, roles=roles, level=level, direction=direction, from_start=i > 0,
                                cursor=cursor.blind_id if at_cursor and cursor else None,
                                active_at_cursor=cursor.active_at_cursor if at_cursor and cursor else None)
        try:
            result = await worlds.run_here(frame, call)
        except PlaywrightError:
            continue
        ids.seq = max(ids.seq, int(result.get("seq", 0)))
        total_matches += int(result.get("matches", 0))
        if not result.get("found"):
            continue
        element = dict(result["element"])
        session.state.focus_cursor = FocusCursor(frame, str(element["id"]), result.get("active"))
        if ids.label != "main":
            element["frame"] = ids.label
        listing = latest_listing(session)
        if listing is not None and listing.page is page:
            for item in listing.items:
                if item.blind_id == element["id"]:
                    element["n"] = item.number
        return {"found": True, "element": element, "focused": bool(result.get("focused"))}
    what = role or "interactive element"
    where = "after" if direction > 0 else "before"
    return {
        "found": False,
        "message": f"No {what} {where} the current position"
        + ("" if total_matches else f" (the page has no visible {what})")
        + ". Try the other direction or another role.",
    }
