"""browser_open_in_new_tab, browser_switch_tab."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from browserops.browser.page import tabs
from browserops.contract import SideEffect, ToolTraits
from browserops.tools.base import ToolArgs, ToolContext, ToolDef
from browserops.tools.element_arg import ElementId


class OpenInNewTabArgs(ToolArgs):
    id: ElementId
    switch: bool = Field(False, description="Also make the new tab the active one (default: stay on this tab).")


class SwitchTabArgs(ToolArgs):
    index: int | None = Field(None, ge=0, description="Tab number from the tab list (0 = first tab).")
    title_contains: str | None = Field(
        None, min_length=1, max_length=200,
        description="Part of the tab's title (case-insensitive; the address is tried when no title matches).",
    )


async def _open_in_new_tab(ctx: ToolContext, args: OpenInNewTabArgs) -> dict[str, Any]:
    data = await tabs.open_in_new_tab(ctx.session, args.id, ctx.settings.navigation_timeout_ms, switch=args.switch)
    ctx.signals["new_tab"] = data["index"]
    if args.switch:
        ctx.signals["navigated"] = True
    return data


async def _switch_tab(ctx: ToolContext, args: SwitchTabArgs) -> dict[str, Any]:
    data = await tabs.switch_tab(ctx.session, args.index, args.title_contains)
    if data["switched"]:
        ctx.signals["navigated"] = True
    return data


TOOLS: list[ToolDef[Any]] = [
    ToolDef(
        name="browser_open_in_new_tab",
        args=OpenInNewTabArgs,
        description=(
            "Open a link (by number or id) in a new tab, leaving the current tab as it is. Only links can be "
            "opened this way; click buttons with browser_overlay_act. Returns the new tab's index and the tab "
            "list; use browser_switch_tab to work in it."
        ),
        side_effect=SideEffect.READ_ONLY,
        handler=_open_in_new_tab,
        traits=ToolTraits(new_document=True, opens_tab=True, target_arg="id"),
    ),
    ToolDef(
        name="browser_switch_tab",
        args=SwitchTabArgs,
        description=(
            "Make another tab the active one, by index or by part of its title. Without arguments, only lists "
            "the tabs (index, title, url, active, opened_by_site). Tabs the site opened itself (target=_blank, "
            "window.open) appear here. Element numbers belong to one tab: list elements again after switching."
        ),
        side_effect=SideEffect.READ_ONLY,
        handler=_switch_tab,
        traits=ToolTraits(new_document=True, dialog_safe=True),
    ),
]
