"""Acting on one element (click, type, select) and pressing keys, with errors a person can act on.

Every function takes a target (a number of the latest listing or a blind id), resolves it through
:func:`browserops.browser.elements.resolve_element`, and returns what the page shows afterwards: the
element's new state, whether the page navigated, and where it is now. Typed text never reaches a log.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from types import TracebackType
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Locator, Page, Request
from playwright.async_api import TimeoutError as PlaywrightTimeout

from browserops.browser.elements import ResolvedElement, latest_listing, locate_blind_id, resolve_element
from browserops.browser.frames import frame_ids
from browserops.browser.navigation import page_info
from browserops.browser.scripts import element_script, page_script
from browserops.browser.session import BrowserSession
from browserops.errors import BrowserOpsError, ErrorCode

COVER_RETRY_S = 1.0
POPUP_WAIT_S = 1.5
NEW_TAB_WAIT_S = 1.5
KEY_GRACE_S = 0.2  # after a key press: time for the page to start a navigation (Enter submitting a form)
TYPE_KEYS_MAX = 300  # longer text is inserted in one go rather than key by key
_OFF_WORDS = {"off", "false", "no", "0", "uncheck", "unchecked", "unselect", "clear", "нет", "выкл", "否", "关"}


class _NavWatch:
    """Notices main-frame navigations (and new tabs) caused by an action.

    A click waits for the navigation it starts (Playwright does that); a key press does not, so keyboard
    actions give the page a short grace period to start one (a form submitted by Enter).
    """

    def __init__(self, session: BrowserSession, page: Page) -> None:
        self.session = session
        self.page = page
        self.navigated = False
        self.pending = False
        self.url_before = page.url
        self.tabs_before = len(session.pages)
        self.stopped = False
        self.expect_tab = False  # a target=_blank link: the new tab shows up just after the click
        self._event = asyncio.Event()
        self._tab_event = asyncio.Event()

    def _on_nav(self, frame: Frame) -> None:
        if frame is self.page.main_frame:
            self.navigated = True
            self._event.set()

    def _on_request(self, request: Request) -> None:
        if request.is_navigation_request() and request.frame is self.page.main_frame:
            self.pending = True

    def _on_page(self, page: Page) -> None:
        self._tab_event.set()

    async def __aenter__(self) -> _NavWatch:
        self.page.on("framenavigated", self._on_nav)
        self.page.on("request", self._on_request)
        self.session.context.on("page", self._on_page)
        return self

    async def __aexit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        if et is not None:
            self._stop()  # the action failed: nobody will ask for a report

    def _stop(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        self.page.remove_listener("framenavigated", self._on_nav)
        self.page.remove_listener("request", self._on_request)
        self.session.context.remove_listener("page", self._on_page)

    async def report(self, timeout_ms: int, *, grace_s: float = 0.0) -> dict[str, Any]:
        try:
            return await self._report(timeout_ms, grace_s)
        finally:
            self._stop()

    async def _report(self, timeout_ms: int, grace_s: float) -> dict[str, Any]:
        if grace_s and not self.navigated:
            await asyncio.sleep(grace_s)
        if self.pending and not self.navigated:
            # The response of a submitted form is on its way.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._event.wait(), timeout_ms / 1000)
        if self.expect_tab and len(self.session.pages) <= self.tabs_before:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._tab_event.wait(), NEW_TAB_WAIT_S)
            await asyncio.sleep(0)  # let the session register the page it was told about
        out: dict[str, Any] = {}
        if self.navigated and self.page.url != self.url_before and not self.pending:
            # pushState routing in a single-page app: same document, new URL, content probably swapped.
            out["url_changed"] = True
            out["url"] = self.page.url
            out["hint"] = "The app switched view: list the elements again before using numbers."
        elif self.navigated and self.page.url != self.url_before:
            try:
                await self.page.wait_for_load_state("domcontentloaded", timeout=timeout_ms)
            except PlaywrightError:
                out["loading"] = True  # still loading: browser_wait will tell when it is ready
            out["navigated"] = True
            out.update(await page_info(self.page))
            out["hint"] = "The page changed: call browser_list_interactives before using numbers."
        if len(self.session.pages) > self.tabs_before:
            out["new_tab"] = len(self.session.pages) - 1
            out["tab_hint"] = f"A new tab opened (index {out['new_tab']}); this tab stays active."
        return out


def _first_line(exc: BaseException) -> str:
    return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__


def action_error(what: str, exc: PlaywrightError) -> BrowserOpsError:
    """Turn a Playwright failure into a message that says what to do next."""
    text = str(exc)
    if "intercepts pointer events" in text:
        return BrowserOpsError(
            ErrorCode.ACTION_FAILED,
            f"{what}: another element lies on top of it (a banner, dialog or sticky bar). Close that first "
            "(browser_close_banners, or act on the dialog's own buttons), then retry.",
        )
    if "not enabled" in text or "disabled" in text:
        return BrowserOpsError(ErrorCode.ACTION_FAILED, f"{what}: the element is disabled. Fill the fields it "
                               "depends on first, or choose another element.")
    if "not editable" in text or "readonly" in text:
        return BrowserOpsError(ErrorCode.ACTION_FAILED, f"{what}: the field is read-only.")
    if "not visible" in text or "outside of the viewport" in text:
        return BrowserOpsError(ErrorCode.ACTION_FAILED, f"{what}: the element is not visible. Scroll to it or "
                               "open the section that holds it, then list again.")
    if "detached" in text or "not attached" in text:
        return BrowserOpsError(ErrorCode.STALE_INDEX, f"{what}: the element disappeared while acting. "
                               "Call browser_list_interactives again.")
    if isinstance(exc, PlaywrightTimeout):
        return BrowserOpsError(ErrorCode.ACTION_FAILED, f"{what}: the element did not become ready in time "
                               f"({_first_line(exc)}). Close banners, scroll, list again and retry.")
    return BrowserOpsError(ErrorCode.ACTION_FAILED, f"{what} failed: {_first_line(exc)}.")


EL_TIMEOUT_MS = 2000  # a located element answers at once; waiting longer only hides that it is gone


async def _el(locator: Locator, op: str, **args: Any) -> Any:
    return await locator.evaluate(element_script("element"), {"op": op, **args}, timeout=EL_TIMEOUT_MS)


def _label(target: int | str, desc: dict[str, Any] | None = None) -> str:
    where = f"Element {target}" if isinstance(target, int) else f"Element {target!r}"
    if desc and desc.get("name"):
        return f"{where} ({desc.get('role')} \"{desc['name']}\")"
    if desc:
        return f"{where} ({desc.get('role')})"
    return where


async def _resolve(session: BrowserSession, target: int | str) -> tuple[ResolvedElement, dict[str, Any]]:
    resolved = await resolve_element(session, target)
    try:
        desc = await _el(resolved.locator, "describe")
    except PlaywrightError as exc:
        raise action_error(_label(target), exc) from exc
    return resolved, desc


def _public(desc: dict[str, Any], resolved: ResolvedElement) -> dict[str, Any]:
    out = {k: v for k, v in desc.items() if k not in ("kind", "opens_tab")}
    out["id"] = resolved.blind_id
    if resolved.item is not None:
        out["n"] = resolved.item.number
    return out


async def _reachable(resolved: ResolvedElement, label: str, timeout_ms: int) -> None:
    """Scroll into view and fail fast (instead of timing out) when something covers the element."""
    loc = resolved.locator
    try:
        await loc.scroll_into_view_if_needed(timeout=timeout_ms)
    except PlaywrightError as exc:
        raise action_error(label, exc) from exc
    deadline = time.monotonic() + COVER_RETRY_S
    while True:
        try:
            cover = await _el(loc, "hit")
        except PlaywrightError as exc:
            raise action_error(label, exc) from exc
        if not cover:
            return
        if time.monotonic() >= deadline:
            raise BrowserOpsError(
                ErrorCode.ACTION_FAILED,
                f"{label} is covered by {cover}. Close or answer that first (browser_close_banners, or act on "
                "its own buttons), then list again and retry.",
                details={"covered_by": cover},
            )
        await asyncio.sleep(0.15)  # an animation may still be moving it away


async def _after(session: BrowserSession, resolved: ResolvedElement, nav: _NavWatch, timeout_ms: int,
                 result: dict[str, Any], *, grace_s: float = 0.0) -> dict[str, Any]:
    result.update(await nav.report(timeout_ms, grace_s=grace_s))
    if not result.get("navigated"):
        try:
            if not await resolved.locator.count():
                raise PlaywrightError("element is not attached")
            result["element"] = _public(await _el(resolved.locator, "describe"), resolved)
        except PlaywrightError:
            result["element_gone"] = True  # the click removed or replaced it (a closed dialog, a new view)
    return result


async def click(session: BrowserSession, target: int | str, *, timeout_ms: int) -> dict[str, Any]:
    resolved, desc = await _resolve(session, target)
    label = _label(target, desc)
    await _reachable(resolved, label, timeout_ms)
    page = session.page
    async with _NavWatch(session, page) as nav:
        nav.expect_tab = bool(desc.get("opens_tab"))
        try:
            await resolved.locator.click(timeout=timeout_ms)
        except PlaywrightError as exc:
            raise action_error(f"Clicking {label}", exc) from exc
    return await _after(session, resolved, nav, timeout_ms, {"action": "click", "target": _public(desc, resolved)})


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


async def _focus(resolved: ResolvedElement, label: str, timeout_ms: int) -> None:
    loc = resolved.locator
    try:
        await loc.focus(timeout=timeout_ms)
        if not await _el(loc, "focused"):
            await loc.click(timeout=timeout_ms)
        focused = await _el(loc, "focused")
    except PlaywrightError as exc:
        raise action_error(f"Focusing {label}", exc) from exc
    if not focused:
        raise BrowserOpsError(
            ErrorCode.ACTION_FAILED,
            f"{label} did not take the focus. Try browser_press(key='Tab') to reach it, then type again.",
        )


async def type_text(
    session: BrowserSession, target: int | str, text: str, *, submit: bool = False, timeout_ms: int
) -> dict[str, Any]:
    """Focus the field (checked), replace its content with ``text``, optionally press Enter; report what
    the field now holds (a password field reports only the length)."""
    resolved, desc = await _resolve(session, target)
    label = _label(target, desc)
    kind = desc.get("kind")
    if kind not in ("text", "combobox-input", "editable", "fill"):
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"Cannot type into {label}: {_NOT_TEXT.get(str(kind), '')}.")
    await _reachable(resolved, label, timeout_ms)
    page = session.page
    loc = resolved.locator
    await _focus(resolved, label, timeout_ms)
    result: dict[str, Any] = {"action": "type", "target": _public(desc, resolved)}
    async with _NavWatch(session, page) as nav:
        try:
            if kind == "fill":  # date/time/colour/range inputs take a formatted value, not keystrokes
                await loc.fill(text, timeout=timeout_ms)
            else:
                flags = await _el(loc, "clear")
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
            _report_value(result, str(await _el(loc, "value")), text, secret=desc.get("type") == "password")
            if submit:
                await page.keyboard.press("Enter")
        except PlaywrightError as exc:
            raise action_error(f"Typing into {label}", exc) from exc
    return await _after(session, resolved, nav, timeout_ms, result, grace_s=KEY_GRACE_S if submit else 0.0)


def _report_value(result: dict[str, Any], value: str, typed: str, *, secret: bool) -> None:
    result["length"] = len(value)
    if not secret:
        result["value"] = value if len(value) <= 200 else value[:199] + "…"
    result["matches"] = value == typed
    if value != typed:
        result["note"] = ("The field holds something other than the text typed (an input mask, a length limit or "
                          "a suggestion). Check it before going on.")


async def _pick_popup_option(session: BrowserSession, resolved: ResolvedElement, choice: str, label: str,
                             desc: dict[str, Any], timeout_ms: int) -> dict[str, Any]:
    """Open a custom combobox/listbox like a person (click, then type to filter) and click the option."""
    loc = resolved.locator
    ids = frame_ids(session, resolved.frame)

    seen_options: list[str] = []

    async def look() -> dict[str, Any]:
        result = await _el(loc, "popup", text=choice, prefix=ids.prefix, seq=ids.seq)
        if not isinstance(result, dict):
            return {"open": False}
        if result.get("seq"):
            ids.seq = max(ids.seq, int(result["seq"]))
        if result.get("options"):
            seen_options[:] = result["options"]  # typing to filter may hide them all: remember the full list
        return result

    found = await look()
    if not found.get("id") and desc.get("kind") != "listbox":
        try:
            if not found.get("open"):
                await loc.click(timeout=timeout_ms)
            deadline = time.monotonic() + POPUP_WAIT_S
            found = await look()
            while not found.get("open") and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
                found = await look()
            if not found.get("id") and desc.get("kind") == "combobox-input":
                # Many comboboxes only offer matching options once text is typed.
                await _focus(resolved, label, timeout_ms)
                await _el(loc, "clear")
                await session.page.keyboard.type(choice)
                deadline = time.monotonic() + POPUP_WAIT_S
                found = await look()
                while not found.get("id") and time.monotonic() < deadline:
                    await asyncio.sleep(0.1)
                    found = await look()
        except PlaywrightError as exc:
            raise action_error(f"Opening {label}", exc) from exc
    if not found.get("id"):
        options = found.get("options") or seen_options
        listed = f" Options: {', '.join(options)}." if options else " No options appeared when it was opened."
        raise BrowserOpsError(ErrorCode.ELEMENT_NOT_FOUND, f"No option matching {choice!r} in {label}.{listed}",
                              details={"options": options})
    located = await locate_blind_id(session.page, str(found["id"]))
    if located is None:
        raise BrowserOpsError(ErrorCode.ACTION_FAILED, f"The option {found.get('label')!r} vanished before it "
                              "could be clicked. Try again.")
    try:
        await located[1].click(timeout=timeout_ms)
    except PlaywrightError as exc:
        raise action_error(f"Choosing {found.get('label')!r} in {label}", exc) from exc
    return {"chosen": found.get("label")}


async def select(session: BrowserSession, target: int | str, choice: str, *, timeout_ms: int) -> dict[str, Any]:
    """Choose an option by its text (exact, value, prefix, then partial; case-insensitive) in a native
    ``<select>``, an ARIA combobox or listbox; set a checkbox/radio/switch on (or off with "off")."""
    resolved, desc = await _resolve(session, target)
    label = _label(target, desc)
    kind = desc.get("kind")
    loc = resolved.locator
    page = session.page
    result: dict[str, Any] = {"action": "select", "target": _public(desc, resolved)}
    async with _NavWatch(session, page) as nav:
        if kind == "native-select":
            try:
                picked = await _el(loc, "native", text=choice)
                if "index" not in picked:
                    options = picked.get("options") or []
                    raise BrowserOpsError(
                        ErrorCode.ELEMENT_NOT_FOUND,
                        f"No option matching {choice!r} in {label}. Options: {', '.join(options)}.",
                        details={"options": options},
                    )
                await loc.select_option(index=int(picked["index"]), timeout=timeout_ms)
            except PlaywrightError as exc:
                raise action_error(f"Selecting in {label}", exc) from exc
            result["chosen"] = picked["label"]
        elif kind in ("combobox", "combobox-input", "listbox"):
            await _reachable(resolved, label, timeout_ms)
            result.update(await _pick_popup_option(session, resolved, choice, label, desc, timeout_ms))
        elif kind == "option":
            await _reachable(resolved, label, timeout_ms)
            try:
                await loc.click(timeout=timeout_ms)
            except PlaywrightError as exc:
                raise action_error(f"Choosing {label}", exc) from exc
            result["chosen"] = desc.get("name")
        elif kind == "checkable":
            want = choice.strip().casefold() not in _OFF_WORDS
            await _reachable(resolved, label, timeout_ms)
            try:
                await loc.set_checked(want, timeout=timeout_ms)
            except PlaywrightError as exc:
                raise action_error(f"Setting {label}", exc) from exc
            result["checked"] = want
        else:
            raise BrowserOpsError(
                ErrorCode.INVALID_ARGS,
                f"Cannot select in {label}: it is not a drop-down, list box or checkbox. Use action='click', "
                "then list again to see the options it opens.",
            )
    after = await _after(session, resolved, nav, timeout_ms, result)
    state = (after.get("element") or {}).get("state") or {}
    if "value" in state:
        after["value"] = state["value"]
    return after


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
    async with _NavWatch(session, page) as nav:
        if target is not None:
            resolved, desc = await _resolve(session, target)
            result["target"] = _public(desc, resolved)
            try:
                await resolved.locator.press(key, timeout=timeout_ms)
            except PlaywrightError as exc:
                raise action_error(f"Pressing {key} on {_label(target, desc)}", exc) from exc
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
