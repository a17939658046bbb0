"""browser_close_banners: close cookie/consent/subscribe/age/region overlays now."""

from __future__ import annotations

from typing import Any

from browserops.browser.page import banners as page_banners
from browserops.browser.page.banners import BannerBudget
from browserops.config import Settings
from browserops.tools.context import ToolContext
from browserops.tools.definitions import NoArgs


def budget_from_settings(settings: Settings) -> BannerBudget:
    return BannerBudget(
        max_passes=settings.banners_max_passes,
        total_ms=settings.banners_total_budget_ms,
        pass_ms=settings.banners_pass_budget_ms,
    )


async def close_banners(ctx: ToolContext, args: NoArgs) -> dict[str, Any]:
    report = await page_banners.close_banners(ctx.session.page, budget_from_settings(ctx.settings))
    if report.closed:
        ctx.signals.banners_closed = report.closed
    data = report.to_dict()
    if report.closed:
        data["note"] = "The page changed: list the elements again before using numbers."
    return data
