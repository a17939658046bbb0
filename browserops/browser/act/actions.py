"""Acting on one element (click, type) and pressing keys, with errors a person can act on.

Every function takes a target (a number of the latest listing or a blind id), resolves it through
:func:`browserops.browser.numbering.locate.locate`, and returns what the page shows afterwards: the
element's new state, whether the page navigated, and where it is now. Typed text never reaches a log.
Choosing options lives in :mod:`browserops.browser.act.selecting`.
"""

from __future__ import annotations

from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from browserops.browser.act.datetimes import DATE_TYPES, input_value
from browserops.browser.act.effects import KEY_GRACE_S, NavWatch, action_error
from browserops.browser.act.element_ops import (
    activate,
    click_ready,
    finish,
    label_of,
    prepare,
    public_desc,
    resolve_described,
)
from browserops.browser.act.keylisteners import listens_to_keys
from browserops.browser.act.keys import activating
from browserops.browser.act.selecting import select_many
from browserops.browser.js import element as element_js
from browserops.browser.js import focusnav as focusnav_js
from browserops.browser.js.element import After, Desc
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.elements import latest_listing
from browserops.browser.numbering.frames import frame_ids
from browserops.browser.numbering.isolated import frame_worlds
from browserops.browser.numbering.locate import Located, element_call
from browserops.browser.page.redaction import note_typed
from browserops.contract import BrowserOpsError, ElementRef, ErrorCode
from browserops.values import same_value
from browserops.words import split_list, takes_comma_list

TYPE_KEYS_MAX = 300  # longer text is inserted in one go rather than key by key


async def click(session: BrowserSession, element: ElementRef, *, timeout_ms: int) -> dict[str, Any]:
    """Click the element; one that an ordinary page element lies on top of (not a dialog or banner) is
    activated the way a screen reader does instead (focus + its default action), and the result says so."""
    ready = await prepare(session, element, reach=True, under_cover=True, timeout_ms=timeout_ms)
    located, desc = ready.located, ready.desc
    result: dict[str, Any] = {"action": "click", "target": public_desc(desc, located)}
    if ready.closed_popups:  # a field left (Tab) to close its popup over this one
        result["closed_popups"] = ready.closed_popups
    async with NavWatch(session, session.page) as nav:
        nav.expect_tab = bool(desc.get("opens_tab"))
        if ready.covered_by:
            result.update(await activate(ready))
        else:
            await click_ready(ready, timeout_ms)
    return await finish(located, nav, timeout_ms, result)


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
TEXT_KINDS = ["text", "combobox-input", "editable", "fill"]
KEYED_KINDS = ["text", "combobox-input", "editable"]  # typed into (content selected first); "fill" is filled


