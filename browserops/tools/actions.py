"""Acting by number: browser_overlay_act, browser_act_by_index, browser_press, browser_scroll."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator

from browserops.browser.act import actions, scrolling, selecting
from browserops.browser.act.keys import normalise_key
from browserops.browser.numbering import listing, overlay
from browserops.browser.numbering.elements import BLIND_ID_PATTERN, latest_listing
from browserops.contract import BrowserOpsError, ErrorCode, SideEffect, ToolTraits
from browserops.tools.base import ToolArgs, ToolContext, ToolDef

Action = Literal["click", "type", "select"]
Target = int | str


def action_timeout(ctx: ToolContext) -> int:
    """Leave the tool's own timeout room to report a clear error instead of a generic one."""
    return max(1000, min(10_000, ctx.settings.tool_timeout_ms - 3000))


OPTIONS_DESCRIPTION = ("With select on a multi-select (a list box, <select multiple>, a tag picker): every option "
                       "to choose, by its text, instead of text. The result says which are selected.")


def _act(ctx: ToolContext, target: Target, action: str, text: str | None, submit: bool,
         options: list[str] | None = None) -> Awaitable[dict[str, Any]]:
    """The browser call for one action, not yet awaited: the handler awaits it itself, so this check adds no
    frame between a tool call and Playwright."""
    if options is not None:
        if action != "select" or text is not None or not options:
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, "options applies only to action='select', instead of "
                                  "text, and names at least one option.", details={"fields": ["options"]})
        return selecting.select_many(ctx.session, target, options, timeout_ms=action_timeout(ctx))
    if action in ("type", "select") and text is None:
        what = "the text to type" if action == "type" else "the option's text (or on/off for a checkbox)"
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"text is required when action='{action}': give {what}.",
                              details={"fields": ["text"]})
    if submit and action != "type":
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, "submit applies only to action='type'.",
                              details={"fields": ["submit"]})
    timeout = action_timeout(ctx)
    if action == "click":
        return actions.click(ctx.session, target, timeout_ms=timeout)
    if action == "type":
        return actions.type_text(ctx.session, target, text or "", submit=submit, timeout_ms=timeout)
    return selecting.select(ctx.session, target, text or "", timeout_ms=timeout)


def _signal(ctx: ToolContext, data: dict[str, Any]) -> None:
    ctx.signals["acted"] = True
    if data.get("navigated") or data.get("url_changed"):
        ctx.signals["navigated"] = True


class OverlayActArgs(ToolArgs):
    index: int = Field(ge=1, description="The element's number in the latest listing.")
    action: Action = Field("click", description="click, type (replaces the field's text) or select (an "
                           "option of a drop-down/list by its text; on/off for a checkbox).")
    text: str | None = Field(None, max_length=10_000, description="Text to type, or the option to select.")
    submit: bool = Field(False, description="With type: press Enter afterwards (search boxes, chat inputs).")
    options: list[Annotated[str, Field(max_length=1000)]] | None = Field(None, max_length=100,
                                                                        description=OPTIONS_DESCRIPTION)
    limit: int | None = Field(None, ge=1, le=listing.MAX_LIMIT, description="The limit of the listing the "
                              "number comes from; if it differs from the latest listing's, the page is re-listed "
                              "with it first.")
    offset: int | None = Field(None, ge=0, description="The offset of the listing the number comes from (see "
                               "limit).")


async def _overlay_act(ctx: ToolContext, args: OverlayActArgs) -> dict[str, Any]:
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
    data = await _act(ctx, args.index, args.action, args.text, args.submit, args.options)
    _signal(ctx, data)
    if relisted:
        data["relisted"] = relisted
    return data


class ActByIdArgs(ToolArgs):
    id: str = Field(description="The element's stable id (data-blind-id) from a listing, e.g. 'b12' or 'f1b3'.")
    action: Action = Field("click", description="click, type or select, as in browser_overlay_act.")
    text: str | None = Field(None, max_length=10_000, description="Text to type, or the option to select.")
    submit: bool = Field(False, description="With type: press Enter afterwards.")
    options: list[Annotated[str, Field(max_length=1000)]] | None = Field(None, max_length=100,
                                                                        description=OPTIONS_DESCRIPTION)

    @field_validator("id")
    @classmethod
    def _blind_id(cls, value: str) -> str:
        if not BLIND_ID_PATTERN.match(value):
            raise ValueError("not an element id; use an id from browser_list_interactives, e.g. 'b12'")
        return value


