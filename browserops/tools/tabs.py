"""browser_open_in_new_tab, browser_switch_tab."""

from __future__ import annotations

from typing import Any

from browserops.browser.page import tabs
from browserops.tools.context import ToolContext
from browserops.tools.definitions import pages as defs


async def open_in_new_tab(ctx: ToolContext, args: defs.OpenInNewTabArgs) -> dict[str, Any]:
    data = await tabs.open_in_new_tab(ctx.session, args.element, ctx.settings.navigation_timeout_ms, switch=args.switch)
    ctx.signals.new_tab = data["index"]
    if args.switch:
        ctx.signals.navigated = True
    return data


async def switch_tab(ctx: ToolContext, args: defs.SwitchTabArgs) -> dict[str, Any]:
    data = await tabs.switch_tab(ctx.session, args.index, args.title_contains)
    if data["switched"]:
        ctx.signals.navigated = True
    return data
