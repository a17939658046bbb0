"""Close cookie/consent/subscribe/age/region overlays in the page, its frames and shadow roots.

Generic means only (control names in many languages, overlay shape, topic words; see banner_words.py), in up
to ``max_passes`` passes within a total time budget and a per-pass budget (seed 000 §10.1). A pass scans
every frame at once; when it clicked something it waits a moment and checks what went away, and the next
pass catches what the first click revealed (a second layer, a newsletter modal after the cookie banner).
Nothing found means one cheap pass and no waiting.

The closer never leaves the page it works on: the in-page half cancels link navigation and foreign form
submission, and records any navigation the document starts right after a click; here every click is followed by
a check that neither the page nor the clicked frame navigated. If one did, the report carries ``navigated``
(where from, where to, which control) and the run stops; the hook (tools/hooks.py) turns that into an error
notice and leaves that page alone from then on.
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

from browserops.browser.errors import first_line
from browserops.browser.js import banners as banners_js
from browserops.browser.page import banner_words
from browserops.browser.scripts import call_in_frame

log = logging.getLogger(__name__)

# After a click, how long a banner gets to go away (they often animate out) before the next pass; checked
# every POLL_MS, so a banner that vanishes at once costs one poll, not the whole settle time.
SETTLE_MS = 150
POLL_MS = 25
# After the last pass, what was clicked and is still shown gets this long more (polled): a banner animating out, or
# a cross-origin consent frame its parent removes on a message (two processes: slow on a loaded machine).
GONE_WAIT_MS = 1000
_ARGS = {
    "cookie": banner_words.COOKIE_WORDS,
    "subscribe": banner_words.SUBSCRIBE_WORDS,
    "age": banner_words.AGE_WORDS,
    "region": banner_words.REGION_WORDS,
    "reject": banner_words.REJECT_NAMES,
    "close": banner_words.CLOSE_NAMES,
    "accept": banner_words.ACCEPT_NAMES,
    "avoid": banner_words.AVOID_NAMES,
    "cmp": banner_words.CMP_ROOTS,
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
    # Set when a click was followed by a navigation of the page or of the clicked frame (the evidence).
    navigated: dict[str, Any] | None = None

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
            **({"navigated": self.navigated} if self.navigated else {}),
        }


def _frame_label(page: Page, frame: Frame) -> str:
    if frame is page.main_frame:
        return "main"
    parts = urlsplit(frame.url)
    return f"iframe {parts.scheme}://{parts.netloc}{parts.path}" if parts.netloc else f"iframe {frame.url[:80]}"


def _document_url(url: str) -> str:
    """The URL without its fragment: which document it names."""
    return url.split("#", 1)[0]


async def _scan(frame: Frame) -> list[dict[str, Any]]:
    try:
        result = await call_in_frame(frame, _SCAN)
    except PlaywrightError:  # a frame navigating or detaching mid-scan has nothing to close
        return []
    return list(result) if isinstance(result, list) else []


async def _still_open(frame: Frame, tokens: list[int]) -> tuple[dict[int, bool], list[dict[str, Any]]]:
    """Which clicked overlays are still shown, and the navigations the frame started since the clicks."""
    if frame.is_detached():
        return dict.fromkeys(tokens, False), []  # a consent iframe that removed itself
    try:
        result = await call_in_frame(frame, banners_js.still_open(tokens))
    except PlaywrightError:
        return dict.fromkeys(tokens, not frame.is_detached()), []
    return {int(k): bool(v) for k, v in dict(result["open"]).items()}, list(result["navs"])


class _Run:
    def __init__(self, page: Page, budget: BannerBudget) -> None:
        self.page = page
        self.budget = budget
        self.started = time.monotonic()
        self.report = BannerReport()
        # (frame, token) -> the report item, for the overlays we clicked and have not seen go away yet.
        self.pending: dict[tuple[Frame, int], dict[str, Any]] = {}
        self.clicked_frames: set[Frame] = set()
        self.last_click: dict[str, Any] | None = None
        self.start_url = page.url

    def on_frame_navigated(self, frame: Frame) -> None:
        """Playwright's framenavigated: after a click, the page or a frame we clicked in got a new URL/document
        (a change of the fragment alone stays in the document)."""
        if self.last_click is None or self.report.navigated is not None:
            return
        if frame is self.page.main_frame:
            if _document_url(frame.url) != _document_url(self.start_url):
                self.note_navigation(frame, frame.url, "committed")
        elif frame in self.clicked_frames:
            self.note_navigation(frame, frame.url, "committed")

    def on_popup(self, popup: Page) -> None:
        """A window the page opened after our click: as much a navigation nobody asked for."""
        if self.last_click is not None:
            self.note_navigation(self.page.main_frame, popup.url, "popup")

    def note_navigation(self, frame: Frame, url: str, how: str) -> None:
        if self.report.navigated is None:
            self.report.navigated = {
                "frame": _frame_label(self.page, frame),
                "from": self.start_url if frame is self.page.main_frame else None,
                "to": url,
                # committed (it happened), cancelled (started, stopped by the closer), started (could not be
                # cancelled; committed or not) or popup (a new window opened)
                "how": how,
                "after_control": (self.last_click or {}).get("control"),
                "kind": (self.last_click or {}).get("kind"),
            }

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
                if entry.get("overlay"):
                    item["overlay"] = entry["overlay"]
                if entry["action"]:
                    self.pending[(frame, int(entry["token"]))] = item
                    self.clicked_frames.add(frame)
                    self.last_click = item
                    clicked = True
        return clicked

    async def wait_gone(self, until: float, deadline: float) -> None:
        """Poll every POLL_MS until every clicked overlay is gone, the page navigated, or ``until`` (monotonic);
        never start a poll that would end past ``deadline``, and give each check what is left of it."""
        while self.pending and self.report.navigated is None:
            now = time.monotonic()
            if now >= until or now + POLL_MS / 1000 >= deadline:
                break
            await asyncio.sleep(POLL_MS / 1000)
            await asyncio.wait_for(self.verify(), timeout=max(0.05, deadline - time.monotonic()))

    async def release(self) -> None:
        """The run is over: the frames we clicked in stop cancelling navigations (the caller's next action may
        well navigate), and what they recorded since the last check is noted."""
        for frame in self.clicked_frames:
            if frame.is_detached():
                continue
            try:
                # Within what is left of the budget (a little at least): past it, the in-page watch still ends
                # by itself within a second.
                left = max(0.05, self.remaining_ms() / 1000)
                answer = await asyncio.wait_for(call_in_frame(frame, banners_js.release()), timeout=left)
            except (PlaywrightError, TimeoutError):
                continue  # a frame that went away, or a page too busy: its watch ends by itself within a second
            for nav in answer.get("navs") or []:
                self.note_navigation(frame, str(nav.get("url", "")), "cancelled" if nav.get("cancelled") else "started")

    async def verify(self) -> None:
        by_frame: dict[Frame, list[int]] = {}
        for frame, token in self.pending:
            by_frame.setdefault(frame, []).append(token)
        frames = list(by_frame)
        answers = await asyncio.gather(*(_still_open(f, by_frame[f]) for f in frames))
        for frame, (answer, navs) in zip(frames, answers, strict=True):
            for nav in navs:
                self.note_navigation(frame, str(nav.get("url", "")),
                                     "cancelled" if nav.get("cancelled") else "started")
            for token, is_open in answer.items():
                if not is_open:
                    self.pending.pop((frame, token))["closed"] = True


async def close_banners(page: Page, budget: BannerBudget | None = None) -> BannerReport:
    """Close what overlays the page shows, within ``budget``. Never raises for page trouble: a page that
    navigates away or a frame that detaches just ends the run early."""
    budget = budget or BannerBudget()
    run = _Run(page, budget)
    page.on("framenavigated", run.on_frame_navigated)
    page.on("popup", run.on_popup)
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
            # A clicked overlay gets SETTLE_MS to go, within the pass.
            await run.wait_gone(time.monotonic() + SETTLE_MS / 1000, pass_started + pass_ms / 1000)
            if run.report.navigated is not None:
                break
        if run.pending and run.report.navigated is None and run.remaining_ms() > 60:
            # A banner that animates out may need a moment more than one settle: GONE_WAIT_MS, or a pass's budget
            # where that is longer (a budget raised for a slow machine holds here too), within the total budget.
            gone_ms = min(max(GONE_WAIT_MS, budget.pass_ms), run.remaining_ms() - 50)
            await run.wait_gone(time.monotonic() + gone_ms / 1000, run.started + budget.total_ms / 1000)
    except TimeoutError:
        run.report.budget_exhausted = True
    except PlaywrightError as exc:
        log.debug("banner closer stopped early: %s", first_line(exc))
    finally:
        await run.release()
        page.remove_listener("framenavigated", run.on_frame_navigated)
        page.remove_listener("popup", run.on_popup)
    if (run.last_click is not None and run.report.navigated is None
            and _document_url(page.url) != _document_url(run.start_url)):
        run.note_navigation(page.main_frame, page.url, "committed")
    run.report.spent_ms = round((time.monotonic() - run.started) * 1000)
    if run.report.navigated is not None:
        log.warning("banner closer: a click was followed by a navigation (%s, %s); stopped on this page",
                    run.report.navigated["frame"], run.report.navigated["how"])
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
