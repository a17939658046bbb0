"""browser_overlay_show/hide: badges with the listing's numbers, readable (contrast >= 7:1), click-through,
in frames and shadow roots, removed cleanly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Frame

from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from tests.tools.helpers import by_name, listed, ok, open_page
from tests.tools.png import Png

BADGES_JS = """() => {
  const host = document.querySelector('browserops-overlay');
  if (!host) { return []; }
  return Array.from(host.shadowRoot.querySelectorAll('.b')).map((b) => {
    const cs = getComputedStyle(b); const r = b.getBoundingClientRect();
    return {text: b.textContent, fg: cs.color, bg: cs.backgroundColor, pe: cs.pointerEvents,
            hidden: b.hidden, x: r.x, y: r.y, w: r.width, h: r.height};
  });
}"""


def _rgb(css: str) -> tuple[int, int, int]:
    inside = css[css.index("(") + 1 : css.index(")")].replace("/", " ").replace(",", " ").split()
    return int(float(inside[0])), int(float(inside[1])), int(float(inside[2]))


def _luminance(rgb: tuple[int, int, int]) -> float:
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(fg: str, bg: str) -> float:
    a, b = sorted((_luminance(_rgb(fg)), _luminance(_rgb(bg))), reverse=True)
    return (a + 0.05) / (b + 0.05)


async def badges(frame: Any) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = await frame.evaluate(BADGES_JS)
    return result


def child_frame(ctx: ToolContext, path: str) -> Frame:
    return next(f for f in ctx.session.page.frames if f.url.endswith(path))


@pytest.mark.parametrize("scheme", ["dark", "blue", "light"])
async def test_badge_contrast_is_at_least_7_to_1(tool_ctx: ToolContext, demo_site: DemoSite, scheme: str) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    items = await listed(tool_ctx)
    data = await ok(tool_ctx, "browser_overlay_show", scheme=scheme)
    assert data["shown"] == len(items) and data["scheme"] == scheme
    drawn = await badges(tool_ctx.session.page)
    assert [b["text"] for b in drawn] == [str(i["n"]) for i in items]
    for b in drawn:
        assert contrast(b["fg"], b["bg"]) >= 7.0, b
        assert b["pe"] == "none"


async def test_screenshot_shows_the_numbers(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/frames")
    await listed(tool_ctx)
    await ok(tool_ctx, "browser_overlay_show")
    first = (await badges(tool_ctx.session.page))[0]
    assert first["text"] == "1" and not first["hidden"]
    shot = await ok(tool_ctx, "browser_screenshot")
    png = Png(Path(shot["path"]), max_rows=int(first["y"] + first["h"]) + 1)
    bg, fg = _rgb(first["bg"]), _rgb(first["fg"])
    near = lambda p, c: sum(abs(a - b) for a, b in zip(p, c, strict=True)) < 60  # noqa: E731
    pixels = [png.pixel(x, y) for x in range(int(first["x"]) + 3, int(first["x"] + first["w"]) - 3)
              for y in range(int(first["y"]) + 3, int(first["y"] + first["h"]) - 3)]
    bg_share = sum(near(p, bg) for p in pixels) / len(pixels)
    fg_share = sum(near(p, fg) for p in pixels) / len(pixels)
    assert bg_share > 0.3 and fg_share > 0.05, (bg_share, fg_share)


async def test_badges_in_frames_and_shadow_roots(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/frames")
    items = await listed(tool_ctx)
    await ok(tool_ctx, "browser_overlay_show")
    inner = [b["text"] for b in await badges(child_frame(tool_ctx, "/frames/inner"))]
    cross = [b["text"] for b in await badges(child_frame(tool_ctx, "/frames/cross"))]
    assert inner == [str(by_name(items, n)["n"]) for n in ("Inner name", "Inner button", "Clear inner name")]
    assert cross == [str(by_name(items, n)["n"]) for n in ("Cross field", "Cross-origin button")]
    await open_page(tool_ctx, demo_site.base_url + "/shadow")
    items = await listed(tool_ctx, ids=True)
    await ok(tool_ctx, "browser_overlay_show")
    drawn = await badges(tool_ctx.session.page)
    assert len(drawn) == len(items) == 5 and not any(b["hidden"] for b in drawn)
    deep = by_name(items, "Deep shadow button")
    box = await tool_ctx.session.page.locator(f'[data-blind-id="{deep["id"]}"]').bounding_box()
    assert box is not None
    badge = next(b for b in drawn if b["text"] == str(deep["n"]))
    assert abs(badge["x"] - box["x"]) < 12 and abs(badge["y"] - box["y"]) < 12


async def test_badges_do_not_intercept_clicks(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/shadow")
    items = await listed(tool_ctx, ids=True)
    await ok(tool_ctx, "browser_overlay_show")
    page = tool_ctx.session.page
    badge = (await badges(page))[-1]
    hit = await page.evaluate(
        "([x, y]) => document.elementFromPoint(x, y).localName", [badge["x"] + 4, badge["y"] + 4]
    )
    assert hit != "browserops-overlay"
    # A real mouse click through the badge area lands on the page.
    await page.mouse.click(badge["x"] + badge["w"] - 2, badge["y"] + badge["h"] - 2)
    await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Shadow button")["n"])
    assert await page.locator("#shadow-status").inner_text() == "Shadow clicked 1"


async def test_hide_removes_everything_and_relisting_redraws(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/frames")
    await listed(tool_ctx)
    await ok(tool_ctx, "browser_overlay_show")
    await ok(tool_ctx, "browser_list_interactives", limit=2, offset=5)
    assert [b["text"] for b in await badges(tool_ctx.session.page)] == ["7"]
    assert [b["text"] for b in await badges(child_frame(tool_ctx, "/frames/cross"))] == ["6"]
    assert await badges(child_frame(tool_ctx, "/frames/inner")) == []
    hidden = await ok(tool_ctx, "browser_overlay_hide")
    assert hidden["removed"] == 2  # the hosts of the main and the cross-origin frame
    for frame in tool_ctx.session.page.frames:
        assert await frame.evaluate("() => document.querySelectorAll('browserops-overlay').length") == 0
    # Once hidden, a new listing does not bring badges back.
    await listed(tool_ctx)
    assert await badges(tool_ctx.session.page) == []


async def test_overlay_show_lists_when_there_is_no_listing(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/shadow")
    data = await ok(tool_ctx, "browser_overlay_show")
    assert data["shown"] == 5 and data["listed"]["total"] == 5 and data["numbers"] == "1-5"
