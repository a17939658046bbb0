"""browser_navigate, browser_back, browser_forward, browser_reload."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from browserops.browser.numbering import worlds
from browserops.browser.page import navigation, waiting
from browserops.contract import SideEffect, ToolTraits
from browserops.tools.base import ToolArgs, ToolContext, ToolDef


class NavigateArgs(ToolArgs):
    url: str = Field(description="Absolute URL to open, e.g. https://example.com/page.", min_length=1)


class NoArgs(ToolArgs):
    pass


async def _navigate(ctx: ToolContext, args: NavigateArgs) -> dict[str, Any]:
    waiting.track_network(ctx.session)  # so browser_wait(network_idle) counts this page's requests from the start
    await worlds.prepare_worlds(ctx.session, ctx.session.page)  # its first listing then finds our world made
    data = await navigation.goto(ctx.session.page, args.url, ctx.settings.navigation_timeout_ms)
    ctx.signals["navigated"] = True
    return data


async def _back(ctx: ToolContext, args: NoArgs) -> dict[str, Any]:
    data = await navigation.back(ctx.session.page, ctx.settings.navigation_timeout_ms)
    ctx.signals["navigated"] = True
    return data


async def _forward(ctx: ToolContext, args: NoArgs) -> dict[str, Any]:
    data = await navigation.forward(ctx.session.page, ctx.settings.navigation_timeout_ms)
    ctx.signals["navigated"] = True
    return data


async def _reload(ctx: ToolContext, args: NoArgs) -> dict[str, Any]:
    data = await navigation.reload(ctx.session.page, ctx.settings.navigation_timeout_ms)
    ctx.signals["navigated"] = True
    return data


TOOLS: list[ToolDef[Any]] = [
    ToolDef(
        name="browser_navigate",
        args=NavigateArgs,
        description=(
            "Open a URL in the current tab and wait until its DOM is loaded. Returns the final URL, title and "
            "HTTP status. Element numbers from earlier listings are invalid afterwards: call "
            "browser_list_interactives before acting on the new page."
        ),
        side_effect=SideEffect.READ_ONLY,
        handler=_navigate,
        traits=ToolTraits(new_document=True),
    ),
    ToolDef(
        name="browser_back",
        args=NoArgs,
        description="Go back one entry in the tab's history, like the browser's Back button. Re-list elements after.",
        side_effect=SideEffect.READ_ONLY,
        handler=_back,
        traits=ToolTraits(new_document=True),
    ),
    ToolDef(
        name="browser_forward",
        args=NoArgs,
        description="Go forward one entry in the tab's history. Re-list elements after.",
        side_effect=SideEffect.READ_ONLY,
        handler=_forward,
        traits=ToolTraits(new_document=True),
    ),
    ToolDef(
        name="browser_reload",
        args=NoArgs,
        description="Reload the current page. Unsaved form input on the page is lost. Re-list elements after.",
        side_effect=SideEffect.READ_ONLY,
        handler=_reload,
        traits=ToolTraits(new_document=True),
    ),
]
