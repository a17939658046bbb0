"""One walk per document state (issue #21): pages after the first and browser_find are served from the kept
walk while nothing changed, with the same numbers as one long listing; any change makes the next call walk
again. And the walk skips what nobody can act on. Real Chromium, demo site and small pages of our own."""

from __future__ import annotations

from typing import Any

from browserops.browser.js import listing as listing_js
from browserops.browser.launch.cdp import page_cdp
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.listing import find_elements, list_interactives
from browserops.browser.numbering.worlds import page_worlds
from browserops.browser.scripts import call_in_frame
from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from tests.tools.helpers import ok, open_page


async def test_pages_come_from_one_walk_with_the_numbers_of_one_listing(tool_ctx: ToolContext,
                                                                       demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/large?n=300")
    session = tool_ctx.session
    whole = await list_interactives(session, limit=300)
    assert whole.walked == 1 and whole.total == 300
    first = await list_interactives(session, limit=100)
    assert first.walked == 0  # a new listing of the unchanged page: its first page too comes from the kept walk
    pages = [first]
    for offset in (100, 200):
        page = await list_interactives(session, limit=100, offset=offset)
        assert page.walked == 0  # described from the kept walk
        pages.append(page)
    paged = [(i.number, i.blind_id, i.name) for p in pages for i in p.items]
    assert paged == [(i.number, i.blind_id, i.name) for i in whole.items]
    found = await find_elements(session, text="Button 42", role="button", limit=5)
    assert found.listing.walked == 0 and [(i.number, i.name) for i in found.listing.items] == [
        (next(i.number for i in whole.items if i.name == "Button 42"), "Button 42")]


async def test_a_change_makes_the_next_page_walk_again(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/large?n=120")
    session = tool_ctx.session
    page = session.page
    await list_interactives(session, limit=50)
    # A mutation of the page's own: a new button at the top shifts every number.
    await page.evaluate("""() => { const b = document.createElement('button'); b.textContent = 'Brand new';
                                   document.querySelector('h1').after(b); }""")
    second = await list_interactives(session, limit=50, offset=50)
    assert second.walked == 1 and second.total == 121
    # A listing served from a walk that browser_find made flags what the listing before it did not show, as a
    # walk would; listed once more, nothing is new.
    await page.evaluate("""() => { const b = document.createElement('button'); b.textContent = 'Newer';
                                   document.querySelector('h1').after(b); }""")
    assert (await find_elements(session, text="Newer", role=None, limit=5)).listing.walked == 1
    flagged = await list_interactives(session, limit=50)
    assert flagged.walked == 0 and [i.name for i in flagged.items if i.new] == ["Newer"]
    again = await list_interactives(session, limit=50)
    assert again.walked == 0 and not any(i.new for i in again.items)
    # Scrolling moves items between the viewport and below it: the kept order no longer holds.
    assert (await list_interactives(session, limit=50, offset=50)).walked == 0
    await page.evaluate("() => window.scrollTo(0, 800)")
    assert (await list_interactives(session, limit=50, offset=50)).walked == 1
    # Typing changes a value without a mutation; the kept walk describes state afresh anyway, and input counts.
    await list_interactives(session, limit=50)
    await page.fill("#in-3", "typed")
    after = await list_interactives(session, limit=50, offset=0)
    assert next(i for i in after.items if i.name == "Input 3").state.get("value") == "typed"
    # Our own id stamps and badges are not changes.
    await list_interactives(session, limit=50)
    await ok(tool_ctx, "browser_overlay_show")
    assert (await list_interactives(session, limit=50, offset=50)).walked == 0


_SKIPPED = """<html><body>
<button>Shown</button>
<div inert><button>Inert button</button></div>
<details><summary>More</summary><button>Inside closed details</button></details>
<details open><summary>Open</summary><button>Inside open details</button></details>
<div aria-hidden="true" style="visibility:hidden"><button>Hidden for all</button></div>
<div aria-hidden="true" style="position:absolute; left:-9999px"><a href="#x">Off canvas</a></div>
<div aria-hidden="true"><button>Seen but not announced</button></div>
<pre><span>one</span><span>two</span><button>Copy</button></pre>
<pre id="quiet">QUIET</pre>
<mjx-container><mjx-math><mjx-mi>x</mjx-mi></mjx-math></mjx-container>
<late-box></late-box>
<script>
  const quiet = document.getElementById("quiet");
  for (let i = 0; i < 500; i++) {
    const s = document.createElement("span"); s.textContent = "tok" + i; quiet.append(s);
  }
  customElements.define("my-widget", class extends HTMLElement {});
</script>
<my-widget>content</my-widget>
</body></html>"""


async def test_the_walk_skips_what_nobody_can_act_on(session: BrowserSession) -> None:
    page = session.page
    await page.set_content(_SKIPPED)
    listing = await list_interactives(session, limit=40)
    assert [i.name for i in listing.items] == ["Shown", "More", "Open", "Inside open details",
                                               "Seen but not announced", "Copy"]
    # Only a registered component or an empty custom element is asked about closed shadow roots, not
    # MathJax-style markup with content of its own.
    data = await call_in_frame(page.main_frame, listing_js.list_frame({"start": 0, "end": 0, "closed": True}))
    assert data.get("closedCheck") == 2  # <late-box> (empty) and <my-widget> (registered)


async def test_a_world_keeps_the_listing_script_and_is_sent_it_again_when_it_lost_it(
        tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    """The listing's ~70 KB function is sent to a frame's isolated world once; later listings send only its key
    and their arguments, each call still starting from fresh per-call state; a world that does not hold it (as
    a new document reusing a context id would) is sent it again."""
    await open_page(tool_ctx, demo_site.base_url + "/large?n=40")
    session = tool_ctx.session
    cdp = await page_cdp(session, session.page)
    assert cdp is not None
    sent: list[str] = []
    real_send = cdp.send

    async def watching(method: str, params: dict[str, Any] | None = None) -> Any:
        if method == "Runtime.evaluate" and params and "contextId" in params:
            sent.append(str(params["expression"]))
        return await real_send(method, params)

    cdp.send = watching  # type: ignore[method-assign]
    try:
        first = await list_interactives(session, limit=50)
        # The walk's and the unseen hosts' functions, sent once each (ahead, or with the first call).
        assert sum(1 for text in sent if len(text) > 50_000) <= 2 and len(sent) >= 2
        await session.page.evaluate("() => { const b = document.createElement('button'); b.textContent = 'Late';"
                                    " document.body.prepend(b); }")
        sent.clear()
        again = await list_interactives(session, limit=50)
        assert max(len(text) for text in sent) < 2000
        assert again.total == first.total + 1 and again.items[0].name == "Late"  # per-call state started afresh
        # The world loses its functions: the next listing finds them missing and sends them again.
        worlds = page_worlds(session, session.page)
        assert worlds.main is not None
        context = worlds.contexts[(worlds.main.id, worlds.main.loader)]  # the main frame's world
        await cdp.send("Runtime.evaluate", {"expression": "globalThis.__boFns.clear()", "contextId": context})
        sent.clear()
        third = await list_interactives(session, limit=50)
        assert max(len(text) for text in sent) > 50_000
        assert [(i.number, i.name) for i in third.items] == [(i.number, i.name) for i in again.items]
    finally:
        del cdp.send


async def test_a_child_frame_is_listed_where_it_is_now_after_it_moved(tool_ctx: ToolContext,
                                                                     demo_site: DemoSite) -> None:
    """A listing starts each child frame where the last one found it while measuring where it is now: a frame
    that moved (and changed) meanwhile is listed again in its new place, its new items still flagged."""
    await open_page(tool_ctx, demo_site.base_url + "/frames")
    session = tool_ctx.session
    page = session.page
    first = await list_interactives(session, limit=50)
    inner = next(i for i in first.items if i.name == "Inner name")
    frame = first.frames[inner.frame]
    await page.evaluate("() => { const d = document.createElement('div'); d.style.height = '137px';"
                        " document.body.prepend(d); }")
    await frame.evaluate("() => { const b = document.createElement('button'); b.textContent = 'Inside new';"
                         " document.body.prepend(b); }")

    async def real_y(name: str) -> float:
        box = await frame.get_by_text(name, exact=True).bounding_box() if name == "Inside new" else \
            await frame.get_by_role("textbox", name=name).bounding_box()
        assert box is not None
        return float(box["y"])

    moved = await list_interactives(session, limit=50)
    now = next(i for i in moved.items if i.name == "Inner name")
    assert now.bbox is not None and inner.bbox is not None
    assert abs(now.bbox["y"] - await real_y("Inner name")) <= 1 and now.bbox["y"] > inner.bbox["y"] + 100
    assert [i.name for i in moved.items if i.new] == ["Inside new"]
    # Nothing changed since: the frame is where the guess puts it, described from its kept walk.
    again = await list_interactives(session, limit=50)
    assert again.walked == 0 and not any(i.new for i in again.items)
    assert [(i.number, i.name, i.bbox) for i in again.items] == [(i.number, i.name, i.bbox) for i in moved.items]
