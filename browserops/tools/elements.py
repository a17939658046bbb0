"""Numbering and orientation: browser_list_interactives, browser_overlay_show/hide, browser_find,
browser_focus_next/prev. All read-only: they stamp ids and draw badges, but change nothing a site sees
as user input (focus moves are the exception a screen reader makes too)."""

from __future__ import annotations

from typing import Any

from browserops.browser.act import focusnav
from browserops.browser.numbering import listing, overlay
from browserops.browser.numbering.elements import latest_listing
from browserops.listing_rows import format_row
from browserops.tools.context import ToolContext
from browserops.tools.definitions import NoArgs
from browserops.tools.definitions import elements as defs


async def list_interactives(ctx: ToolContext, args: defs.ListArgs) -> dict[str, Any]:
    result = await listing.list_interactives(
        ctx.session, limit=args.limit or ctx.settings.list_limit, offset=args.offset, scope=args.scope,
        containers=args.containers,
    )
    data = listing.listing_data(result, boxes=args.boxes, ids=args.ids, rows=args.format == "rows")
    redrawn = await overlay.refresh_overlay(ctx.session)
    if redrawn is not None:
        data["overlay"] = "redrawn"
    return data


async def overlay_show(ctx: ToolContext, args: defs.OverlayShowArgs) -> dict[str, Any]:
    current = latest_listing(ctx.session)
    data: dict[str, Any] = {}
    if current is None or current.page is not ctx.session.page:
        current = await listing.list_interactives(ctx.session, limit=ctx.settings.list_limit)
        data["listed"] = listing.listing_data(current)
    data.update(await overlay.show_overlay(ctx.session, current, args.scheme))
    data["numbers"] = f"{current.items[0].number}-{current.items[-1].number}" if current.items else "none"
    return data


async def overlay_hide(ctx: ToolContext, args: NoArgs) -> dict[str, Any]:
    return await overlay.hide_overlay(ctx.session)


async def find(ctx: ToolContext, args: defs.FindArgs) -> dict[str, Any]:
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


async def focus_next(ctx: ToolContext, args: defs.FocusArgs) -> dict[str, Any]:
    return await focusnav.move_focus(ctx.session, args.role, +1)


async def focus_prev(ctx: ToolContext, args: defs.FocusArgs) -> dict[str, Any]:
    return await focusnav.move_focus(ctx.session, args.role, -1)
