"""On every saved real page (``tests/realweb/pages/``, off-machine resources blanked): the listing is never
empty where the page shows links, no frame fails, and it covers ≥ 99 % of the visible actionable elements of
Chromium's own accessibility tree (``ax_coverage``: only controls a person can see count, listed or not, and a
control counts as listed only when its own element is, 0 levels up).

The first look (the first listing after ``load``, what an agent sees first) is held to a bar of its own, over the
controls whose element was visible before it was taken (one that appears during the listing was not there to list); a
second look (a page still loading or animating, a child frame still busy) is held to the final bar.

Measured over the 181 pages (2026-11-27, 2 cores at load 18-27, before these bars were set):
22 013 visible controls; the first look covered 21 962 (99.77 %) and failed no frame; every first-look miss (51)
was on one page, ``287e4d9f4af3…`` (73 of 124), whose layout keeps changing after ``load`` (the yardstick itself
sees 73 visible controls at one moment and 124 a moment later; the listing agrees with it each time). The second
look covered 22 013 of 22 013. Matching 3 levels up (the old yardstick) covered no more than 0 levels up.
Bars, set at that: first look ≥ 99 % on every page but that one, ≥ 58 % there; no frame fails at first look.
A page whose own inline script sends it elsewhere (offline: to Chromium's error page, e.g. ``686bb170effe…``,
whose first look once met the error page's 3 controls) is counted apart, not held to the first-look bar.
A run with these bars (8 chunks, load 37): first look 21 894 of 21 897 covered (the 3: that error page), no
frame failed; 13 min for the 8 chunks on one worker.
Since off-machine host names fail at once (``tests/realweb/offline.py``; 2026-11-27, load 10): first look 22 038 of
22 038 covered on the 178 pages that stayed put (the settling page included), no frame failed; 136 s, 8 chunks.
Since the first look counts only controls visible before it (2026-11-29, load 1, after CI met one page's three image
links getting their box during the listing): 22 023 of 22 023 on the 178 pages that stayed put; 138 s, 8 chunks.
Since an image's error handler runs once per failed URL (``tests/realweb/offline.py``: 65408257dbe4…'s fallback loop
kept a core busy, and under load timed its chunk out and closed the browser under the chunks after it; 2026-11-29):
21 909 of 21 909 on the 176 pages that stayed put; 130 CPU s, 141 s, 8 chunks on one worker.
Since the accessibility tree is read once a page, after the listing (before it, one DOM snapshot says which
elements were shown), and the blind ids are read from that snapshot where every control is in it (2026-11-29,
load 15): 21 894 of 21 894 on 176 pages; 98 CPU s (the same blind ids as the pierced document on all 181 pages).

One browser, pages in sequence; the pages are split into chunks (one test each) so pytest-xdist can spread
them over workers. Each chunk reports every failing page at once, not just the first, and prints its first-look
figures.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from browserops.browser.launch.cdp import page_cdp
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.listing import MAX_LIMIT, list_interactives
from browserops.demo_site.real_pages import RealPagesSite, page_names
from tests.realweb.ax_coverage import Coverage, coverage, shown_elements
from tests.realweb.offline import offline_session

CHUNKS = 8  # about 23 pages each: a chunk stays well inside the 180 s per-test timeout under load
MIN_COVERAGE = 0.99
FIRST_LOOK_MIN_COVERAGE = 0.99
# The one page whose layout still changes after load, and its first-look bar (measured 73/124 = 0.589).
SETTLING_PAGE = "287e4d9f4af3"
SETTLING_FIRST_LOOK_MIN_COVERAGE = 0.58
LOAD_WAIT_MS = 10_000  # as bench/real_pages.py


@pytest.fixture(scope="module")
def real_site() -> Iterator[RealPagesSite]:
    with RealPagesSite() as site:
        yield site


@pytest.fixture(scope="module")
async def real_pages_session() -> AsyncIterator[BrowserSession]:
    async with offline_session() as session:  # off-machine names fail at once, not after the resolver's wait
        yield session


async def _whole_listing(session: BrowserSession) -> tuple[set[str], int, dict[str, str]]:
    """Every listed blind id, page by page of MAX_LIMIT, the total, and any frame that failed."""
    ids: set[str] = set()
    offset = 0
    while True:
        listing = await list_interactives(session, limit=MAX_LIMIT, offset=offset)
        ids |= {item.blind_id for item in listing.items}
        offset += len(listing.items)
        if offset >= listing.total or not listing.items:
            return ids, listing.total, listing.failed


@pytest.mark.parametrize("chunk", range(CHUNKS))
async def test_real_pages_are_listed_fully(chunk: int, real_pages_session: BrowserSession,
                                           real_site: RealPagesSite) -> None:
    session = real_pages_session
    names = page_names()
    assert len(names) == 181, "the saved real pages must sit at tests/realweb/pages/"
    problems: list[str] = []
    first_look = {"pages": 0, "wanted": 0, "covered": 0, "missed": 0, "pages_missed": [], "frames_failed": 0,
                  "moved_by_itself": []}
    page = session.page
    cdp = await page_cdp(session, page)
    assert cdp is not None
    for name in names[chunk::CHUNKS]:
        await _open(page, real_site.url(name))
        # Then the load event, for at most LOAD_WAIT_MS (some pages never finish loading): until an <img> has
        # loaded or failed it has no box, so a link wrapping only that image is invisible to the listing and
        # visible (a broken-image icon) to the yardstick a moment later. CI under load hit exactly that.
        with contextlib.suppress(PlaywrightTimeoutError):
            await page.wait_for_load_state("load", timeout=LOAD_WAIT_MS)
        # The first look is held to what was on screen before it was taken and still is after: CI under load met a
        # page whose image links got their box (a late-failing image swapped by its onerror) during the listing.
        shown_before = await shown_elements(cdp)
        ids, total, failed = await _whole_listing(session)
        cov = await coverage(page, cdp, ids)
        # A page whose own script took it elsewhere (offline: Chromium's error page) has left what was listed.
        moved = page.url != real_site.url(name)
        problems += _first_look(name, cov.among(shown_before), failed, first_look, moved=moved)
        if cov.missed or failed:
            # The second look. The yardstick reads the page after the listing did: a control that only appeared
            # in between (a page still loading or animating) is listed by a listing taken now; a real miss stays
            # missed. A child frame still busy loading gets its bounded time (reported, BROWSER_FRAME_NOT_LISTED)
            # as an agent's next listing would give it: a frame that never answers fails both times.
            ids, total, failed = await _whole_listing(session)
            cov = await coverage(page, cdp, ids)
        if cov.links and total == 0:
            problems.append(f"{name}: empty listing on a page with visible links")
        if _unexpected(name, failed):
            problems.append(f"{name}: frames not listed {failed}")
        if cov.ratio < MIN_COVERAGE:
            problems.append(f"{name}: coverage {cov.covered}/{cov.wanted}; missed {_names(cov)}")
    print(json.dumps({"chunk": chunk, "first_look": first_look}))
    assert problems == [], first_look


async def _open(page: Page, url: str) -> None:
    """Go to ``url`` until DOMContentLoaded. A page whose own inline script sends it elsewhere before that (offline:
    to Chromium's error page) interrupts the navigation: that page has moved by itself, which the caller sees in
    ``page.url``; any other failure is the test's."""
    try:
        await page.goto(url, wait_until="domcontentloaded", timeout=60_000)
    except PlaywrightError as exc:
        if "interrupted by another navigation" not in str(exc):
            raise


def _unexpected(name: str, failed: dict[str, str]) -> dict[str, str]:
    """Frames whose listing failed, except the settling page's ad frames: saved offline, they never commit, and the
    listing says so (BROWSER_FRAME_NOT_LISTED after its bounded wait) (right for a frame that never loads)."""
    if name.startswith(SETTLING_PAGE):
        return {k: v for k, v in failed.items() if "BROWSER_FRAME_NOT_LISTED" not in v}
    return failed


def _first_look(name: str, cov: Coverage, failed: dict[str, str], tally: dict[str, Any], *,
                moved: bool) -> list[str]:
    """Count the first look into ``tally``; what breaks its bar. A page that moved itself elsewhere meanwhile
    is counted apart and held to the final bar only."""
    if moved:
        tally["moved_by_itself"].append(name[:12])
        return []
    tally["pages"] += 1
    tally["wanted"] += cov.wanted
    tally["covered"] += cov.covered
    tally["missed"] += len(cov.missed)
    tally["frames_failed"] += len(failed)
    if cov.missed:
        tally["pages_missed"].append(f"{name[:12]} {cov.covered}/{cov.wanted}")
    bar = SETTLING_FIRST_LOOK_MIN_COVERAGE if name.startswith(SETTLING_PAGE) else FIRST_LOOK_MIN_COVERAGE
    problems = [f"{name}: first look: frames not listed {failed}"] if _unexpected(name, failed) else []
    if cov.ratio < bar:
        problems.append(f"{name}: first look: coverage {cov.covered}/{cov.wanted} under {bar}; missed {_names(cov)}")
    return problems


def _names(cov: Coverage) -> str:
    return ", ".join(f"{m.role} {m.name[:30]!r}" for m in cov.missed[:5])
