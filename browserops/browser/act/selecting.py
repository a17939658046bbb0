"""Choosing an option: native ``<select>``, ARIA combobox or listbox (opened like a person would: click,
then type to filter), and checkboxes/radios/switches set on or off."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import Error as PlaywrightError

from browserops.browser.act.effects import NavWatch, action_error
from browserops.browser.act.element_ops import finish, focus_element, prepare, public_desc
from browserops.browser.act.popup_lists import (
    POPUP_WAIT_S,
    SUGGEST_WAIT_S,
    click_option,
    list_still,
    wait_for_match,
)
from browserops.browser.js import element as element_js
from browserops.browser.js.element import Desc, PopupOption
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.frames import frame_ids
from browserops.browser.numbering.locate import Located, element_call, other_element
from browserops.browser.page.waiting import track_network
from browserops.contract import BrowserOpsError, ElementRef, ErrorCode
from browserops.text import fold

OFF_WORDS = {"off", "false", "no", "0", "uncheck", "unchecked", "unselect", "clear", "нет", "выкл", "否", "关"}


async def pick_popup_option(session: BrowserSession, located: Located, choice: str, label: str,
                            desc: Desc, timeout_ms: int, *, force: bool = False) -> dict[str, Any]:
    """Open a custom combobox/listbox like a person (click, then type to filter) and click the option; in a
    suggesting text field (autocomplete), type the text and click the suggestion that appears. Options that come
    from the server only after typing (Select2 with ajax, Tom Select's load, react-select Async, MUI
    Autocomplete) are waited for, bounded; a text that is only part of several options' names is refused.
    ``force``: what lies on the control is its own drawing (a label's decoration, its widget's shown value over a
    transparent input): the click goes there, as a person's does."""
    loc = located.locator
    ids = frame_ids(session, located.frame)

    seen_options: list[str] = []

    async def look() -> PopupOption:
        result = await element_call(located, element_js.popup_option(choice, ids.prefix, ids.seq))
        if result.get("seq"):
            ids.seq = max(ids.seq, int(result["seq"]))
        if result.get("options"):
            seen_options[:] = result["options"]  # typing to filter may hide them all: remember the full list
        return result

    network = track_network(session)  # the page's requests from here on: is the list still being answered?
    began = time.monotonic()
    typed_text: str | None = None
    found = await look()
    if not found.get("id") and desc.get("kind") != "listbox":
        try:
            typing_only = desc.get("kind") == "text"  # a text field opens nothing on click: it suggests
            # An open list without the option may be the combobox's own display of what is selected
            # (Choices.js shows it as a listbox): a click opens the real one.
            clicked = False
            focus_before = found.get("focus")
            if not typing_only and (not found.get("open") or desc.get("kind") == "combobox"):
                await loc.click(timeout=timeout_ms, force=force)
                clicked = True
            deadline = time.monotonic() + POPUP_WAIT_S
            found = await look()
            # Until the list shows, or the click put the focus in a search box (Select2 over AJAX opens one and
            # shows nothing until typed into: waiting for a list there would only use up POPUP_WAIT_S).
            while (not found.get("open") and not typing_only and time.monotonic() < deadline
                   and not (clicked and found.get("typing") and found.get("focus") != focus_before)):
                await asyncio.sleep(0.05)
                found = await look()
            # A text field the focus is in after the click is a search box the widget opened (Select2); before
            # any click it is only the field filled last.
            search_box = clicked and bool((await element_call(located, element_js.popup_open())).get("typing"))
            if not found.get("id") and (desc.get("kind") in ("combobox-input", "text") or search_box):
                # Many comboboxes only offer matching options once text is typed: into the widget itself, or
                # into the search box it opened and focused (Select2).
                if not search_box:
                    await focus_element(located, label, timeout_ms)
                    await element_call(located, element_js.select_content())
                # A tag input keeping its tags as the text shown takes a typed tag as it would the suggestion of
                # that text: no waiting for the suggestions (a widget's debounce, then its server's answer).
                text_tags = not search_box and (await element_call(located, element_js.popup_open())).get("textTags")
                await session.page.keyboard.type(choice)
                typed_text = choice
                if text_tags:
                    tag = await _new_tag(session, located, choice)
                    if tag is not None:
                        return tag
                found = await wait_for_match(look, min(SUGGEST_WAIT_S, max(POPUP_WAIT_S, timeout_ms / 1000)), network)
        except PlaywrightError as exc:
            raise action_error(f"Opening {label}", exc) from exc
    if found.get("id") and not found.get("ambiguous"):
        found = await list_still(look, found, network, began, typed_text,
                                  min(SUGGEST_WAIT_S, max(POPUP_WAIT_S, timeout_ms / 1000)))
    return await _choose(session, located, found, choice, label, desc, seen_options, timeout_ms,
                         look=look)