async def _act_by_id(ctx: ToolContext, args: ActByIdArgs) -> dict[str, Any]:
    data = await _act(ctx, args.id, args.action, args.text, args.submit, args.options)
    _signal(ctx, data)
    return data


class PressArgs(ToolArgs):
    key: str = Field(max_length=64, description="A key or chord: Enter, Tab, Escape, ArrowDown, Space, k, "
                     "Control+a, Shift+Tab…")
    id: Target | None = Field(None, description="Element to focus first (number or id); omit to press on "
                              "whatever has the focus.")

    @field_validator("key")
    @classmethod
    def _key(cls, value: str) -> str:
        return normalise_key(value)


async def _press(ctx: ToolContext, args: PressArgs) -> dict[str, Any]:
    data = await actions.press(ctx.session, args.key, args.id, timeout_ms=action_timeout(ctx))
    _signal(ctx, data)
    return data


class ScrollArgs(ToolArgs):
    to: Literal["top", "bottom", "left", "right"] | None = Field(None, description="Scroll all the way.")
    by_x: int | None = Field(None, ge=-100_000, le=100_000, description="Pixels right (negative: left).")
    by_y: int | None = Field(None, ge=-100_000, le=100_000, description="Pixels down (negative: up).")
    element_id: Target | None = Field(None, description="Number or id of a scrollable container, or of an "
                                      "element inside one or inside an iframe (that container/frame scrolls); "
                                      "alone, it scrolls that element into view.")
    behavior: Literal["auto", "smooth", "instant"] = Field("auto", description="smooth animates (and waits).")


async def _scroll(ctx: ToolContext, args: ScrollArgs) -> dict[str, Any]:
    return await scrolling.scroll(ctx.session, to=args.to, by_x=args.by_x, by_y=args.by_y, target=args.element_id,
                                  behavior=args.behavior)


TOOLS: list[ToolDef[Any]] = [
    ToolDef(
        name="browser_overlay_act",
        args=OverlayActArgs,
        description=(
            "Act on an element by its number from the latest browser_list_interactives (or browser_find): "
            "click it, type into it (it is focused first; the text replaces what is there; the result says what "
            "the field now holds; a date/time field takes dates as people write them, 11/21/2016 or 1:23 PM, "
            "and refuses ambiguous ones), or select an option by its text in a drop-down, ARIA combobox, list box or "
            "autocomplete field (typed, then the suggestion picked); several at once with options. "
            "Pass the listing's limit/offset if you paged. A number from an older listing is refused with "
            "BROWSER_STALE_INDEX: list again and use the new number. Elements under a banner or dialog are refused "
            "too: close it first. One under another page element is activated as a screen reader does (focus + "
            "default action; the result says activated_under_cover)."
        ),
        side_effect=SideEffect.BROWSER_ACT,
        handler=_overlay_act,
        traits=ToolTraits(target_arg="index", banners="action", navigates_on_action=True, activation="by_action",
                          plan_verb="act"),
    ),
    ToolDef(
        name="browser_act_by_index",
        args=ActByIdArgs,
        description=(
            "Last resort: like browser_overlay_act, but addresses the element by its stable id "
            "(data-blind-id, e.g. 'b12') instead of its number. Use numbers whenever you can."
        ),
        side_effect=SideEffect.BROWSER_ACT,
        handler=_act_by_id,
        traits=ToolTraits(target_arg="id", banners="action", navigates_on_action=True, activation="by_action",
                          plan_verb="act"),
    ),
    ToolDef(
        name="browser_press",
        args=PressArgs,
        description=(
            "Press a key or chord (Enter, Tab, Escape, ArrowDown, Space, k, Control+a, Shift+Tab…) on the "
            "focused element, or on the element given by number or id (focused first). Use it to confirm, move "
            "through menus and lists, control media, or reach a field by Tab. Reports where the focus is after."
        ),
        side_effect=SideEffect.BROWSER_ACT,
        handler=_press,
        traits=ToolTraits(target_arg="id", acts_on_focus=True, navigates_on_action=True, activation="by_key"),
    ),
    ToolDef(
        name="browser_scroll",
        args=ScrollArgs,
        description=(
            "Scroll the page (by default one screen down), a scrollable container or the page inside an "
            "iframe (give element_id of the container or of an element in it), by pixels or all the way "
            "(to=top/bottom/left/right); element_id alone scrolls that element into view. Reports the position "
            "and how many pixels remain above and below."
        ),
        side_effect=SideEffect.READ_ONLY,
        handler=_scroll,
        traits=ToolTraits(changes_viewport=True, activation="never"),
    ),
]
