"""Reading and observing: browser_extract, browser_snapshot, browser_screenshot, browser_observe."""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering import changes, listing, overlay
from browserops.browser.page import reading
from browserops.browser.page.navigation import page_info
from browserops.tools.context import ToolContext
from browserops.tools.definitions import reading as defs

_counter = itertools.count(1)


def screenshot_path(ctx: ToolContext, tag: str = "") -> Path:
    """A new file under the workspace's screenshots folder (settings.screenshots_dir)."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    name = f"{stamp}-{next(_counter):04d}{'-' + tag if tag else ''}.png"
    return ctx.workspace_path(ctx.settings.screenshots_dir) / name


async def extract(ctx: ToolContext, args: defs.ExtractArgs) -> dict[str, Any]:
    if args.mode == "text":
        return await reading.page_text(ctx.session, offset=args.offset, max_chars=args.max_chars)
    return await reading.summary(ctx.session)


async def snapshot(ctx: ToolContext, args: defs.SnapshotArgs) -> dict[str, Any]:
    yaml = await reading.aria_snapshot(ctx.session.page, timeout_ms=ctx.settings.tool_timeout_ms, session=ctx.session)
    data: dict[str, Any] = {"snapshot": yaml[: args.max_chars], "chars": len(yaml)}
    if len(yaml) > args.max_chars:
        data["truncated"] = True
    return data


def _fast(ctx: ToolContext) -> BrowserSession | None:
    """The session, when screenshots may come straight from Chromium (settings.fast_screenshots)."""
    return ctx.session if ctx.settings.fast_screenshots else None


async def screenshot(ctx: ToolContext, args: defs.ScreenshotArgs) -> dict[str, Any]:
    path = screenshot_path(ctx)
    return await reading.screenshot(ctx.session.page, path, full_page=args.full_page,
                                    timeout_ms=ctx.settings.tool_timeout_ms, session=_fast(ctx), redact=ctx.session)


async def observe(ctx: ToolContext, args: defs.ObserveArgs) -> dict[str, Any]:
    session = ctx.session
    notices = session.take_notices()
    if args.if_changed and not notices:
        change = await changes.check(session)
        if not change["changed"]:
            return {"unchanged": True, **await page_info(session.page)}
    current = await listing.list_interactives(session, limit=args.limit or ctx.settings.list_limit,
                                              offset=args.offset)
    data: dict[str, Any] = {"summary": await reading.summary(session, snippet_chars=300, max_headings=12)}
    data.update(listing.listing_data(current))
    data["overlay"] = await overlay.show_overlay(session, current, args.scheme)
    if args.screenshot:
        shot = await reading.screenshot(session.page, screenshot_path(ctx, "observe"),
                                        timeout_ms=ctx.settings.tool_timeout_ms, session=_fast(ctx), redact=session)
        data["screenshot"] = shot["path"]
    if notices:
        data["notices"] = notices
    await changes.arm(session)  # the next if_changed observation compares against this one
    return data