async def _choose(session: BrowserSession, located: Located, found: PopupOption, choice: str, label: str,
                  desc: Desc, seen_options: list[str], timeout_ms: int, *,
                  look: Callable[[], Awaitable[PopupOption]] | None = None) -> dict[str, Any]:
    """Click the option :func:`pick_popup_option` found, or say why none can be: only part of several names, a new
    tag a tag input takes, nothing matching (with what was offered), or already chosen."""
    if found.get("ambiguous"):
        alike = found["ambiguous"]
        raise BrowserOpsError(ErrorCode.TARGET_AMBIGUOUS, f"{choice!r} is only part of several options in {label}: "
                              f"{', '.join(alike)}. Give the whole name of the one to choose.",
                              details={"options": alike})
    if not found.get("id") and desc.get("kind") in ("text", "combobox-input"):
        tag = await _new_tag(session, located, choice)
        if tag is not None:
            return tag
    if not found.get("id"):
        options = found.get("options") or seen_options
        listed = f" Options: {', '.join(options)}." if options else " No options appeared when it was opened."
        raise BrowserOpsError(ErrorCode.ELEMENT_NOT_FOUND, f"No option matching {choice!r} in {label}.{listed}",
                              details={"options": options})
    if found.get("selected"):
        return {"chosen": found.get("label"), "already": True}  # chosen before: a click would unselect it
    if not await click_option(located, found, label, timeout_ms):
        # The list redrew the option away between finding and clicking: found again once, by the same name in the
        # same list — never another option.
        again = await look() if look is not None else {}
        if not again.get("id") or fold(str(again.get("label") or "")) != fold(str(found.get("label") or "")):
            raise BrowserOpsError(ErrorCode.STALE_INDEX, f"The option {found.get('label')!r} of {label} vanished as "
                                  "its list redrew, and it is not in the list now. List again and retry.")
        if again.get("selected"):
            return {"chosen": again.get("label"), "already": True}
        if not await click_option(located, again, label, timeout_ms):
            raise BrowserOpsError(ErrorCode.STALE_INDEX, f"The option {found.get('label')!r} of {label} vanished "
                                  "twice as its list redrew. List again and retry.")
    return {"chosen": found.get("label")}


async def _new_tag(session: BrowserSession, located: Located, choice: str) -> dict[str, Any] | None:
    """A tag input (a text box standing for a hidden text input) takes a value no suggestion offers as a new tag:
    the text typed is ended with a comma, as a person ends a tag (a comma never sends the form, Enter could).
    None when the field is not a tag input or the tag did not appear in the field it fills."""
    state = await element_call(located, element_js.popup_open())
    if not state.get("tagField") or not await element_call(located, element_js.is_focused()):
        return None
    if fold(choice) not in fold(state.get("value") or ""):
        return None  # the text typed is no longer there: nothing to end as a tag
    try:
        await session.page.keyboard.type(",")
    except PlaywrightError as exc:
        raise action_error(f"Adding the tag {choice!r}", exc) from exc
    deadline = time.monotonic() + POPUP_WAIT_S
    while time.monotonic() < deadline:
        state = await element_call(located, element_js.popup_open())
        if fold(choice) in [fold(t.strip().strip('"')) for t in (state.get("nativeValue") or "").split(",")]:
            return {"chosen": choice, "new_tag": True}
        await asyncio.sleep(0.05)  # the widget writing the tag into its hidden field
    return None


