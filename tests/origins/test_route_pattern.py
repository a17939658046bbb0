"""What the origin guard routes through this process: every request, except the static files of an origin the rules
allow as a whole (no rule can refuse those, and routing each cost a round trip). Rules that change re-route, so a
static file of an origin no longer allowed is refused again."""

from __future__ import annotations

import re

import pytest

from browserops.browser.launch.options import SessionOptions
from browserops.browser.launch.origin_guard import ROUTE_PATTERN, route_pattern
from browserops.browser.launch.session import BrowserSession
from browserops.demo_site import DemoSite
from browserops.demo_site.zoo_site import ZooSite
from browserops.origins import OriginRules


def _routed(rules: OriginRules, url: str) -> bool:
    pattern = route_pattern(rules)
    return pattern == ROUTE_PATTERN or (isinstance(pattern, re.Pattern) and pattern.search(url) is not None)


@pytest.mark.parametrize(("allowed", "blocked", "url", "routed"), [
    (["http://127.0.0.1:8000"], [], "http://127.0.0.1:8000/static/app.js?v=3", False),
    (["http://127.0.0.1:8000"], [], "http://127.0.0.1:8000/static/site.CSS", False),
    (["http://127.0.0.1:8000"], [], "http://127.0.0.1:8000/admin/pages/5/edit/", True),  # a document: routed
    (["http://127.0.0.1:8000"], [], "http://127.0.0.1:8000/api/items.json", True),
    (["http://127.0.0.1:8000"], [], "http://127.0.0.1:8000/a.js.php", True),
    (["http://127.0.0.1:8000"], [], "http://127.0.0.1:8001/static/app.js", True),  # another origin
    (["http://127.0.0.1:8000"], [], "http://127.0.0.1:8000@evil.example/app.js", True),
    (["https://example.com"], [], "https://example.com/app.js", False),
    (["https://example.com"], [], "https://example.com:443/app.js", False),
    (["https://example.com"], [], "https://example.com:8443/app.js", True),  # any port: only the default exempted
    (["https://example.com"], [], "https://example.com.evil.example/app.js", True),
    (["*.example.com"], [], "https://a.example.com/app.js", True),  # a wildcard: everything routed
    (["https://example.com"], ["example.com"], "https://example.com/app.js", True),  # blocked wins: routed
])
def test_only_static_files_of_a_wholly_allowed_origin_skip_the_route(
        allowed: list[str], blocked: list[str], url: str, routed: bool) -> None:
    assert _routed(OriginRules.of(allowed, blocked), url) is routed


async def _only_own_static_loads(session: BrowserSession, own: str, other: str) -> None:
    """On a page of ``own`` (the one allowed origin), its static file loads and ``other``'s is refused, recorded."""
    page = session.page
    await page.goto(own + "/origins")
    # no-cors: another origin's file loads as an opaque answer; only a refusal rejects.
    fetch = "(url) => fetch(url, {mode: 'no-cors'}).then(() => 'loaded', () => 'refused')"
    assert await page.evaluate(fetch, own + "/static/site.css") == "loaded"
    blocks = len(session.origin_blocks)
    assert await page.evaluate(fetch, other + "/static/site.css") == "refused"
    assert session.origin_blocks[blocks:] and session.origin_blocks[-1]["url"].startswith(other)


async def test_rules_that_change_route_again_so_a_refused_origins_static_file_stays_refused(
        session: BrowserSession, demo_site: DemoSite) -> None:
    try:
        await session.set_origin_rules(OriginRules.of([demo_site.base_url]))
        await _only_own_static_loads(session, demo_site.base_url, demo_site.alt_url)
        await session.set_origin_rules(OriginRules.of([demo_site.alt_url]))
        await _only_own_static_loads(session, demo_site.alt_url, demo_site.base_url)
    finally:
        await session.set_origin_rules(OriginRules())


async def _fetched_from_cache(session: BrowserSession, url: str) -> bool:
    """Fetch ``url`` twice from the current page; whether the second answer came from the browser's HTTP cache (a
    same-origin resource entry with nothing transferred)."""
    transfer = """async (url) => {
      await fetch(url).then((r) => r.text());
      await fetch(url).then((r) => r.text());
      const entries = performance.getEntriesByName(new URL(url, location.href).href);
      performance.clearResourceTimings();
      return entries.length === 2 ? entries[1].transferSize : -1;
    }"""
    size = await session.page.evaluate(transfer, url)
    assert size >= 0, "the two fetches were not both timed"
    return size == 0


async def test_rules_lifted_take_their_route_away_so_the_http_cache_works_again() -> None:
    """While any route exists Playwright turns the browser's HTTP cache off and every request goes through this
    process; a session whose rules were lifted (a chat or MCP session after a plan run) must not keep paying that.
    A browser of its own: what another test left routed on the shared one would turn the cache off too."""
    library = "/lib/bootstrap/dist/css/bootstrap.min.css"  # served with max-age: cacheable
    fetch = "(url) => fetch(url, {mode: 'no-cors'}).then(() => 'loaded', () => 'refused')"
    with ZooSite() as zoo:
        async with BrowserSession(SessionOptions()) as session:
            await session.page.goto(zoo.url("bootstrap"))
            assert await _fetched_from_cache(session, library + "?before")  # no rules yet: cached
            await session.set_origin_rules(OriginRules.of([zoo.base_url]))
            assert not await _fetched_from_cache(session, library + "?ruled")  # routed: the cache is off
            await session.set_origin_rules(OriginRules())
            assert await _fetched_from_cache(session, library + "?lifted")
            await session.set_origin_rules(OriginRules.of([zoo.base_url]))  # rules again: routed again
            assert not await _fetched_from_cache(session, library + "?again")
            blocks = len(session.origin_blocks)
            assert await session.page.evaluate(fetch, "http://127.0.0.1:9/elsewhere.css") == "refused"
            assert len(session.origin_blocks) == blocks + 1