async def type_text(
    session: BrowserSession, element: ElementRef, text: str, *, submit: bool = False, timeout_ms: int
) -> dict[str, Any]:
    """Focus the field (checked), replace its content with ``text``, optionally press Enter; report what
    the field now holds (a password field reports only the length).

    How the text goes in: a date/time/colour/range input is filled with its formatted value; a plain text
    field (an ``<input>``/``<textarea>`` that is no autocomplete widget and that neither it nor anything
    above it listens to keys on, see :mod:`browserops.browser.act.keylisteners`) gets the text inserted at once,
    as an input method commits it (the page sees ``beforeinput`` and ``input``, as with Playwright's
    ``fill``); anything else — a combobox, a contenteditable editor, a field with key handlers — is typed
    key by key like a person would, so the page sees every keydown/keypress/keyup. Very long text, and text
    with line breaks for a field that is no textbox, is inserted at once too (as before). ``typed_as`` in the
    result says which it was: ``fill``, ``insert``, ``keys``, ``insert_then_key`` (a field that rewrote each
    key, see :func:`_keys_kept`) or ``clear`` (empty text).
    """
    ready = await prepare(session, element, kinds=TEXT_KINDS, reach=True, focus=True, clear=KEYED_KINDS,
                          timeout_ms=timeout_ms)
    located, desc, label, kind = ready.located, ready.desc, ready.label, ready.kind
    if kind not in TEXT_KINDS:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"Cannot type into {label}: {_NOT_TEXT.get(kind, '')}.")
    holds = desc.get("stands_for") or {}
    if kind in KEYED_KINDS and not submit and "," in text and isinstance(holds.get("text"), str) \
            and takes_comma_list(str(holds.get("described") or "")):
        return await _typed_as_tags(session, element, text, desc, timeout_ms)
    page = session.page
    loc = located.locator
    result: dict[str, Any] = {"action": "type", "target": public_desc(desc, located)}
    if ready.closed_popups:  # a field left (Tab) to close its popup over this one
        result["closed_popups"] = ready.closed_popups
    if kind == "fill" and desc.get("type") in DATE_TYPES:
        # A date/time input holds only its ISO-like value: convert what a person wrote (or refuse it).
        wanted = input_value(desc.get("type", ""), text)
        if wanted != text:
            result["interpreted_as"] = wanted
        text = wanted
    after: After | None = None
    async with NavWatch(session, page) as nav:
        try:
            if kind == "fill":  # date/time/colour/range inputs take a formatted value, not keystrokes
                await loc.fill(text, timeout=timeout_ms)
                result["typed_as"] = "fill"
            else:
                if ready.flags.get("readonly") or ready.flags.get("disabled"):
                    raise BrowserOpsError(ErrorCode.ACTION_FAILED, f"{label} is read-only or disabled; "
                                          "it cannot be typed into.")
                if not text:
                    await page.keyboard.press("Delete")
                    result["typed_as"] = "clear"
                elif (len(text) > TYPE_KEYS_MAX or ("\n" in text and desc.get("role") != "textbox")
                      or (ready.plain and not await listens_to_keys(session, located.frame, located.blind_id))):
                    await page.keyboard.insert_text(text)
                    result["typed_as"] = "insert"
                else:
                    result["typed_as"] = await _keys_kept(page, located, text, timeout_ms)
            # What the field holds before any Enter (a chat box may clear itself on submit); without Enter
            # the same call also describes the element for the result.
            if submit:
                held = await element_call(located, element_js.held_value())
                value, lang = held["value"], held["lang"]
            else:
                after_action = await element_call(located, element_js.after_action())
                after, value, lang = after_action, after_action["value"], after_action["lang"]
            report_value(result, str(value), text, secret=desc.get("type") == "password", lang=lang)
            for typed in (text, str(value)):  # as typed, and as the page formatted it
                note_typed(session, typed, name=desc.get("name", ""), input_type=desc.get("type", ""))
            if submit:
                await page.keyboard.press("Enter")
        except PlaywrightError as exc:
            raise action_error(f"Typing into {label}", exc) from exc
    return await finish(located, nav, timeout_ms, result, grace_s=KEY_GRACE_S if submit else 0.0, activates=submit,
                        desc=after["desc"] if after else None)


async def _typed_as_tags(session: BrowserSession, element: ElementRef, text: str, desc: Desc,
                         timeout_ms: int) -> dict[str, Any]:
    """A comma-separated list typed into a tag input that says it takes one (a text box standing for a hidden text
    field described as "a comma-separated list"): typed as a person does, an item at a time, each ended the way the
    widget makes a tag — its suggestion clicked, else a comma, never Enter (which could send the form) — and checked
    to be a tag before the next (:func:`browserops.browser.act.selecting.select_many`). Typed whole, the widget would
    make a tag at the first comma and keep the rest as typing. ``typed_as``: ``tags``."""
    for item in (text, *split_list(text)):
        note_typed(session, item, name=desc.get("name", ""), input_type=desc.get("type", ""))
    result = await select_many(session, element, split_list(text), timeout_ms=timeout_ms)
    return {**result, "action": "type", "typed_as": "tags"}