async def close_popup(session: BrowserSession, located: Located, chosen: list[str], label: str,
                      desc: Desc) -> dict[str, Any]:
    """After the picks: a list the widget opened and left open (a multiple select keeps it open, as it should) is
    closed the way a person closes it — Escape, with the focus on the widget or in its list, so no dialog of the
    page gets it — then what the widget shows is checked to hold each choice."""
    state = await element_call(located, element_js.popup_open())
    closed = False
    if state.get("open") and state.get("focusHere"):
        try:
            await session.page.keyboard.press("Escape")
        except PlaywrightError as exc:
            raise action_error(f"Closing the list of {label}", exc) from exc
        deadline = time.monotonic() + POPUP_WAIT_S
        state = await element_call(located, element_js.popup_open())
        while state.get("open") and time.monotonic() < deadline:
            await asyncio.sleep(0.05)  # the widget's closing animation
            state = await element_call(located, element_js.popup_open())
        closed = True
    shows = fold(state.get("value") or "")
    # A widget that shows its choice as text (not an input, whose text is the search) must show each one now.
    if desc.get("kind") == "combobox" and shows and not all(fold(c) in shows for c in chosen if c):
        raise BrowserOpsError(ErrorCode.ACTION_FAILED, f"{label} shows {state.get('value', '')[:120]!r} after "
                              f"choosing {', '.join(repr(c) for c in chosen)}: the choice did not stick.")
    return {"closed_list": True} if closed else {}


REACHED_KINDS = ["combobox", "combobox-input", "listbox", "option", "checkable", "text"]
POPUP_KINDS = ("combobox", "combobox-input", "listbox")


async def select(session: BrowserSession, element: ElementRef, choice: str, *, timeout_ms: int) -> dict[str, Any]:
    """Choose an option by its text (exact, value, prefix, then partial; case-insensitive) in a native
    ``<select>``, an ARIA combobox or listbox; set a checkbox/radio/switch on (or off with "off")."""
    # One round trip finds it, scrolls it into view and hit-tests it (not a native <select>: Playwright's
    # select_option needs neither) and, for a native <select>, picks the matching option.
    ready = await prepare(session, element, reach=REACHED_KINDS, native=choice, timeout_ms=timeout_ms)
    located, desc, label, kind = ready.located, ready.desc, ready.label, ready.kind
    loc = located.locator
    page = session.page
    result: dict[str, Any] = {"action": "select", "target": public_desc(desc, located)}
    if ready.closed_popups:  # a field left (Tab) to close its popup over this one
        result["closed_popups"] = ready.closed_popups
    async with NavWatch(session, page) as nav:
        if kind == "native-select":
            picked = ready.native or {}
            if "index" not in picked or "label" not in picked:
                options = picked.get("options") or []
                raise BrowserOpsError(
                    ErrorCode.ELEMENT_NOT_FOUND,
                    f"No option matching {choice!r} in {label}. Options: {', '.join(options)}.",
                    details={"options": options},
                )
            try:
                await loc.select_option(index=picked["index"], timeout=timeout_ms)
            except PlaywrightError as exc:
                raise action_error(f"Selecting in {label}", exc) from exc
            result["chosen"] = picked["label"]
            if picked.get("value") and picked.get("value") != picked["label"]:
                result["chosen_value"] = picked["value"]  # what the form sends: masked like the label in traces
        elif kind in POPUP_KINDS or kind == "text":
            # A text field here is a suggesting one (autocomplete/typeahead): type the text, pick the suggestion.
            result.update(await pick_popup_option(session, located, choice, label, desc, timeout_ms,
                                                  force=ready.label_on_top))
            result.update(await close_popup(session, located, [str(result.get("chosen") or "")], label, desc))
        elif kind == "option":
            try:
                await loc.click(timeout=timeout_ms)
            except PlaywrightError as exc:
                raise action_error(f"Choosing {label}", exc) from exc
            result["chosen"] = desc.get("name")
        elif kind == "checkable":
            want = choice.strip().casefold() not in OFF_WORDS
            try:
                await loc.set_checked(want, timeout=timeout_ms, force=ready.label_on_top)
            except PlaywrightError as exc:
                raise action_error(f"Setting {label}", exc) from exc
            result["checked"] = want
        else:
            raise BrowserOpsError(
                ErrorCode.INVALID_ARGS,
                f"Cannot select in {label}: it is not a drop-down, list box or checkbox. Use action='click', "
                "then list again to see the options it opens.",
            )
    after = await finish(located, nav, timeout_ms, result)
    state = (after.get("element") or {}).get("state") or {}
    if "value" in state:
        after["value"] = state["value"]
    return after


