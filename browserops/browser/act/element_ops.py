"""Shared steps of element actions: find the target, describe it, make sure it can be reached, focus it, and
describe it again afterwards. Used by :mod:`browserops.browser.act.actions` and :mod:`browserops.browser.act.selecting`.

Round trips are what an action costs (each is a message to the browser and back), so the steps before an
action run as one page-side call, :func:`prepare`: find the element by its blind id in the frame it was listed
in, describe it, scroll it into view, hit-test it, focus it and select its content. A locator's ``evaluate``
would cost three messages per step (resolve, evaluate, dispose); ``frame.evaluate`` with the blind id costs
one. Playwright's own actions (click, fill, select_option, set_checked) still act through the locator.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame

from browserops.browser.act.effects import NavWatch, action_error
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.elements import (
    ResolvedElement,
    blind_locator,
    gone_error,
    identify_target,
    likely_frame,
)
from browserops.browser.scripts import run_located
from browserops.contract import BrowserOpsError, ErrorCode

COVER_RETRY_S = 1.0
Kinds = bool | list[str]


class _Gone(PlaywrightError):
    """The element is not in the frame any more (Playwright's own wording, so action_error says STALE)."""

    def __init__(self) -> None:
        super().__init__("element is not attached to the DOM")


async def _run_in(frame: Frame, blind_id: str, args: dict[str, Any], script: str = "element") -> tuple[bool, Any]:
    out = await run_located(frame, script, {**args, "id": blind_id})
    if not isinstance(out, dict) or not out.get("found"):
        return False, None
    return True, out.get("r")


async def element_op(resolved: ResolvedElement, op: str, **args: Any) -> Any:
    """One operation of ``js/element.js`` on an element already found; raises a Playwright error saying it
    is not attached when it has gone meanwhile."""
    found, result = await _run_in(resolved.frame, resolved.blind_id, {"op": op, **args})
    if not found:
        raise _Gone()
    return result


async def locate_op(session: BrowserSession, target: int | str, op: str,
                    **args: Any) -> tuple[ResolvedElement, Any]:
    """Find ``target`` and run ``op`` of ``js/element.js`` on it in the same call."""
    return await locate_run(session, target, "element", {"op": op, **args})


async def locate_run(session: BrowserSession, target: int | str, script: str,
                     args: dict[str, Any]) -> tuple[ResolvedElement, Any]:
    """Find ``target`` and run the element script ``js/<script>.js`` on it in the same call: in the frame it
    was listed in first, then the others (an element can move between frames only by being re-created, but
    an id given by hand may name any frame). Errors as :func:`browserops.browser.numbering.elements.resolve_element`
    gives them."""
    item, blind_id = identify_target(session, target)
    page = session.page
    first = likely_frame(session, item, blind_id)
    frames = ([first] if first is not None else []) + [f for f in page.frames if f is not first]
    failure: PlaywrightError | None = None
    for frame in frames:
        if frame.is_detached():
            continue
        try:
            found, result = await _run_in(frame, blind_id, args, script)
        except PlaywrightError as exc:  # a frame navigating away mid-search is just not a match
            failure = failure or exc
            continue
        if found:
            return ResolvedElement(item, blind_id, frame, blind_locator(frame, blind_id)), result
    if failure is not None and first is not None and not first.is_detached() and not _navigating(failure):
        raise action_error(label_of(target), failure)
    raise gone_error(target, item)


def _navigating(exc: PlaywrightError) -> bool:
    """A frame that navigated (or is navigating) mid-call: the element is simply not there any more."""
    text = str(exc).lower()
    return "context was destroyed" in text or "navigat" in text or "detached" in text


def label_of(target: int | str, desc: dict[str, Any] | None = None) -> str:
    where = f"Element {target}" if isinstance(target, int) else f"Element {target!r}"
    if desc and desc.get("name"):
        return f"{where} ({desc.get('role')} \"{desc['name']}\")"
    if desc:
        return f"{where} ({desc.get('role')})"
    return where


async def resolve_described(session: BrowserSession, target: int | str) -> tuple[ResolvedElement, dict[str, Any]]:
    resolved, desc = await locate_op(session, target, "describe")
    return resolved, dict(desc)


def public_desc(desc: dict[str, Any], resolved: ResolvedElement) -> dict[str, Any]:
    out = {k: v for k, v in desc.items() if k not in ("kind", "opens_tab")}
    out["id"] = resolved.blind_id
    if resolved.item is not None:
        out["n"] = resolved.item.number
    return out


@dataclass
class Prepared:
    """An element found and made ready by :func:`prepare`."""

    resolved: ResolvedElement
    desc: dict[str, Any]
    label: str
    native: dict[str, Any] | None = None  # the native <select> option matching the wanted text
    focused: bool | None = None  # None: focus was not asked for (or the kind does not take it)
    flags: dict[str, Any] = field(default_factory=dict)  # readonly/disabled once focused
    plain: bool = False  # a plain <input>/<textarea> without inline key handlers
    covered_by: str | None = None  # an ordinary page element lying on top (see ``under_cover`` of prepare)

    @property
    def kind(self) -> str:
        return str(self.desc.get("kind"))


def _applies(which: Kinds, kind: str) -> bool:
    return which is True or (isinstance(which, list) and kind in which)


async def prepare(session: BrowserSession, target: int | str, *, timeout_ms: int, kinds: list[str] | None = None,
                  reach: Kinds = False, focus: Kinds = False, clear: Kinds = False,
                  native: str | None = None, under_cover: Kinds = False) -> Prepared:
    """Find ``target`` and get it ready in (usually) one round trip; see ``prepareEl`` in ``js/element.js``.

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

    A hidden element, or one in a child frame, is scrolled by Playwright (which waits for it to show and
    scrolls the parent frames too), as every action did before this fast path.
    """
    args: dict[str, Any] = {"kinds": kinds, "reach": reach, "focus": focus, "clear": clear, "native": native}
    resolved, out = await locate_op(session, target, "prepare", **args, scroll=True)
    # A child frame's element needs its parent frames scrolled too: Playwright does that, page JS cannot.
    in_child = resolved.frame.parent_frame is not None
    desc = dict(out["desc"])
    label = label_of(target, desc)
    kind = str(desc.get("kind"))
    if kinds is not None and kind not in kinds:
        return Prepared(resolved, desc, label)
    if _applies(reach, kind) and (in_child or not out.get("visible", True)):
        try:
            await resolved.locator.scroll_into_view_if_needed(timeout=timeout_ms)
        except PlaywrightError as exc:
            raise action_error(label, exc) from exc
        out = await _again(resolved, label, {**args, "scroll": False})
    if _applies(reach, kind):
        deadline = time.monotonic() + COVER_RETRY_S
        while out.get("cover"):
            if time.monotonic() >= deadline:
                cover = out["cover"]
                if out.get("cover_layer") == "element" and _applies(under_cover, kind):
                    return Prepared(resolved, desc, label, covered_by=str(cover))
                raise BrowserOpsError(
                    ErrorCode.ACTION_FAILED,
                    f"{label} is covered by {cover}. Close or answer that first (browser_close_banners, or act on "
                    "its own buttons), then list again and retry.",
                    details={"covered_by": cover},
                )
            await asyncio.sleep(0.15)  # an animation may still be moving it away
            out = await _again(resolved, label, {**args, "scroll": False})
    ready = Prepared(resolved, desc, label, native=out.get("native"), focused=out.get("focused"),
                     flags=dict(out.get("flags") or {}), plain=bool(out.get("plain")))
    if _applies(focus, kind) and not ready.focused:
        await _focus_by_click(ready, timeout_ms, clear=_applies(clear, kind))
    return ready


async def _again(resolved: ResolvedElement, label: str, args: dict[str, Any]) -> dict[str, Any]:
    try:
        out = await element_op(resolved, "prepare", **args)
    except PlaywrightError as exc:
        raise action_error(label, exc) from exc
    return dict(out)


async def _focus_by_click(ready: Prepared, timeout_ms: int, *, clear: bool) -> None:
    """Focusing alone did not take (a field that takes the focus on click only): click it, check again."""
    resolved, label = ready.resolved, ready.label
    try:
        await resolved.locator.click(timeout=timeout_ms)
        focused = await element_op(resolved, "focused")
        if focused and clear:
            ready.flags = dict(await element_op(resolved, "clear"))
    except PlaywrightError as exc:
        raise action_error(f"Focusing {label}", exc) from exc
    if not focused:
        raise BrowserOpsError(
            ErrorCode.ACTION_FAILED,
            f"{label} did not take the focus. Try browser_press(key='Tab') to reach it, then type again.",
        )
    ready.focused = True
    ready.plain = False  # not a plain field after all: type it key by key, as a person would


async def finish(session: BrowserSession, resolved: ResolvedElement, nav: NavWatch, timeout_ms: int,
                 result: dict[str, Any], *, grace_s: float = 0.0,
                 desc: dict[str, Any] | None = None) -> dict[str, Any]:
    """Add what the action did to the page and how the element reads now (``desc``: already read by the
    caller in the same round trip as something else; the page cannot have changed it since)."""
    result.update(await nav.report(timeout_ms, grace_s=grace_s))
    if not result.get("navigated"):
        try:
            if desc is None:
                desc = dict(await element_op(resolved, "describe"))
            result["element"] = public_desc(desc, resolved)
        except PlaywrightError:
            result["element_gone"] = True  # the click removed or replaced it (a closed dialog, a new view)
    return result


async def focus_element(resolved: ResolvedElement, label: str, timeout_ms: int) -> None:
    loc = resolved.locator
    try:
        await loc.focus(timeout=timeout_ms)
        if not await element_op(resolved, "focused"):
            await loc.click(timeout=timeout_ms)
        focused = await element_op(resolved, "focused")
    except PlaywrightError as exc:
        raise action_error(f"Focusing {label}", exc) from exc
    if not focused:
        raise BrowserOpsError(
            ErrorCode.ACTION_FAILED,
            f"{label} did not take the focus. Try browser_press(key='Tab') to reach it, then type again.",
        )


async def activate(ready: Prepared) -> dict[str, Any]:
    """Activate a covered element as a screen reader does: focus it and run its default action on the element
    itself (``el.click()``), so the element on top does not get the click. Says so in the result."""
    try:
        out = await element_op(ready.resolved, "activate")
    except PlaywrightError as exc:
        raise action_error(f"Activating {ready.label}", exc) from exc
    return {"activated_under_cover": {"covered_by": ready.covered_by, "how": "focus + default action",
                                      "focused": bool((out or {}).get("focused"))}}
