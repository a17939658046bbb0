"""browser_close_banners: close cookie/consent/subscribe/age/region overlays now."""

from __future__ import annotations

from typing import Any

from browserops.browser.page.banners import BannerBudget, close_banners
from browserops.config import Settings
from browserops.contract import SideEffect, ToolTraits
from browserops.tools.base import ToolArgs, ToolContext, ToolDef


def budget_from_settings(settings: Settings) -> BannerBudget:
    return BannerBudget(
        max_passes=settings.banners_max_passes,
        total_ms=settings.banners_total_budget_ms,
        pass_ms=settings.banners_pass_budget_ms,
    )



class NoArgs(ToolArgs):
    pass


async def _close_banners(ctx: ToolContext, args: NoArgs) -> dict[str, Any]:
    report = await close_banners(ctx.session.page, budget_from_settings(ctx.settings))
    if report.closed:
        ctx.signals["banners_closed"] = report.closed
    data = report.to_dict()
    if report.closed:
        data["note"] = "The page changed: list the elements again before using numbers."
    return data


TOOLS: list[ToolDef[Any]] = [
    ToolDef(
        name="browser_close_banners",
        args=NoArgs,
        description=(
            "Close cookie-consent, newsletter, age and region overlays on the page, in its frames and shadow "
            "roots (prefers 'reject'/'close' over 'accept'; never 'subscribe'). Reports what it found and "
            "closed. Also runs on its own after page-changing actions."
        ),
        side_effect=SideEffect.BROWSER_ACT,
        handler=_close_banners,
        traits=ToolTraits(activation="never"),
    ),
]