async def select_many(session: BrowserSession, element: ElementRef, choices: list[str], *,
                      timeout_ms: int) -> dict[str, Any]:
    """Choose several options of a multi-select: a native ``<select multiple>`` gets exactly these options
    selected (the others cleared, as a person's Ctrl+clicks would leave it); a multi-select widget (a
    combobox or list box that keeps what was picked, e.g. Tom Select, Choices.js) gets each one picked in turn.
    ``selected`` in the result says what the native list holds afterwards; ``chosen`` what was picked."""
    ready = await prepare(session, element, reach=[*POPUP_KINDS, "text"], timeout_ms=timeout_ms)
    located, desc, label, kind = ready.located, ready.desc, ready.label, ready.kind
    result: dict[str, Any] = {"action": "select", "target": public_desc(desc, located)}
    if ready.closed_popups:  # a field left (Tab) to close its popup over this one
        result["closed_popups"] = ready.closed_popups
    async with NavWatch(session, session.page) as nav:
        if kind == "native-select":
            if not await element_call(located, element_js.is_multiple()):
                raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"{label} takes one option only: pass it as text.",
                                      details={"fields": ["options"]})
            indexes: list[int] = []
            moved = await _move_across(session, located, choices, label, timeout_ms)
            if moved:
                result["moved"] = moved
            for choice in choices:
                picked = await element_call(located, element_js.native_pick(choice))
                if "index" not in picked:
                    options = picked.get("options") or []
                    raise BrowserOpsError(ErrorCode.ELEMENT_NOT_FOUND, f"No option matching {choice!r} in {label}. "
                                          f"Options: {', '.join(options)}.", details={"options": options})
                indexes.append(picked["index"])
            try:
                await located.locator.select_option(index=indexes, timeout=timeout_ms)
            except PlaywrightError as exc:
                raise action_error(f"Selecting in {label}", exc) from exc
            result["selected"] = await element_call(located, element_js.selected_labels())
        elif kind in POPUP_KINDS or kind == "text":  # a text box here suggests, or takes tags
            chosen = []
            for choice in choices:
                popup = await pick_popup_option(session, located, choice, label, desc, timeout_ms,
                                                force=ready.label_on_top)
                chosen.append(popup["chosen"])
            result["chosen"] = chosen
            result.update(await close_popup(session, located, [str(c) for c in chosen], label, desc))
        else:
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"Cannot select several options in {label}: it is not a "
                                  "multi-select list or drop-down.", details={"fields": ["options"]})
    return await finish(located, nav, timeout_ms, result)


async def _move_across(session: BrowserSession, located: Located, choices: list[str], label: str,
                       timeout_ms: int) -> list[str]:
    """A two-list chooser (available -> chosen): each choice the list lacks is double-clicked across from the
    list beside it, as a person moves it (the page's own script moves it and keeps both lists right)."""
    ids = frame_ids(session, located.frame)
    moved: list[str] = []
    for choice in choices:
        if "index" in await element_call(located, element_js.native_pick(choice)):
            continue
        found = await element_call(located, element_js.chooser_option(choice, ids.prefix, ids.seq))
        if found.get("seq"):
            ids.seq = max(ids.seq, int(found["seq"]))
        if not found.get("id"):
            if found.get("options") is None:
                continue  # no list beside it: the plain "no option" error follows
            have = await element_call(located, element_js.option_labels())
            raise BrowserOpsError(ErrorCode.ELEMENT_NOT_FOUND, f"No option matching {choice!r} in {label} or in the "
                                  f"list beside it. Options: {', '.join([*have, *found['options']][:25])}.",
                                  details={"options": [*have, *found["options"]][:25]})
        option = await other_element(located, str(found["id"]))
        if option is None:
            raise BrowserOpsError(ErrorCode.ACTION_FAILED, f"The option {found.get('label')!r} vanished before it "
                                  "could be moved. Try again.")
        try:
            await option.dblclick(timeout=timeout_ms)
        except PlaywrightError as exc:
            raise action_error(f"Moving {found.get('label')!r} into {label}", exc) from exc
        moved.append(str(found.get("label")))
    return moved
