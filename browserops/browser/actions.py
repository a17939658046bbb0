"""Acting on one element (click, type) and pressing keys, with errors a person can act on.

Every function takes a target (a number of the latest listing or a blind id), resolves it through
:func:`browserops.browser.elements.resolve_element`, and returns what the page shows afterwards: the
element's new state, whether the page navigated, and where it is now. Typed text never reaches a log.
Choosing options lives in :mod:`browserops.browser.selecting`.
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import Error as PlaywrightError

from browserops.browser.effects import KEY_GRACE_S, NavWatch, action_error
from browserops.browser.element_ops import (
    element_op,
    ensure_reachable,
    finish,
    focus_element,
    label_of,
    public_desc,
    resolve_described,
)
from browserops.browser.elements import latest_listing
from browserops.browser.frames import frame_ids
from browserops.browser.scripts import page_script
from browserops.browser.session import BrowserSession
from browserops.errors import BrowserOpsError, ErrorCode

TYPE_KEYS_MAX = 300  # longer text is inserted in one go rather than key by key


async def click(session: BrowserSession, target: int | str, *, timeout_ms: int) -> dict[str, Any]:
    resolved, desc = await resolve_described(session, target)
    label = label_of(target, desc)
    await ensure_reachable(resolved, label, timeout_ms)
    page = session.page
    async with NavWatch(session, page) as nav:
        nav.expect_tab = bool(desc.get("opens_tab"))
        try:
            await resolved.locator.click(timeout=timeout_ms)
        except PlaywrightError as exc:
            raise action_error(f"Clicking {label}", exc) from exc
    return await finish(session, resolved, nav, timeout_ms, {"action": "click", "target": public_desc(desc, resolved)})


_NOT_TEXT = {
    "native-select": "it is a drop-down list: use action='select' with the option's text",
    "combobox": "it is a drop-down: use action='select' with the option's text",
    "listbox": "it is a list of options: use action='select' with the option's text",
    "option": "it is an option: use action='click'",
    "checkable": "it is a checkbox/radio/switch: use action='click' (or 'select' with on/off)",
    "file": "it is a file field: use browser_upload",
    "button": "it is a button: use action='click'",
    "other": "it is not a text field: use action='click', or find the field with browser_find(role='textbox')",
}


async def type_text(
    session: BrowserSession, target: int | str, text: str, *, submit: bool = False, timeout_ms: int
) -> dict[str, Any]:
    """Focus the field (checked), replace its content with ``text``, optionally press Enter; report what
    the field now holds (a password field reports only the length)."""
    resolved, desc = await resolve_described(session, target)
    label = label_of(target, desc)
    kind = desc.get("kind")
    if kind not in ("text", "combobox-input", "editable", "fill"):
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"Cannot type into {label}: {_NOT_TEXT.get(str(kind), '')}.")
    await ensure_reachable(resolved, label, timeout_ms)
    page = session.page
    loc = resolved.locator
    await focus_element(resolved, label, timeout_ms)
    result: dict[str, Any] = {"action": "type", "target": public_desc(desc, resolved)}
    async with NavWatch(session, page) as nav:
        try:
            if kind == "fill":  # date/time/colour/range inputs take a formatted value, not keystrokes
                await loc.fill(text, timeout=timeout_ms)
            else:
                flags = await element_op(loc, "clear")
                if flags.get("readonly") or flags.get("disabled"):
                    raise BrowserOpsError(ErrorCode.ACTION_FAILED, f"{label} is read-only or disabled; "
                                          "it cannot be typed into.")
                if not text:
                    await page.keyboard.press("Delete")
                elif len(text) > TYPE_KEYS_MAX or ("\n" in text and desc.get("role") != "textbox"):
                    await page.keyboard.insert_text(text)
                else:
                    await page.keyboard.type(text)
            # What the field holds before any Enter (a chat box may clear itself on submit).
            report_value(result, str(await element_op(loc, "value")), text, secret=desc.get("type") == "password")
            if submit:
                await page.keyboard.press("Enter")
        except PlaywrightError as exc:
            raise action_error(f"Typing into {label}", exc) from exc
    return await finish(session, resolved, nav, timeout_ms, result, grace_s=KEY_GRACE_S if submit else 0.0)


def report_value(result: dict[str, Any], value: str, typed: str, *, secret: bool) -> None:
    result["length"] = len(value)
    if not secret:
        result["value"] = value if len(value) <= 200 else value[:199] + "…"
    result["matches"] = value == typed
    if value != typed:
        result["note"] = ("The field holds something other than the text typed (an input mask, a length limit or "
                          "a suggestion). Check it before going on.")


async def focused_element(session: BrowserSession) -> dict[str, Any] | None:
    """The element holding keyboard focus (through frames and shadow roots), with its id and number."""
    page = session.page
    for frame in page.frames:
        if frame.is_detached():
            continue
        ids = frame_ids(session, frame)
        try:
            info = await frame.evaluate(page_script("focusnav"), {"op": "active", "prefix": ids.prefix,
                                                                   "seq": ids.seq})
        except PlaywrightError:
            continue
        if not info or info.get("frame_focus"):
            continue  # focus sits in a child frame (or nowhere here): keep looking
        ids.seq = max(ids.seq, int(info.get("seq", 0)))
        el = dict(info["element"])
        if ids.label != "main":
            el["frame"] = ids.label
        listing = latest_listing(session)
        if listing is not None and listing.page is page:
            for item in listing.items:
                if item.blind_id == el.get("id"):
                    el["n"] = item.number
        return el
    return None


async def press(session: BrowserSession, key: str, target: int | str | None = None, *,
                timeout_ms: int) -> dict[str, Any]:
    """Press a key or chord (already normalised, see :mod:`browserops.browser.keys`) on the given element
    (focusing it first) or on whatever has the focus; report where the focus is afterwards."""
    page = session.page
    result: dict[str, Any] = {"key": key}
    async with NavWatch(session, page) as nav:
        if target is not None:
            resolved, desc = await resolve_described(session, target)
            result["target"] = public_desc(desc, resolved)
            try:
                await resolved.locator.press(key, timeout=timeout_ms)
            except PlaywrightError as exc:
                raise action_error(f"Pressing {key} on {label_of(target, desc)}", exc) from exc
        else:
            try:
                await page.keyboard.press(key)
            except PlaywrightError as exc:
                raise action_error(f"Pressing {key}", exc) from exc
    result.update(await nav.report(timeout_ms, grace_s=KEY_GRACE_S))
    if not result.get("navigated"):
        focused = await focused_element(session)
        if focused:
            result["focused"] = focused
    return result
