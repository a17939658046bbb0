"""Moving on from a field whose own popup still lies over the next element, as a person does: Tab.

A date typed into a date picker leaves its calendar open (Element Plus keeps it open until the field is left); a
suggestion list may stay open after typing. The next action's element lies under that popup, and a click there would
land on the popup (a day of the calendar: a change nobody asked for), so the action is refused as covered. A person
leaves the field first. Of the ways to close a popup:

- Escape reverts the typed text in some kits (and closes a modal around the form in others);
- Enter submits the form the field is in;
- a click on an empty spot is a click somewhere nobody chose (and some pages act on any click);
- Tab moves the focus on, which every kit reads as "done with this field": the typed value is kept (committed, as
  on blur) and the popup closes. It is what the next action would do to the focus anyway.

So the only move made is Tab, and only when the popup is the focused field's own (the field has ``aria-expanded``
and names the popup by ``aria-controls`` / ``aria-owns``; never a modal, never when an option is highlighted, which
Tab could accept; see ``fieldPopupOver`` in ``js/element_choices.js``). What the field holds is read before and
after: a field that no longer holds the same value (or a Tab that navigated) fails the action with
``BROWSER_ACTION_FAILED`` rather than going on. The action's result says the popup was closed and how.
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import Error as PlaywrightError

from browserops.browser.act.effects import KEY_GRACE_S, NavWatch, action_error
from browserops.browser.js import element as element_js
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.frames import frame_ids
from browserops.browser.numbering.locate import ElementGone, Located, element_call
from browserops.browser.scripts import NotInFrame, run_on
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.values import same_value


async def move_on_from_popup(session: BrowserSession, located: Located, label: str,
                             timeout_ms: int) -> dict[str, Any] | None:
    """When what covers ``located`` is the open popup of the field holding the focus: press Tab to leave that field,
    check it still holds what it held and nothing navigated, and say what was done (for the action's result). None
    when the cover is anything else (nothing was touched)."""
    if located.world is not None:  # in a closed shadow root: the field cannot be read back from here
        return None
    ids = frame_ids(session, located.frame)
    try:
        field = await element_call(located, element_js.field_popup_over(ids.prefix, ids.seq))
    except (ElementGone, PlaywrightError):
        return None
    if not field.get("id"):
        return None
    ids.seq = max(ids.seq, int(field.get("seq", 0)))
    owner = f'{field.get("role")} "{field.get("name")}"'
    page = session.page
    try:
        async with NavWatch(session, page) as nav:
            await page.keyboard.press("Tab")
        moved = await nav.report(timeout_ms, grace_s=KEY_GRACE_S)
    except PlaywrightError as exc:
        raise action_error(f"Leaving {owner} to close its popup over {label}", exc) from exc
    if moved.get("navigated") or moved.get("url_changed"):
        raise BrowserOpsError(ErrorCode.ACTION_FAILED, f"{owner} held its popup open over {label}; leaving it (Tab) "
                              "changed the page. List the elements again and check what it did before going on.")
    try:
        held: str | None = await run_on(located.frame, field["id"], element_js.current_value())
    except (NotInFrame, PlaywrightError):  # the field went away with its popup: what it held is unknown
        held = None
    before, lang = field.get("value", ""), field.get("lang", "")
    if held is None or not (held == before or (held and before and same_value(held, before, lang))):
        raise BrowserOpsError(ErrorCode.ACTION_FAILED, f"{owner} held its popup open over {label}; leaving it (Tab) "
                              "to close the popup changed what it holds. Check that field's value, then retry.")
    return {"field": owner, "how": "Tab", "kept_value": True}
