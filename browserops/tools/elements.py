"""Numbering and orientation: browser_list_interactives, browser_overlay_show/hide, browser_find,
browser_focus_next/prev. All read-only: they stamp ids and draw badges, but change nothing a site sees
as user input (focus moves are the exception a screen reader makes too)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from browserops.browser.act import focusnav
from browserops.browser.numbering import listing, overlay
from browserops.browser.numbering.elements import latest_listing
from browserops.contract import SideEffect, ToolTraits
from browserops.listing_rows import format_row
from browserops.tools.base import ToolArgs, ToolContext, ToolDef

Scheme = Literal["dark", "blue", "light"]
Form = Literal["rows", "objects"]
_FORM = ("'rows' (default): each item one line, e.g. '15 button Edit | in=Printer toner'; 'objects': each item a "
         "JSON object with the same facts (and in_role).")


class ListArgs(ToolArgs):
    scope: str | int | None = Field(
        None,
        description="Optional restriction: 'viewport'; a container by role or name ('dialog', 'main', 'Contact "
        "details'); an element id or number of a container; or a frame label such as 'f1'.",
    )
    limit: int | None = Field(None, ge=1, le=listing.MAX_LIMIT, description="Items per listing (default 40).")
    offset: int = Field(0, ge=0, description="Skip this many items of the full order (paging).")
    boxes: bool = Field(False, description="Also give each item's box [x, y, width, height] in viewport CSS "
                        "pixels, and the viewport's [width, height] (for drawing on a screenshot).")
    ids: bool = Field(False, description="Also give each item's stable id (data-blind-id): it stays valid across "
                      "listings while the element exists, where numbers belong to one listing.")
    format: Form = Field("rows", description=_FORM)
    containers: bool = Field(False, description="Name every item's container (in, in_role), not only those whose "
                             "role and name repeat.")


async def _list(ctx: ToolContext, args: ListArgs) -> dict[str, Any]:
    result = await listing.list_interactives(
        ctx.session, limit=args.limit or ctx.settings.list_limit, offset=args.offset, scope=args.scope,
        containers=args.containers,
    )
    data = listing.listing_data(result, boxes=args.boxes, ids=args.ids, rows=args.format == "rows")
    redrawn = await overlay.refresh_overlay(ctx.session)
    if redrawn is not None:
        data["overlay"] = "redrawn"
    return data


class OverlayShowArgs(ToolArgs):
    scheme: Scheme = Field("dark", description="Badge colours: dark (yellow on black), blue (white on dark "
                           "blue) or light (black on white); all at least 7:1 contrast.")


async def _overlay_show(ctx: ToolContext, args: OverlayShowArgs) -> dict[str, Any]:
    current = latest_listing(ctx.session)
    data: dict[str, Any] = {}
    if current is None or current.page is not ctx.session.page:
        current = await listing.list_interactives(ctx.session, limit=ctx.settings.list_limit)
        data["listed"] = listing.listing_data(current)
    data.update(await overlay.show_overlay(ctx.session, current, args.scheme))
    data["numbers"] = f"{current.items[0].number}-{current.items[-1].number}" if current.items else "none"
    return data


class NoArgs(ToolArgs):
    pass


async def _overlay_hide(ctx: ToolContext, args: NoArgs) -> dict[str, Any]:
    return await overlay.hide_overlay(ctx.session)


class FindArgs(ToolArgs):
    role: str | None = Field(None, description="Role to match: button, link, textbox, checkbox, combobox, "
                             "option, tab… (also 'field', 'input', 'select').")
    text: str | None = Field(None, max_length=500, description="Words to look for in the element's name, "
                             "label, placeholder, title, aria-label or text; any language.")
    within: str | None = Field(None, max_length=200, description="Words of the container it is in, as listings "
                               "show after in= (a table row's first cells, a post, a card's heading, a dialog).")
    limit: int = Field(10, ge=1, le=listing.MAX_LIMIT, description="Matches to return.")
    offset: int = Field(0, ge=0, description="Skip this many matches.")
    format: Form = Field("rows", description=_FORM)


async def _find(ctx: ToolContext, args: FindArgs) -> dict[str, Any]:
    found = await listing.find_elements(ctx.session, text=args.text, role=args.role, limit=args.limit,
                                        offset=args.offset, within=args.within)
    matches = [item.to_dict() for item in found.listing.items]
    data: dict[str, Any] = {"matches": [format_row(m) for m in matches] if args.format == "rows" else matches,
                            "count": found.matches}
    shown = args.offset + len(found.listing.items)
    if found.matches > shown:
        data["more"] = found.matches - shown
    if found.listing.frame_titles and any(i.frame != "main" for i in found.listing.items):
        data["frames"] = found.listing.frame_titles
    if not found.matches:
        data["hint"] = ("Nothing visible matches. Try fewer words, another role, scroll, or browser_extract to "
                        "read the page; headings and text are reached with browser_focus_next(role='heading').")
    redrawn = await overlay.refresh_overlay(ctx.session)
    if redrawn is not None:
        data["overlay"] = "redrawn"
    return data


class FocusArgs(ToolArgs):
    role: str | None = Field(None, description="What to move to: heading (or h1…h6), landmark, link, button, "
                             "field, checkbox, combobox, table, list, or any ARIA role; omit for the next "
                             "interactive element.")


async def _focus_next(ctx: ToolContext, args: FocusArgs) -> dict[str, Any]:
    return await focusnav.move_focus(ctx.session, args.role, +1)


async def _focus_prev(ctx: ToolContext, args: FocusArgs) -> dict[str, Any]:
    return await focusnav.move_focus(ctx.session, args.role, -1)


TOOLS: list[ToolDef[Any]] = [
    ToolDef(
        name="browser_list_interactives",
        args=ListArgs,
        description=(
            "Number what a person could act on in the current tab: links, buttons, fields, drop-downs, "
            "checkboxes, tabs, options, editable areas and clickable elements, in every frame and shadow root, "
            "visible only, those in the viewport first (then below, then above). Each item is a row "
            "'number role name | fact | fact…': state (value=…, checked, expanded=false, disabled…), type=, "
            "frame=, covered (a banner or dialog lies on it), guessed (the page gave it no name: guessed from "
            "title, alt, icon file or class words), new (not in the previous listing), and in=… naming the row, "
            "post, card or group it belongs to when its role and name repeat. "
            "off_screen_from is the first number outside the viewport (it and every later one are off-screen); "
            "frames_failed names frames that could not be listed, with a code; ids=true adds each item's "
            "stable id. Numbers belong to this listing and its limit/offset only: list again after navigation "
            "or big changes, and page with offset when 'more' says items remain."
        ),
        side_effect=SideEffect.READ_ONLY,
        handler=_list,
        traits=ToolTraits(pure_read=True, banners="listing"),
    ),
    ToolDef(
        name="browser_overlay_show",
        args=OverlayShowArgs,
        description=(
            "Draw the latest listing's numbers as high-contrast badges over the elements (frames and shadow "
            "roots included), so a screenshot shows which number is which. Badges do not block clicks and "
            "follow scrolling; while the overlay is on for this tab, every new listing redraws it (until "
            "browser_overlay_hide). Lists first if there is no listing yet."
        ),
        side_effect=SideEffect.READ_ONLY,
        handler=_overlay_show,
        traits=ToolTraits(pure_read=True),
    ),
    ToolDef(
        name="browser_overlay_hide",
        args=NoArgs,
        description="Remove the number badges from the page (all frames). Numbers stay valid.",
        side_effect=SideEffect.READ_ONLY,
        handler=_overlay_hide,
        traits=ToolTraits(pure_read=True),
    ),
    ToolDef(
        name="browser_find",
        args=FindArgs,
        description=(
            "Find visible interactive elements by words and/or role, to orient: matches accessible name, "
            "label, placeholder, title, aria-label and text, case-insensitive, partial, in any language "
            "(Cyrillic and Chinese too); within= keeps those in a container whose naming holds the words (the "
            "in= of listings: a table row's first cells, a post, a card). Best matches first, each a row with "
            "its number, which you can then use with browser_overlay_act. It never acts itself."
        ),
        side_effect=SideEffect.READ_ONLY,
        handler=_find,
        traits=ToolTraits(pure_read=True),
    ),
    ToolDef(
        name="browser_focus_next",
        args=FocusArgs,
        description=(
            "Move to the next element of a role, like a screen reader's quick keys (next heading, next "
            "button, next field), after the focused element or the last place moved to. Fields, links and "
            "buttons get the keyboard focus; headings and landmarks are scrolled to. Reports the element "
            "(id, role, name, state, its number if listed), or found=false at the end of the page."
        ),
        side_effect=SideEffect.READ_ONLY,
        handler=_focus_next,
        traits=ToolTraits(changes_viewport=True),
    ),
    ToolDef(
        name="browser_focus_prev",
        args=FocusArgs,
        description="Like browser_focus_next, backwards: the previous element of that role before the focus.",
        side_effect=SideEffect.READ_ONLY,
        handler=_focus_prev,
        traits=ToolTraits(changes_viewport=True),
    ),
]
