"""Frames measured through DevTools (two calls per frame) sit exactly where Playwright's frame_element and
bounding box put them, nested frames, borders, padding and scrolling included."""

from __future__ import annotations

import asyncio
from typing import Any

from browserops.browser.launch.cdp import page_cdp
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.frames import visible_frames
from browserops.browser.numbering.isolated import frame_worlds
from browserops.browser.numbering.listing import list_interactives
from browserops.browser.numbering.worlds import page_worlds, prepare_worlds
from browserops.browser.state.listing import Listing
from browserops.demo_site import DemoSite

_NESTED = ("<div style='padding:13px;border:4px solid red;height:1400px'>"
           "<iframe style='border:6px solid;padding:5px;width:500px;height:300px' srcdoc=\"<p>x</p>"
           "<iframe style='margin-left:30px;border:2px solid' srcdoc='<button>b</button>'></iframe>\"></iframe>"
           "<iframe style='display:none' srcdoc='<button>hidden</button>'></iframe></div>")


async def test_devtools_frame_geometry_matches_playwright(session: BrowserSession) -> None:
    page = session.page
    await page.set_content(_NESTED)
    await page.wait_for_function("document.querySelector('iframe').contentDocument.querySelector('iframe')"
                                 ".contentDocument.querySelector('button') !== null")
    await page.evaluate("window.scrollTo(0, 20)")
    worlds = await frame_worlds(session, page)
    by_playwright = await visible_frames(session, page)
    by_devtools = await visible_frames(session, page, worlds.frame_box)
    assert len(by_devtools) == 3  # main + two nested; the display:none frame is not rendered
    assert all(worlds.reaches(v.frame) for v in by_devtools)
    assert [(v.label, v.offset, v.clip) for v in by_devtools] == [
        (v.label, v.offset, v.clip) for v in by_playwright]
    assert by_devtools[2].offset[1] < by_devtools[1].offset[1] + 300  # the nested one sits inside its parent


async def test_child_frames_reloaded_or_navigated_are_listed_anew(session: BrowserSession, demo_site: DemoSite) -> None:
    """Listings remember how the page's frames match DevTools' while the frames and their URLs hold; a frame
    reloaded at the same URL (a new document, a new world) or sent elsewhere is still listed as it is now."""
    page = session.page
    await page.goto(demo_site.base_url + "/large?n=3")
    await page.set_content("<button>Top</button><iframe name='inner' style='width:600px;height:400px' "
                           f"src='{demo_site.base_url}/large?n=2'></iframe>")
    inner = page.frame(name="inner")
    assert inner is not None
    await inner.wait_for_load_state()

    def names(listing: Listing) -> list[tuple[str, str]]:
        return [(i.frame, i.name) for i in listing.items if i.role == "button"]

    first = names(await list_interactives(session, limit=50))
    assert ("main", "Top") in first and any(frame != "main" and name == "Button 2" for frame, name in first)
    # Wait for the reload itself: wait_for_load_state alone may answer for the old document before it goes.
    async with inner.expect_navigation(wait_until="load"):
        await inner.evaluate("() => { window.name = 'inner'; location.reload(); }")
    await inner.evaluate("() => { const b = document.createElement('button'); b.textContent = 'After reload';"
                         " document.body.prepend(b); }")
    assert any(name == "After reload" for _, name in names(await list_interactives(session, limit=50)))
    await inner.goto(demo_site.base_url + "/large?n=7")
    after = names(await list_interactives(session, limit=50))
    assert any(name == "Button 7" for frame, name in after if frame != "main"), (first, after)
    assert not any(name == "After reload" for _, name in after)


async def test_child_frame_world_is_made_when_the_frame_commits(session: BrowserSession,
                                                                demo_site: DemoSite) -> None:
    """A child frame that loads after the page's DOMContentLoaded (most do) gets its isolated world, with the
    listing's scripts, when it commits, not at the next listing: that listing makes no world and asks DevTools
    for no frame tree, and lists the frame."""
    page = session.page
    await prepare_worlds(session, page)
    await page.goto(demo_site.base_url + "/large?n=3")
    await list_interactives(session, limit=10)
    async with page.expect_event("framenavigated", lambda f: f.parent_frame is not None):
        await page.evaluate("(src) => { const f = document.createElement('iframe'); f.name = 'late'; f.src = src;"
                            " f.style.height = '300px'; document.body.prepend(f); }",
                            demo_site.base_url + "/large?n=2")
    late = page.frame(name="late")
    assert late is not None
    await late.wait_for_load_state("domcontentloaded")
    worlds = page_worlds(session, page)
    while worlds.children_warming is not None and not worlds.children_warming.done():
        await asyncio.wait({worlds.children_warming})  # the readying the commit started (and any after it)
    cdp = await page_cdp(session, page)
    assert cdp is not None
    sent: list[str] = []
    send = cdp.send

    async def counting(method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        sent.append(method)
        return await send(method, params)

    cdp.send = counting  # type: ignore[method-assign]
    try:
        listing = await list_interactives(session, limit=50)
    finally:
        del cdp.send
    assert any(i.frame != "main" and i.name == "Button 2" for i in listing.items), listing.items
    assert "Page.createIsolatedWorld" not in sent and "Page.getFrameTree" not in sent, sent
