"""browser_navigate, browser_back, browser_forward, browser_reload."""

from __future__ import annotations

from typing import Any

from browserops.browser.numbering import worlds
from browserops.browser.page import navigation, waiting
from browserops.tools.context import ToolContext
from browserops.tools.definitions import NoArgs
from browserops.tools.definitions import pages as defs


async def navigate(ctx: ToolContext, args: defs.NavigateArgs) -> dict[str, Any]:
    waiting.track_network(ctx.session)  # so browser_wait(network_idle) counts this page's requests from the start
    await waiting.start_quiet_clock(ctx.session)  # each document it opens knows when it last changed
    await worlds.prepare_worlds(ctx.session, ctx.session.page)  # its first listing then finds our world made
    data = await navigation.goto(ctx.session.page, args.url, ctx.settings.navigation_timeout_ms)
    ctx.signals.navigated = True
    return data


async def back(ctx: ToolContext, args: NoArgs) -> dict[str, Any]:
    data = await navigation.back(ctx.session.page, ctx.settings.navigation_timeout_ms)
    ctx.signals.navigated = True
    return data


async def forward(ctx: ToolContext, args: NoArgs) -> dict[str, Any]:
    data = await navigation.forward(ctx.session.page, ctx.settings.navigation_timeout_ms)
    ctx.signals.navigated = True
    return data


async def reload(ctx: ToolContext, args: NoArgs) -> dict[str, Any]:
    data = await navigation.reload(ctx.session.page, ctx.settings.navigation_timeout_ms)
    ctx.signals.navigated = True
    return data
