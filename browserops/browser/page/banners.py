"""Close cookie/consent/subscribe/age/region overlays in the page, its frames and shadow roots.

Generic means only (control names in many languages, overlay shape, topic words; see banner_js.py), in up
to ``max_passes`` passes within a total time budget and a per-pass budget (seed 000 §10.1). A pass scans
every frame at once; when it clicked something it waits a moment and checks what went away, and the next
pass catches what the first click revealed (a second layer, a newsletter modal after the cookie banner).
Nothing found means one cheap pass and no waiting.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page

from browserops.browser.js import banners as banners_js
from browserops.browser.page import banner_js
from browserops.browser.scripts import run

log = logging.getLogger(__name__)

# After a click, how long a banner gets to go away (they often animate out) before the next pass; checked
# every POLL_MS, so a banner that vanishes at once costs one poll, not the whole settle time.
SETTLE_MS = 150
POLL_MS = 25
_ARGS = {
    "cookie": banner_js.COOKIE_WORDS,
    "subscribe": banner_js.SUBSCRIBE_WORDS,
    "age": banner_js.AGE_WORDS,
    "region": banner_js.REGION_WORDS,
    "reject": banner_js.REJECT_NAMES,
    "close": banner_js.CLOSE_NAMES,
    "accept": banner_js.ACCEPT_NAMES,
    "avoid": banner_js.AVOID_NAMES,
}
_SCAN = banners_js.scan(_ARGS)


@dataclass(frozen=True)
class BannerBudget:
    max_passes: int = 3
    total_ms: int = 2500
    pass_ms: int = 800


@dataclass
class BannerReport:
    """What the closer saw and did. ``items`` has one entry per overlay: kind, the control it used, closed."""

    items: list[dict[str, Any]] = field(default_factory=list)
    passes: int = 0
    spent_ms: int = 0
    budget_exhausted: bool = False

    @property
    def found(self) -> int:
        return len(self.items)

    @property
    def closed(self) -> int:
        return sum(1 for item in self.items if item["closed"])

    def to_dict(self) -> dict[str, Any]:
        return {
            "found": self.found,
            "closed": self.closed,
            "passes": self.passes,
            "spent_ms": self.spent_ms,
            "budget_exhausted": self.budget_exhausted,
            "banners": self.items,
        }


def _frame_label(page: Page, frame: Frame) -> str:
    if frame is page.main_frame:
        return "main"
    parts = urlsplit(frame.url)
    return f"iframe {parts.scheme}://{parts.netloc}{parts.path}" if parts.netloc else f"iframe {frame.url[:80]}"


async def _scan(frame: Frame) -> list[dict[str, Any]]:
    try:
        result = await run(frame, _SCAN)
    except PlaywrightError:  # a frame navigating or detaching mid-scan has nothing to close
        return []
    return list(result) if isinstance(result, list) else []


async def _still_open(frame: Frame, tokens: list[int]) -> dict[int, bool]:
    if frame.is_detached():
        return dict.fromkeys(tokens, False)  # a consent iframe that removed itself
    try:
        result = await run(frame, banners_js.still_open(tokens))
    except PlaywrightError:
        return dict.fromkeys(tokens, not frame.is_detached())
    return {int(k): bool(v) for k, v in dict(result).items()}


class _Run:
    def __init__(self, page: Page, budget: BannerBudget) -> None:
        self.page = page
        self.budget = budget
        self.started = time.monotonic()
        self.report = BannerReport()
        # (frame, token) -> the report item, for the overlays we clicked and have not seen go away yet.
        self.pending: dict[tuple[Frame, int], dict[str, Any]] = {}

    def remaining_ms(self) -> float:
        return self.budget.total_ms - (time.monotonic() - self.started) * 1000

    async def one_pass(self, pass_ms: float) -> bool:
        """Scan every frame and click; True when something was clicked."""
        frames = [f for f in self.page.frames if not f.is_detached()]
        results = await asyncio.wait_for(asyncio.gather(*(_scan(f) for f in frames)), timeout=pass_ms / 1000)
        clicked = False
        for frame, found in zip(frames, results, strict=True):
            for entry in found:
                if entry.get("retried"):
                    continue  # already reported in an earlier pass
                item = {
                    "kind": entry["kind"],
                    "frame": _frame_label(self.page, frame),
                    "action": entry["action"],
                    "control": entry["control"],
                    "in_shadow_root": bool(entry.get("shadow")),
                    "closed": False,
                }
                self.report.items.append(item)
                if entry["action"]:
                    self.pending[(frame, int(entry["token"]))] = item
                    clicked = True
        return clicked

    async def settle(self, pass_started: float, pass_ms: float) -> None:
        """Wait until every clicked overlay is gone, SETTLE_MS has passed, or the pass budget is used."""
        settle_until = time.monotonic() + SETTLE_MS / 1000
        pass_until = pass_started + pass_ms / 1000
        while self.pending:
            now = time.monotonic()
            if now >= settle_until or now + POLL_MS / 1000 >= pass_until:
                break
            await asyncio.sleep(POLL_MS / 1000)
            await asyncio.wait_for(self.verify(), timeout=max(0.05, pass_until - time.monotonic()))

    async def verify(self) -> None:
        by_frame: dict[Frame, list[int]] = {}
        for frame, token in self.pending:
            by_frame.setdefault(frame, []).append(token)
        frames = list(by_frame)
        answers = await asyncio.gather(*(_still_open(f, by_frame[f]) for f in frames))
        for frame, answer in zip(frames, answers, strict=True):
            for token, is_open in answer.items():
                if not is_open:
                    self.pending.pop((frame, token))["closed"] = True


async def close_banners(page: Page, budget: BannerBudget | None = None) -> BannerReport:
    """Close what overlays the page shows, within ``budget``. Never raises for page trouble: a page that
    navigates away or a frame that detaches just ends the run early."""
    budget = budget or BannerBudget()
    run = _Run(page, budget)
    try:
        for _ in range(budget.max_passes):
            remaining = run.remaining_ms()
            if remaining < 40:
                run.report.budget_exhausted = True
                break
            pass_ms = min(float(budget.pass_ms), remaining)
            pass_started = time.monotonic()
            run.report.passes += 1
            if not await run.one_pass(pass_ms):
                break
            await run.settle(pass_started, pass_ms)
        if run.pending and run.remaining_ms() > 60:
            # A banner that animates out may need a moment more than one settle.
            await asyncio.sleep(min(250, run.remaining_ms() - 50) / 1000)
            await asyncio.wait_for(run.verify(), timeout=max(0.05, run.remaining_ms() / 1000))
    except TimeoutError:
        run.report.budget_exhausted = True
    except PlaywrightError as exc:
        log.debug("banner closer stopped early: %s", str(exc).splitlines()[0])
    run.report.spent_ms = round((time.monotonic() - run.started) * 1000)
    if run.report.found:
        log.info("banners: found=%d closed=%d passes=%d spent_ms=%d", run.report.found, run.report.closed,
                 run.report.passes, run.report.spent_ms)
    return run.report


async def close_banners_quietly(page: Page, budget: BannerBudget) -> BannerReport:
    """For hooks: as close_banners, but any unexpected failure becomes an empty report."""
    try:
        return await close_banners(page, budget)
    except Exception:  # a post-action hook must never turn a good action into an error
        log.exception("banner closer failed")
        return BannerReport()
