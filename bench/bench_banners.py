"""Banner closer cost: the generic closer against a hand-written Playwright baseline that already knows
where each banner and its button are (the fastest a per-site script could be). Prints JSON.

    uv run python bench/bench_banners.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time
from collections.abc import Awaitable, Callable

from playwright.async_api import Page

from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.browser.page.banners import close_banners
from browserops.demo_site import DemoSite


async def _reject_main(page: Page) -> None:
    await page.get_by_role("button", name="Reject").click()
    await page.locator("#cookie-consent").wait_for(state="detached")


async def _reject_iframe(page: Page) -> None:
    await page.frame_locator("#consent-frame").get_by_role("button", name="Reject").click()
    await page.locator("#consent-frame").wait_for(state="detached")


async def _reject_shadow(page: Page) -> None:
    await page.locator("consent-banner").get_by_role("button", name="Reject").click()
    await page.locator("consent-banner").wait_for(state="detached")


async def _reject_ru(page: Page) -> None:
    await page.get_by_role("button", name="Отклонить").click()
    await page.locator("#cookie-consent").wait_for(state="detached")


async def _nothing(page: Page) -> None:
    return None


CASES: list[tuple[str, str, Callable[[Page], Awaitable[None]]]] = [
    ("main page", "/", _reject_main),
    ("iframe", "/banners/iframe", _reject_iframe),
    ("shadow root", "/banners/shadow", _reject_shadow),
    ("russian", "/banners/ru", _reject_ru),
    ("no banner", "/search", _nothing),
]


async def main(rounds: int) -> dict[str, object]:
    results: dict[str, object] = {}
    with DemoSite() as site:
        async with BrowserSession(SessionOptions()) as session:
            page = session.page
            for label, path, baseline in CASES:
                ours: list[float] = []
                base: list[float] = []
                closed: list[int] = []
                for _ in range(rounds):
                    for which in ("ours", "baseline"):
                        await session.context.clear_cookies()
                        await page.goto(site.base_url + path, wait_until="domcontentloaded")
                        started = time.perf_counter()
                        if which == "ours":
                            report = await close_banners(page)
                            ours.append((time.perf_counter() - started) * 1000)
                            closed.append(report.closed)
                        else:
                            await baseline(page)
                            base.append((time.perf_counter() - started) * 1000)
                results[label] = {
                    "closed_each_round": sorted(set(closed)),
                    "ours_median_ms": round(statistics.median(ours), 1),
                    "baseline_median_ms": round(statistics.median(base), 1),
                    # No baseline work on a clean page: there the figure is simply what the closer costs.
                    "ratio": round(statistics.median(ours) / statistics.median(base), 2) if min(base) > 1 else None,
                }
    return {"benchmark": "banners", "rounds": rounds, "budget_ms": 2500,
            "baseline": "raw Playwright, banner location and button name known in advance", "cases": results}


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    print(json.dumps(asyncio.run(main(parser.parse_args().rounds)), indent=2, ensure_ascii=False))
