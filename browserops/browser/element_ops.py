"""Shared steps of element actions: resolve and describe the target, make sure it can be reached, focus
it, and describe it again afterwards. Used by :mod:`browserops.browser.actions` and
:mod:`browserops.browser.selecting`."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator

from browserops.browser.effects import NavWatch, action_error
from browserops.browser.elements import ResolvedElement, resolve_element
from browserops.browser.scripts import element_script
from browserops.browser.session import BrowserSession
from browserops.errors import BrowserOpsError, ErrorCode

COVER_RETRY_S = 1.0
EL_TIMEOUT_MS = 2000  # a located element answers at once; waiting longer only hides that it is gone


async def element_op(locator: Locator, op: str, **args: Any) -> Any:
    return await locator.evaluate(element_script("element"), {"op": op, **args}, timeout=EL_TIMEOUT_MS)


def label_of(target: int | str, desc: dict[str, Any] | None = None) -> str:
    where = f"Element {target}" if isinstance(target, int) else f"Element {target!r}"
    if desc and desc.get("name"):
        return f"{where} ({desc.get('role')} \"{desc['name']}\")"
    if desc:
        return f"{where} ({desc.get('role')})"
    return where


async def resolve_described(session: BrowserSession, target: int | str) -> tuple[ResolvedElement, dict[str, Any]]:
    resolved = await resolve_element(session, target)
    try:
        desc = await element_op(resolved.locator, "describe")
    except PlaywrightError as exc:
        raise action_error(label_of(target), exc) from exc
    return resolved, desc


def public_desc(desc: dict[str, Any], resolved: ResolvedElement) -> dict[str, Any]:
    out = {k: v for k, v in desc.items() if k not in ("kind", "opens_tab")}
    out["id"] = resolved.blind_id
    if resolved.item is not None:
        out["n"] = resolved.item.number
    return out


async def ensure_reachable(resolved: ResolvedElement, label: str, timeout_ms: int) -> None:
    """Scroll into view and fail fast (instead of timing out) when something covers the element."""
    loc = resolved.locator
    try:
        await loc.scroll_into_view_if_needed(timeout=timeout_ms)
    except PlaywrightError as exc:
        raise action_error(label, exc) from exc
    deadline = time.monotonic() + COVER_RETRY_S
    while True:
        try:
            cover = await element_op(loc, "hit")
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


async def finish(session: BrowserSession, resolved: ResolvedElement, nav: NavWatch, timeout_ms: int,
                 result: dict[str, Any], *, grace_s: float = 0.0) -> dict[str, Any]:
    result.update(await nav.report(timeout_ms, grace_s=grace_s))
    if not result.get("navigated"):
        try:
            if not await resolved.locator.count():
                raise PlaywrightError("element is not attached")
            result["element"] = public_desc(await element_op(resolved.locator, "describe"), resolved)
        except PlaywrightError:
            result["element_gone"] = True  # the click removed or replaced it (a closed dialog, a new view)
    return result


async def focus_element(resolved: ResolvedElement, label: str, timeout_ms: int) -> None:
    loc = resolved.locator
    try:
        await loc.focus(timeout=timeout_ms)
        if not await element_op(loc, "focused"):
            await loc.click(timeout=timeout_ms)
        focused = await element_op(loc, "focused")
    except PlaywrightError as exc:
        raise action_error(f"Focusing {label}", exc) from exc
    if not focused:
        raise BrowserOpsError(
            ErrorCode.ACTION_FAILED,
            f"{label} did not take the focus. Try browser_press(key='Tab') to reach it, then type again.",
        )
