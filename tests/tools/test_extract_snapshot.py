"""browser_extract, browser_snapshot, browser_screenshot and browser_observe."""

from __future__ import annotations

import base64
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from playwright.async_api import CDPSession, Page

from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.browser.page import reading
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from tests.logcapture import BrowseropsLog
from tests.tools.helpers import fails, ok, open_page
from tests.tools.png import Png


def png_file(path: str) -> tuple[Path, int]:
    """(path, size) of a PNG the tool wrote; fails if it is missing or not a PNG."""
    file = Path(path)
    assert file.is_file() and file.read_bytes()[:4] == b"\x89PNG", path
    return file, file.stat().st_size


async def test_extract_summary(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    data = await ok(tool_ctx, "browser_extract")
    assert data["title"] == "New expense" and data["url"].endswith("/expense")
    assert data["headings"][:2] == [[1, "New expense"], [2, "Expense details"]]
    assert data["counts"]["fields"] >= 9 and data["counts"]["forms"] == 1
    assert data["text"].startswith("New expense") and data["text_chars"] >= len(data["text"])
    await open_page(tool_ctx, demo_site.base_url + "/frames")
    data = await ok(tool_ctx, "browser_extract", mode="summary")
    frames = {f["url"].rsplit("/", 2)[-1]: f for f in data["frames"]}
    assert frames["cross"]["headings"] == [[2, "Cross-origin frame"]]
    assert frames["inner"]["messages"] == ["Inner clicked 0 times"]


async def test_extract_summary_reports_messages_and_dialogs(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/search?q=stapler&banner=force")
    data = await ok(tool_ctx, "browser_extract")
    assert "2 items found" in data["messages"]
    assert data["dialogs"] == ["We value your privacy"]


async def test_extract_text_includes_shadow_roots_and_frames_and_pages(
    tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/shadow")
    data = await ok(tool_ctx, "browser_extract", mode="text")
    assert "Nested shadow root" in data["text"] and "Shadow widget" in data["text"]
    assert "Light DOM button" in data["text"]
    await open_page(tool_ctx, demo_site.base_url + "/frames")
    await ok(tool_ctx, "browser_wait", state="load")
    data = await ok(tool_ctx, "browser_extract", mode="text")
    assert "Cross-origin button" in data["text"] and "[frame f" in data["text"]
    await open_page(tool_ctx, demo_site.base_url + "/large?n=400")
    first = await ok(tool_ctx, "browser_extract", mode="text", max_chars=500)
    assert len(first["text"]) == 500 and first["more"] > 0 and first["next"] == "offset=500"
    second = await ok(tool_ctx, "browser_extract", mode="text", max_chars=500, offset=500)
    assert second["text"] and second["text"] != first["text"]
    assert second["total_chars"] == first["total_chars"]
    bad = await fails(tool_ctx, "browser_extract", "BROWSER_INVALID_ARGS", mode="html")
    assert bad["data"]["fields"] == ["mode"]


async def test_snapshot_is_playwright_yaml_with_frames(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/frames")
    await ok(tool_ctx, "browser_wait", state="load")
    data = await ok(tool_ctx, "browser_snapshot")
    yaml = data["snapshot"]
    assert '- heading "Frames" [level=1]' in yaml
    assert 'button "Inner button"' in yaml and 'button "Cross-origin button"' in yaml  # both frames
    assert "[ref=" not in yaml
    assert data["chars"] == len(yaml) and "truncated" not in data
    short = await ok(tool_ctx, "browser_snapshot", max_chars=500)
    assert len(short["snapshot"]) == 500 and short["truncated"] is True


async def test_screenshot_is_saved_in_the_workspace(tool_ctx: ToolContext, demo_site: DemoSite,
                                                     workspace: Path) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/scroll")
    shot = await ok(tool_ctx, "browser_screenshot")
    path, size = png_file(shot["path"])
    assert path.parent == workspace / tool_ctx.settings.screenshots_dir
    assert (shot["width"], shot["height"]) == (1280, 800) and shot["bytes"] == size
    full = await ok(tool_ctx, "browser_screenshot", full_page=True)
    assert full["height"] > 2000 and full["path"] != shot["path"]


async def test_fast_screenshot_has_the_pixels_of_playwrights(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    # settings.fast_screenshots: straight from Chromium with its fast encoder; the image must be the same.
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    fast = await ok(tool_ctx, "browser_screenshot")
    tool_ctx.settings.fast_screenshots = False
    slow = await ok(tool_ctx, "browser_screenshot")
    assert (fast["width"], fast["height"]) == (slow["width"], slow["height"]) == (1280, 800)
    assert fast["bytes"] != slow["bytes"]  # two encoders made them (the fast one compresses less)
    rows = 120  # the heading and the first fields (pure-Python decoding is slow)
    assert Png(Path(fast["path"]), rows).rows == Png(Path(slow["path"]), rows).rows


async def test_observe_gives_listing_overlay_screenshot_and_summary(
    tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    page = tool_ctx.session.page
    async with tool_ctx.session.context.expect_page():  # a tab the site opened by itself
        await page.evaluate("() => window.open('/popup/target', '_blank')")
    data = await ok(tool_ctx, "browser_observe", limit=6)
    assert [i["n"] for i in data["items"]] == [1, 2, 3, 4, 5, 6] and data["total"] == 13
    assert data["overlay"]["shown"] == 6
    assert await page.evaluate("() => document.querySelector('browserops-overlay').shadowRoot"
                               ".querySelectorAll('.b').length") == 6
    png_file(data["screenshot"])
    assert data["summary"]["title"] == "New expense"
    assert any(n["kind"] == "new_tab" for n in data["notices"])
    # The observation's numbers are the latest listing: act on one.
    typed = await ok(tool_ctx, "browser_overlay_act", index=2, action="type", text="Acme")
    assert typed["target"]["name"] == "Merchant"
    again = await ok(tool_ctx, "browser_observe", screenshot=False)
    assert "screenshot" not in again and "notices" not in again


# Chromium's own refusal, as a starved renderer answers under load: a capture of an area far larger than any screen
# (30,000 pixels square), which it refuses each time; a third such capture in the same browser crashes it, and on
# a loaded machine the second can (CI, stop 39), so each refused capture is made in a browser of its own.
GIANT = {"clip": {"x": 0, "y": 0, "width": 30_000, "height": 30_000, "scale": 1}}


@contextlib.asynccontextmanager
async def own_page(demo_site: DemoSite) -> AsyncIterator[tuple[Page, CDPSession]]:
    async with BrowserSession(SessionOptions()) as session:
        await session.page.goto(demo_site.base_url + "/expense")
        yield session.page, await session.context.new_cdp_session(session.page)


async def test_a_screenshot_chromium_refuses_is_taken_again_once_the_page_has_loaded(
        demo_site: DemoSite, browserops_log: BrowseropsLog) -> None:
    asked: list[bool] = []
    async with own_page(demo_site) as (page, cdp):
        async def refused_first() -> bytes:
            asked.append(True)
            shot = await cdp.send("Page.captureScreenshot", {"format": "png", **(GIANT if len(asked) == 1 else {})})
            return base64.b64decode(shot["data"])

        png = await reading.taken_again_if_refused(refused_first, page, 10_000)
    assert png[:4] == b"\x89PNG" and len(asked) == 2
    assert "Chromium refused a screenshot" in browserops_log.text()


async def test_a_screenshot_refused_twice_says_so_with_its_own_code(demo_site: DemoSite) -> None:
    async with own_page(demo_site) as (page, first), own_page(demo_site) as (_, second):
        browsers = [first, second]

        async def refused() -> bytes:
            await browsers.pop(0).send("Page.captureScreenshot", {"format": "png", **GIANT})
            raise AssertionError("Chromium took a shot of 30,000 x 30,000 pixels")

        with pytest.raises(BrowserOpsError) as failed:
            await reading.taken_again_if_refused(refused, page, 10_000)
    assert failed.value.code is ErrorCode.SCREENSHOT_FAILED
    assert "refused the screenshot twice" in str(failed.value) and "Take it again" in str(failed.value)
