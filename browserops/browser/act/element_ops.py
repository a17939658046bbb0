"""Shared steps of element actions: find the target, describe it, make sure it can be reached, focus it, and
describe it again afterwards. Used by :mod:`browserops.browser.act.actions`, :mod:`~browserops.browser.act.selecting`
and :mod:`~browserops.browser.act.downloads`.

Round trips are what an action costs (each is a message to the browser and back), so the steps before an
action run as one page-side call, :func:`prepare`: find the element by its blind id in the frame it was listed
in (:func:`browserops.browser.numbering.locate.locate`), describe it, scroll it into view, hit-test it, focus
it and select its content. Playwright's own actions (click, fill, select_option, set_checked) still act
through the locator.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator

from browserops.browser.act.effects import NavWatch, action_error
from browserops.browser.act.moving_on import move_on_from_popup
from browserops.browser.js import element as element_js
from browserops.browser.js.element import Desc, Flags, Kinds, NativePick, PrepareResult
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.locate import ElementGone, Located, element_call, locate
from browserops.browser.scripts import ElementCall
from browserops.contract import BrowserOpsError, ElementRef, ErrorCode

COVER_RETRY_S = 1.0
COVER_STILL_S = 0.3  # a cover that has not moved (nor anything animated) for this long is not going away


def label_of(element: ElementRef, desc: Desc | None = None) -> str:
    where = f"Element {element}" if isinstance(element, int) else f"Element {element!r}"
    if desc and desc.get("name"):
        return f"{where} ({desc.get('role')} \"{desc['name']}\")"
    if desc:
        return f"{where} ({desc.get('role')})"
    return where


async def resolve_described(session: BrowserSession, element: ElementRef) -> tuple[Located, Desc]:
    try:
        return await locate(session, element, element_js.describe())
    except PlaywrightError as exc:
        raise action_error(label_of(element), exc) from exc


def public_desc(desc: Desc, located: Located) -> dict[str, Any]:
    out: dict[str, Any] = {k: v for k, v in desc.items() if k not in ("kind", "opens_tab")}
    out["id"] = located.blind_id
    if located.item is not None:
        out["n"] = located.item.number
    return out


@dataclass
class Ready:
    """An element found and made ready by :func:`prepare`."""

    located: Located
    desc: Desc
    label: str
    native: NativePick | None = None  # the native <select> option matching the wanted text
    focused: bool | None = None  # None: focus was not asked for (or the kind does not take it)
    flags: Flags | dict[str, bool] = field(default_factory=dict)  # readonly/disabled once focused
    plain: bool = False  # a plain <input>/<textarea> without inline key handlers
    covered_by: str | None = None  # an ordinary page element lying on top (see ``under_cover`` of prepare)
    closed_popups: list[dict[str, Any]] = field(default_factory=list)  # fields left (Tab) to close their popup on it
    label_on_top: bool = False  # its own label's decoration lies on top: clicking there is clicking it
    # Where a press landed on it before the pointer came (main frame, viewport pixels; see click_ready).
    lands: tuple[float, float] | None = None

    @property
    def kind(self) -> str:
        return self.desc["kind"]


def _applies(which: Kinds, kind: str) -> bool:
    return which is True or (isinstance(which, list) and kind in which)


async def prepare(session: BrowserSession, element: ElementRef, *, timeout_ms: int, kinds: list[str] | None = None,
                  reach: Kinds = False, focus: Kinds = False, clear: Kinds = False,
                  native: str | None = None, under_cover: Kinds = False) -> Ready:
    """Find ``target`` and get it ready in (usually) one round trip; see ``prepare`` in ``js/element.js``.

    - ``kinds``: go on only for these control kinds (otherwise only the description comes back, nothing on
      the page is touched, and the caller explains what to do instead);
    - ``reach``: scroll into view, and fail fast (instead of timing out) when something covers it, after
      giving an animation :data:`COVER_RETRY_S` to move it away;
    - ``focus``: focus it (clicking it when focusing alone does not take), failing when it will not;
    - ``clear``: select its content so the text typed next replaces it;
    - ``native``: pick the native ``<select>`` option matching this text;
    - ``under_cover``: when what covers it is an ordinary page element (not a dialog, its backdrop or a fixed
      banner, see ``coverLayer`` in ``js/element.js``), return it with ``covered_by`` set instead of failing,
      so the caller activates it as a screen reader does (:func:`activate`). A dialog or banner on top is
      always refused: the person has to deal with it first.

    Whatever ``under_cover`` says, a cover that is the open popup of the field holding the focus (a date panel left
    open after typing) is closed first by leaving that field as a person does (:mod:`.moving_on`: Tab, its value
    read back); ``closed_popups`` of the result says so.

    A hidden element, or one in a child frame, is scrolled by Playwright (which waits for it to show and
    scrolls the parent frames too), as every action did before this fast path.
    """
    call = element_js.prepare(kinds=kinds, reach=reach, focus=focus, clear=clear, native=native, scroll=True)
    try:
        located, out = await locate(session, element, call)
    except PlaywrightError as exc:
        raise action_error(label_of(element), exc) from exc
    again = element_js.prepare(kinds=kinds, reach=reach, focus=focus, clear=clear, native=native, scroll=False)
    desc = out["desc"]
    label = label_of(element, desc)
    kind = desc["kind"]
    if kinds is not None and kind not in kinds:
        return Ready(located, desc, label)
    # A child frame's element needs its parent frames scrolled too: Playwright does that, page JS cannot.
    if _applies(reach, kind) and (located.frame.parent_frame is not None or not out.get("visible", True)):
        try:
            await located.locator.scroll_into_view_if_needed(timeout=timeout_ms)
        except PlaywrightError as exc:
            raise action_error(label, exc) from exc
        out = await _again(located, label, again)
    closed: list[dict[str, Any]] = []
    if _applies(reach, kind):
        out, covered_by = await _wait_out_cover(session, located, label, again, out, timeout_ms, closed,
                                                activate_under=_applies(under_cover, kind))
        if covered_by is not None:
            return Ready(located, desc, label, covered_by=covered_by, closed_popups=closed)
    if _applies(reach, kind) and out.get("drawn_by_widget") and _applies(under_cover, kind):
        return Ready(located, desc, label, covered_by="its own widget's drawing", closed_popups=closed)
    ready = Ready(located, desc, label, native=out.get("native"), focused=out.get("focused"),
                  flags=out.get("flags") or {}, plain=bool(out.get("plain")),
                  label_on_top=bool(out.get("label_on_top")), lands=_landing(located, out), closed_popups=closed)
    if _applies(focus, kind) and not ready.focused:
        await _focus_by_click(ready, timeout_ms, clear=_applies(clear, kind))
    return ready


async def _wait_out_cover(session: BrowserSession, located: Located, label: str, again: ElementCall[PrepareResult],
                          out: PrepareResult, timeout_ms: int, closed: list[dict[str, Any]], *,
                          activate_under: bool) -> tuple[PrepareResult, str | None]:
    """Until nothing covers the element: what ``prepare`` found last, and what covers it when it is to be activated
    under that cover (None: nothing covers it). A popup the focused field left open is closed by leaving the field
    (each leaving said in ``closed``); an animation is given :data:`COVER_RETRY_S`; anything else is refused."""
    began = time.monotonic()
    deadline = began + COVER_RETRY_S
    still = None
    asked: set[str] = set()
    while cover := out.get("cover"):
        # A field's own popup is not going away by waiting: the field is left first (at most twice: the next field
        # may open one of its own as the focus reaches it).
        if cover not in asked and len(closed) < 2:
            asked.add(str(cover))
            moved = await move_on_from_popup(session, located, label, timeout_ms)
            if moved is not None:
                closed.append(moved)
                out = await _again(located, label, again)
                began, deadline, still = time.monotonic(), time.monotonic() + COVER_RETRY_S, None
                continue
        # An ordinary element on top that has stopped where it is (a badge, a calendar no field holds open) will
        # not move away by waiting: it is activated under it after COVER_STILL_S, not COVER_RETRY_S.
        now_still = out.get("cover_still")
        if (out.get("cover_layer") == "element" and activate_under and now_still is not None
                and now_still == still and time.monotonic() - began >= COVER_STILL_S):
            deadline = 0.0
        still = now_still
        if time.monotonic() >= deadline:
            if out.get("cover_layer") == "element" and activate_under:
                return out, str(cover)
            raise BrowserOpsError(
                ErrorCode.ACTION_FAILED,
                f"{label} is covered by {cover}. Close or answer that first (browser_close_banners, or act on "
                "its own buttons), then list again and retry.",
                details={"covered_by": cover},
            )
        await asyncio.sleep(0.15)  # an animation may still be moving it away
        out = await _again(located, label, again)
    return out, None


def _landing(located: Located, out: PrepareResult) -> tuple[float, float] | None:
    """The point a press landed on the element, in the page's viewport: only for the main frame's elements (a child
    frame's points are its own)."""
    at = out.get("lands")
    if not at or located.frame.parent_frame is not None:
        return None
    return float(at[0]), float(at[1])


async def click_ready(ready: Ready, timeout_ms: int) -> None:
    """Click an element :func:`prepare` found and reached (scrolled into view, not covered). Under its own
    label's decoration the click goes to that decoration, as a person's does (Playwright would refuse it as
    intercepted). The pointer comes to rest on an element a press landed on before it came, then the click: what
    the hover redraws is in place when Playwright checks what its press would hit, and it waits while something
    else would be hit. An icon that swaps its picture on hover (``content: url(…-hover.png)``) has no box until the
    new picture loads: a click moving there and pressing at once gave the press to the post around it."""
    try:
        if ready.lands is not None:
            await ready.located.frame.page.mouse.move(*ready.lands)
        await ready.located.locator.click(timeout=timeout_ms, force=ready.label_on_top)
    except PlaywrightError as exc:
        raise action_error(f"Clicking {ready.label}", exc) from exc


async def _again(located: Located, label: str, call: ElementCall[PrepareResult]) -> PrepareResult:
    try:
        out: PrepareResult = await element_call(located, call)
    except PlaywrightError as exc:
        raise action_error(label, exc) from exc
    return out


async def _focus_by_click(ready: Ready, timeout_ms: int, *, clear: bool) -> None:
    """Focusing alone did not take (a field that takes the focus on click only): click it, check again."""
    located, label = ready.located, ready.label
    try:
        await located.locator.click(timeout=timeout_ms)
        focused = await element_call(located, element_js.is_focused())
        if focused and clear:
            flags = await element_call(located, element_js.select_content())
            ready.flags = flags
    except PlaywrightError as exc:
        raise action_error(f"Focusing {label}", exc) from exc
    if not focused:
        raise BrowserOpsError(
            ErrorCode.ACTION_FAILED,
            f"{label} did not take the focus. Try browser_press(key='Tab') to reach it, then type again.",
        )
    ready.focused = True
    ready.plain = False  # not a plain field after all: type it key by key, as a person would


async def finish(located: Located, nav: NavWatch, timeout_ms: int, result: dict[str, Any], *,
                 grace_s: float = 0.0, activates: bool = False, desc: Desc | None = None) -> dict[str, Any]:
    """Add what the action did to the page and how the element reads now (``desc``: already read by the
    caller in the same round trip as something else; the page cannot have changed it since; ``grace_s`` and
    ``activates``: see :meth:`NavWatch.report`)."""
    result.update(await nav.report(timeout_ms, grace_s=grace_s, activates=activates))
    if not result.get("navigated"):
        try:
            now = desc if desc is not None else await element_call(located, element_js.describe())
            result["element"] = public_desc(now, located)
        except (ElementGone, PlaywrightError):
            result["element_gone"] = True  # the click removed or replaced it (a closed dialog, a new view)
    return result


async def focus_element(located: Located, label: str, timeout_ms: int) -> None:
    loc = located.locator
    try:
        await (loc.focus(timeout=timeout_ms) if isinstance(loc, Locator) else loc.focus())
        if not await element_call(located, element_js.is_focused()):
            await loc.click(timeout=timeout_ms)
        focused = await element_call(located, element_js.is_focused())
    except PlaywrightError as exc:
        raise action_error(f"Focusing {label}", exc) from exc
    if not focused:
        raise BrowserOpsError(
            ErrorCode.ACTION_FAILED,
            f"{label} did not take the focus. Try browser_press(key='Tab') to reach it, then type again.",
        )


async def activate(ready: Ready) -> dict[str, Any]:
    """Activate a covered element as a screen reader does: focus it and run its default action on the element
    itself (``el.click()``), so the element on top does not get the click. Says so in the result."""
    try:
        out = await element_call(ready.located, element_js.activate())
    except PlaywrightError as exc:
        raise action_error(f"Activating {ready.label}", exc) from exc
    return {"activated_under_cover": {"covered_by": ready.covered_by, "how": "focus + default action",
                                      "focused": bool(out.get("focused"))}}
