"""Frames measured through DevTools (two calls per frame) sit exactly where Playwright's frame_element and
bounding box put them, nested frames, borders, padding and scrolling included."""

from __future__ import annotations

from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.frames import visible_frames
from browserops.browser.numbering.isolated import frame_worlds

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
