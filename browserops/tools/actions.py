"""Acting by number: the handlers of browser_overlay_act, browser_act_by_index, browser_press, browser_scroll.

Each action word (``tools/definitions/acting.py`` ACTION_WORDS) names its browser call (``call``, and
``options_call`` when it takes several options at once): the ``*_word`` functions here. What the word accepts is
checked against its traits here, once, for both acting tools.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Any

from browserops.browser.act import actions, scrolling, selecting
from browserops.browser.act.keys import normalise_key
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering import listing, overlay
from browserops.browser.numbering.elements import latest_listing
from browserops.contract import BrowserOpsError, ElementRef, ErrorCode
from browserops.tools.context import ToolContext
from browserops.tools.definitions import acting as defs
from browserops.tools.references import resolve


# The browser call of each action word, as its ActionWord names it (``call``, ``options_call``): plain functions that
# return the call not yet awaited, so the handler awaits it itself and they add no frame between a tool call and
# Playwright.
def click_word(session: BrowserSession, element: ElementRef, text: str, submit: bool,
               timeout_ms: int) -> Awaitable[dict[str, Any]]:
    return actions.click(session, element, timeout_ms=timeout_ms)


def type_word(session: BrowserSession, element: ElementRef, text: str, submit: bool,
              timeout_ms: int) -> Awaitable[dict[str, Any]]:
    return actions.type_text(session, element, text, submit=submit, timeout_ms=timeout_ms)


def select_word(session: BrowserSession, element: ElementRef, text: str, submit: bool,
                timeout_ms: int) -> Awaitable[dict[str, Any]]:
    return selecting.select(session, element, text, timeout_ms=timeout_ms)


def select_many_word(session: BrowserSession, element: ElementRef, options: list[str],
                     timeout_ms: int) -> Awaitable[dict[str, Any]]:
    return selecting.select_many(session, element, options, timeout_ms=timeout_ms)


def press_word(session: BrowserSession, element: ElementRef, key: str, submit: bool,
               timeout_ms: int) -> Awaitable[dict[str, Any]]:
    try:
        normalised = normalise_key(key)
    except ValueError as exc:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"text: {exc}", details={"fields": ["text"]}) from None
    return actions.press(session, normalised, element, timeout_ms=timeout_ms)


def action_timeout(ctx: ToolContext) -> int:
    """Leave the tool's own timeout room to report a clear error instead of a generic one."""
    return max(1000, min(10_000, ctx.settings.tool_timeout_ms - 3000))


def _only(flag: str) -> str:
    words = [f"action='{w.word}'" for w in defs.ACTION_WORDS.values() if getattr(w, flag)]
    return " or ".join(words) or "no action"


def _act(ctx: ToolContext, element: ElementRef, action: str, text: str | None, submit: bool,
         options: list[str] | None = None) -> Awaitable[dict[str, Any]]:
    """The browser call for one action (the one its word names), not yet awaited: the handler awaits it itself,
    so this check adds no frame between a tool call and Playwright."""
    word = defs.ACTION_WORDS[action]  # the args model let only known words through
    if options is not None:
        if not word.options or text is not None or not options:
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"options applies only to {_only('options')}, instead of "
                                  "text, and names at least one option.", details={"fields": ["options"]})
        assert word.options_call is not None
        return resolve(word.options_call)(ctx.session, element, options, action_timeout(ctx))  # type: ignore[no-any-return]
    if word.text == "required" and text is None:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"text is required when action='{action}': give "
                              f"{word.text_hint}.", details={"fields": ["text"]})
    if submit and not word.submit:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"submit applies only to {_only('submit')}.",
                              details={"fields": ["submit"]})
    return resolve(word.call)(ctx.session, element, text or "", submit, action_timeout(ctx))  # type: ignore[no-any-return]


def _signal(ctx: ToolContext, data: dict[str, Any]) -> None:
    ctx.signals.acted = True
    if data.get("navigated") or data.get("url_changed"):
        ctx.signals.navigated = True


async def overlay_act(ctx: ToolContext, args: defs.OverlayActArgs) -> dict[str, Any]:
    session = ctx.session
    relisted: dict[str, Any] | None = None
    if args.limit is not None or args.offset is not None:
        current = latest_listing(session)
        same_page = current is not None and current.page is session.page
        limit = args.limit or (current.limit if current and same_page else ctx.settings.list_limit)
        offset = args.offset if args.offset is not None else (current.offset if current and same_page else 0)
        if current is None or not same_page or current.kind != "list" or (current.limit, current.offset) != (
            limit, offset
        ):
            scope = current.scope if current is not None and same_page and current.kind == "list" else None
            await listing.list_interactives(session, limit=limit, offset=offset, scope=scope)
            await overlay.refresh_overlay(session)
            relisted = {"limit": limit, "offset": offset}
    data = await _act(ctx, args.element, args.action, args.text, args.submit, args.options)
    _signal(ctx, data)
    if relisted:
        data["relisted"] = relisted
    return data


async def act_by_index(ctx: ToolContext, args: defs.ActByIdArgs) -> dict[str, Any]:
    data = await _act(ctx, args.element, args.action, args.text, args.submit, args.options)
    _signal(ctx, data)
    return data


async def press(ctx: ToolContext, args: defs.PressArgs) -> dict[str, Any]:
    data = await actions.press(ctx.session, args.key, args.element, timeout_ms=action_timeout(ctx))
    _signal(ctx, data)
    return data


async def scroll(ctx: ToolContext, args: defs.ScrollArgs) -> dict[str, Any]:
    return await scrolling.scroll(ctx.session, to=args.to, by_x=args.by_x, by_y=args.by_y, element=args.element,
                                  behavior=args.behavior)