async def _keys_kept(page: Page, located: Located, text: str, timeout_ms: int) -> str:
    """Type ``text`` key by key: ``keys`` when the field holds it. A field that rewrites itself on every key (a
    date picker that parses and reformats each partial value: "2" becomes a whole date, and the next keys land
    after it) shows that at the first key, so the rest is not typed into it: it is given the text the way a paste
    gives it — all but the last character at once, then the last one as a key, so its key handlers see one
    keystroke on the complete value: ``insert_then_key`` (the same when a field turns out to rewrite later keys).
    When that does not hold the text either (an input mask formats what is typed), it is typed key by key
    again, and the caller reports what the field holds."""
    await page.keyboard.type(text[:1])
    if len(text) < 2:
        return "keys"
    if await _holds(located, text[:1]):
        await page.keyboard.type(text[1:])
        if await _holds(located, text):
            return "keys"
    await located.locator.select_text(timeout=timeout_ms)
    await page.keyboard.insert_text(text[:-1])
    await page.keyboard.type(text[-1])
    if await _holds(located, text):
        return "insert_then_key"
    await located.locator.select_text(timeout=timeout_ms)
    await page.keyboard.type(text)
    return "keys"


async def _holds(located: Located, text: str) -> bool:
    return str(await element_call(located, element_js.current_value())) == text


def report_value(result: dict[str, Any], value: str, typed: str, *, secret: bool, lang: str = "") -> None:
    """What the field holds after typing, and whether that is what was typed: the same text, or the same number or
    date as the page's language ``lang`` writes it (a field that shows 13250 as "13,250" holds what was typed;
    :func:`browserops.values.same_value`)."""
    result["length"] = len(value)
    if not secret:
        result["value"] = value if len(value) <= 200 else value[:199] + "…"
    result["matches"] = value == typed if secret else same_value(value, typed, lang)
    if not result["matches"]:
        result["note"] = ("The field holds something other than the text typed (an input mask, a length limit or "
                          "a suggestion). Check it before going on.")
    elif value != typed:
        result["note"] = "The field shows the value typed in its own format."


async def focused_element(session: BrowserSession) -> dict[str, Any] | None:
    """The element holding keyboard focus (through frames and shadow roots), with its id and number. Asked
    where the listing looks (the frame's isolated world, which also sees into the closed shadow roots the
    listing reached: the page's own world sees only their host)."""
    page = session.page
    worlds = await frame_worlds(session, page)
    for frame in page.frames:
        if frame.is_detached():
            continue
        ids = frame_ids(session, frame)
        call = focusnav_js.active(ids.prefix, ids.seq)
        try:
            info = await worlds.run_here(frame, call)
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


# The element that has the keyboard focus in the top document. A frame holding the focus is left out: pressing "on"
# it would focus the frame itself and take the focus from the element inside it.
_FOCUSED = ":focus:not(iframe):not(frame)"


async def _press_on_focus(page: Page, key: str, timeout_ms: int) -> None:
    """Press where the focus is. Through the focused element's locator when there is one, because Playwright then
    waits for a navigation the key started (Enter submitting a form) to begin; a bare keyboard press returns at
    once and, on a busy machine, before the navigation's request is seen. Otherwise (nothing focused, or the
    focus inside a frame) the keyboard itself."""
    focused = page.locator(_FOCUSED)
    if await focused.count() == 1:
        await focused.press(key, timeout=timeout_ms)
    else:
        await page.keyboard.press(key)


async def press(session: BrowserSession, key: str, element: ElementRef | None = None, *,
                timeout_ms: int) -> dict[str, Any]:
    """Press a key or chord (already normalised, see :mod:`browserops.browser.act.keys`) on the given element
    (focusing it first) or on whatever has the focus; report where the focus is afterwards."""
    page = session.page
    result: dict[str, Any] = {"key": key}
    async with NavWatch(session, page) as nav:
        if element is not None:
            located, desc = await resolve_described(session, element)
            result["target"] = public_desc(desc, located)
            try:
                await located.locator.press(key, timeout=timeout_ms)
            except PlaywrightError as exc:
                raise action_error(f"Pressing {key} on {label_of(element, desc)}", exc) from exc
        else:
            try:
                await _press_on_focus(page, key, timeout_ms)
            except PlaywrightError as exc:
                raise action_error(f"Pressing {key}", exc) from exc
    result.update(await nav.report(timeout_ms, grace_s=KEY_GRACE_S, activates=activating(key)))
    if not result.get("navigated"):
        focused = await focused_element(session)
        if focused:
            result["focused"] = focused
    return result
