"""browser_open_in_new_tab, browser_switch_tab."""

from __future__ import annotations

from typing import Any

from browserops.browser.page import tabs
from browserops.tools.context import Tool, ToolContext
from browserops.tools.definitions import pages as defs


async def _open_in_new_tab(ctx: ToolContext, args: defs.OpenInNewTabArgs) -> dict[str, Any]:
    data = await tabs.open_in_new_tab(ctx.session, args.id, ctx.settings.navigation_timeout_ms, switch=args.switch)
    ctx.signals.new_tab = data["index"]
    if args.switch:
        ctx.signals.navigated = True
    return data


async def _switch_tab(ctx: ToolContext, args: defs.SwitchTabArgs) -> dict[str, Any]:
    data = await tabs.switch_tab(ctx.session, args.index, args.title_contains)
    if data["switched"]:
        ctx.signals.navigated = True
    return data


TOOLS: list[Tool[Any]] = [
    Tool(defs.OPEN_IN_NEW_TAB, _open_in_new_tab),
    Tool(defs.SWITCH_TAB, _switch_tab),
]
