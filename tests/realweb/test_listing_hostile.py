"""The listing holds when the page's own scripts are hostile or broken, and never fails silently."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from playwright.async_api import Route

from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.listing import list_interactives, listing_data
from browserops.contract import ErrorCode

# What real pages do by accident (old polyfills, minified bundles gone wrong) or on purpose: replace the
# builtins a page-side script relies on.
_BREAK_BUILTINS = """<script>
  Array.prototype.map = function () { throw new Error("no map for you"); };
  Array.from = function () { throw new Error("no from"); };
  JSON.stringify = function () { return "{}"; };
  JSON.parse = function () { throw new Error("no parse"); };
  window.WeakSet = function () { throw new Error("no WeakSet"); };
  Symbol.for = function () { return "x"; };
  window.getComputedStyle = function () { throw new Error("no styles"); };
  Element.prototype.getBoundingClientRect = function () { return {left: 0, top: 0, right: 0, bottom: 0,
    width: 0, height: 0}; };
  Element.prototype.getAttribute = function () { return "button"; };
</script>"""


@pytest.fixture(autouse=True)
async def _leave_a_clean_page(session: BrowserSession) -> AsyncIterator[None]:
    yield
    # set_content keeps the window: the next test in this browser must not inherit the broken builtins.
    await session.page.goto("about:blank")


async def _serve(session: BrowserSession, pages: dict[str, str]) -> None:
    async def fulfil(route: Route) -> None:
        body = pages.get(route.request.url)
        if body is None:
            await route.fulfill(status=404, body="")
        else:
            await route.fulfill(status=200, content_type="text/html", body=body)

    await session.page.route("http://*.test/**", fulfil)


async def test_a_page_that_replaces_builtins_is_still_listed(session: BrowserSession) -> None:
    html = (f"<html><head>{_BREAK_BUILTINS}</head><body><a href='/next'>Next story</a>"
            "<button>Subscribe</button><input aria-label='Search the site'></body></html>")
    await _serve(session, {"http://news.test/": html})
    await session.page.goto("http://news.test/", wait_until="domcontentloaded")
    listing = await list_interactives(session, limit=40)
    named = {(i.role, i.name) for i in listing.items}
    assert named == {("link", "Next story"), ("button", "Subscribe"), ("textbox", "Search the site")}
    assert listing.failed == {}
    await session.page.unroute("http://*.test/**")


async def test_a_frame_that_cannot_be_listed_is_reported_with_a_code(session: BrowserSession) -> None:
    # A cross-site frame runs in its own process (site isolation), out of the page's DevTools session: it is
    # listed in its own world, where this page has broken JSON.parse, so its enumeration fails.
    outer = ("<html><body><button>Outer button</button>"
             "<iframe src='http://ads.test/' width=400 height=200></iframe></body></html>")
    inner = f"<html><head>{_BREAK_BUILTINS}</head><body><button>Inner button</button></body></html>"
    await _serve(session, {"http://site.test/": outer, "http://ads.test/": inner})
    await session.page.goto("http://site.test/", wait_until="load")
    listing = await list_interactives(session, limit=40)
    data = listing_data(listing)
    assert [i.name for i in listing.items] == ["Outer button"]  # the rest of the page is listed
    assert list(data["frames_failed"]) == ["f1"]
    assert data["frames_failed"]["f1"].startswith(ErrorCode.FRAME_NOT_LISTED.value)
    await session.page.unroute("http://*.test/**")


async def test_after_a_navigation_the_new_document_gets_a_world_of_its_own(session: BrowserSession) -> None:
    # Both documents break the builtins, so only the isolated world can list them: the second listing must
    # find the first document's world gone and make one for the new document (the frame's id is the same).
    first = f"<html><head>{_BREAK_BUILTINS}</head><body><button>First page</button></body></html>"
    second = f"<html><head>{_BREAK_BUILTINS}</head><body><a href='/'>Second page</a></body></html>"
    await _serve(session, {"http://one.test/": first, "http://two.test/": second})
    await session.page.goto("http://one.test/", wait_until="domcontentloaded")
    assert [i.name for i in (await list_interactives(session, limit=40)).items] == ["First page"]
    await session.page.goto("http://two.test/", wait_until="domcontentloaded")
    listing = await list_interactives(session, limit=40)
    assert [(i.role, i.name) for i in listing.items] == [("link", "Second page")] and listing.failed == {}
    await session.page.unroute("http://*.test/**")


async def test_a_child_frame_that_does_not_answer_is_reported_not_waited_for(session: BrowserSession) -> None:
    # A cross-site frame (its own process) whose script keeps its thread busy for seconds: the page is listed
    # without it, and the frame is named as not listed (its button would be listed had the listing waited).
    outer = ("<html><body><button>Outer button</button>"
             "<iframe src='http://busy.test/' width=400 height=200></iframe></body></html>")
    busy = "<html><body><button>Busy button</button></body></html>"
    await _serve(session, {"http://site.test/": outer, "http://busy.test/": busy})
    await session.page.goto("http://site.test/", wait_until="load")
    # The frame's thread is busy from its next task on, before the listing's first message reaches it.
    await session.page.frames[1].evaluate(
        "setTimeout(() => { const end = Date.now() + 4000; while (Date.now() < end) {} }, 0)")
    listing = await list_interactives(session, limit=40)
    assert [i.name for i in listing.items] == ["Outer button"]
    assert "did not answer within 1000 ms" in listing.failed["f1"]
    # Still busy: the next listing waits for it only briefly (a frame that never answers would otherwise cost
    # every listing of the page the whole bound).
    again = await list_interactives(session, limit=40)
    assert "did not answer within 300 ms" in again.failed["f1"]
    await session.page.unroute("http://*.test/**")
