"""browser_close_banners in real Chromium: main page, iframe, shadow root, other languages, within budget."""

from __future__ import annotations

import pytest

from browserops.browser.launch.session import BrowserSession
from browserops.config import Settings
from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from browserops.tools.hooks import after_action
from browserops.tools.runner import MCP, ToolRunner
from tests.tools2.helpers import call, goto

# What is closed is tested here, not how fast: a roomy budget, so a loaded machine (another test worker starting
# browsers) cannot make the closer give up before it looked, nor before a clicked banner is gone (a cross-origin
# consent frame its parent removes on a message took over GONE_WAIT_MS once, with three workers on two cores: the
# wait after the last pass is now as long as a pass's budget where that is longer). The budget's own bound is
# test_a_tight_budget_is_honoured.
ROOMY = Settings(banners_total_budget_ms=20_000, banners_pass_budget_ms=10_000)
BUDGET_MS = ROOMY.banners_total_budget_ms


@pytest.fixture(autouse=True)
def _roomy_budget(tool_ctx: ToolContext) -> None:
    tool_ctx.settings = ROOMY


async def _cookie(session: BrowserSession, name: str) -> str | None:
    return next((c["value"] for c in await session.context.cookies() if c["name"] == name), None)


async def _content_clickable(session: BrowserSession) -> bool:
    """The page's own button can really be clicked (no overlay on top of it)."""
    await session.page.locator("#content-button").click(timeout=2000)
    return await session.page.locator("#content-status").text_content() == "Content clicked 1 times"


async def test_banner_in_the_main_page(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/")
    assert await session.page.locator("#cookie-consent").count() == 1
    result = await call(tool_ctx, "browser_close_banners")
    assert result["status"] == "ok", result
    data = result["data"]
    assert (data["found"], data["closed"]) == (1, 1)
    assert data["banners"] == [{"kind": "cookie", "frame": "main", "action": "reject", "control": "Reject",
                                "in_shadow_root": False, "closed": True,
                                "overlay": {"tag": "div", "id": "cookie-consent", "position": "fixed",
                                            "rect": [0, 0, 1280, 800]}}]
    assert "navigated" not in data
    assert data["spent_ms"] <= BUDGET_MS and data["passes"] <= 3
    assert await session.page.locator("#cookie-consent").count() == 0
    assert await _cookie(session, "consent") == "necessary"  # the privacy-friendly choice
    assert "list the elements again" in data["note"]


async def test_banner_in_an_iframe(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/banners/iframe")
    with pytest.raises(Exception, match=r"intercepts pointer events|Timeout"):
        await session.page.locator("#content-button").click(timeout=500)
    data = (await call(tool_ctx, "browser_close_banners"))["data"]
    assert (data["found"], data["closed"]) == (1, 1) and data["spent_ms"] <= BUDGET_MS
    assert data["banners"][0]["frame"].startswith("iframe ") and data["banners"][0]["frame"].endswith(
        "/banners/consent-frame"
    )
    assert await session.page.locator("#consent-frame").count() == 0
    assert await _content_clickable(session)


async def test_banner_in_a_cross_origin_iframe(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/banners/cross-frame")
    data = (await call(tool_ctx, "browser_close_banners"))["data"]
    assert (data["found"], data["closed"]) == (1, 1) and data["spent_ms"] <= BUDGET_MS
    assert data["banners"][0]["frame"] == f"iframe {demo_site.alt_url}/banners/consent-frame"
    assert data["banners"][0]["action"] == "reject"
    assert await session.page.locator("#consent-frame").count() == 0
    assert await _content_clickable(session)


async def test_banner_in_a_shadow_root(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/banners/shadow")
    data = (await call(tool_ctx, "browser_close_banners"))["data"]
    assert (data["found"], data["closed"]) == (1, 1) and data["spent_ms"] <= BUDGET_MS
    assert data["banners"][0]["in_shadow_root"] is True and data["banners"][0]["action"] == "reject"
    assert await session.page.locator("consent-banner").count() == 0
    assert await _content_clickable(session)


@pytest.mark.parametrize(("variant", "control"), [("ru", "Отклонить"), ("zh", "拒绝")])
async def test_banners_in_other_languages(tool_ctx: ToolContext, demo_site: DemoSite, variant: str,
                                          control: str) -> None:
    await goto(tool_ctx, demo_site.base_url + f"/banners/{variant}")
    data = (await call(tool_ctx, "browser_close_banners"))["data"]
    assert data["closed"] == 1 and data["banners"][0]["control"] == control
    assert await _content_clickable(tool_ctx.session)


async def test_newsletter_modal_is_closed_never_subscribed(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/banners/subscribe")
    data = (await call(tool_ctx, "browser_close_banners"))["data"]
    assert data["closed"] == 1 and data["banners"][0]["kind"] == "subscribe"
    assert data["banners"][0]["action"] == "close"
    assert await _cookie(session, "newsletter") == "dismissed"
    assert await _content_clickable(session)


@pytest.mark.parametrize("path", ["/dialogs", "/expense", "/pay", "/statements", "/frames", "/shadow"])
async def test_pages_without_banners_are_left_alone(tool_ctx: ToolContext, demo_site: DemoSite, path: str) -> None:
    await goto(tool_ctx, demo_site.base_url + path)
    before = await tool_ctx.session.page.content()
    data = (await call(tool_ctx, "browser_close_banners"))["data"]
    assert (data["found"], data["closed"], data["passes"]) == (0, 0, 1)
    assert await tool_ctx.session.page.content() == before


async def test_a_tight_budget_is_honoured(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    tool_ctx.settings = Settings(banners_total_budget_ms=300, banners_pass_budget_ms=200, banners_max_passes=2)
    await goto(tool_ctx, demo_site.base_url + "/")
    data = (await call(tool_ctx, "browser_close_banners"))["data"]
    assert data["passes"] <= 2
    # The budget bounds every page call; past it, releasing the clicked frame may still take its 50 ms minimum
    # (banners.release), and a loaded machine wakes the last await late: 100 ms of slack in all (CI saw 356).
    assert data["spent_ms"] <= 300 + 100


async def test_links_skip_links_and_inline_notices_are_never_clicked(tool_ctx: ToolContext,
                                                                      demo_site: DemoSite) -> None:
    """A fixed skip link, a cookie notice inside the article, a fixed bar whose controls are links (one to
    another page, one to "#"): none is an overlay's own button, so nothing is clicked and the URL stays."""
    session = tool_ctx.session
    url = demo_site.base_url + "/banners/traps"
    await goto(tool_ctx, url)
    data = (await call(tool_ctx, "browser_close_banners"))["data"]
    assert (data["found"], data["closed"]) == (0, 0) and "navigated" not in data
    assert session.page.url == url
    assert await session.page.locator("#inline-accept").text_content() == "Accept"
    assert demo_site.state.searches == []


async def test_a_click_that_navigates_is_cancelled_reported_and_stops_the_closer(tool_ctx: ToolContext,
                                                                               demo_site: DemoSite) -> None:
    session = tool_ctx.session
    url = demo_site.base_url + "/banners/navigating"
    data = (await ToolRunner(tool_ctx, MCP).call("browser_navigate", {"url": url}))["data"]
    assert session.page.url == url and demo_site.state.searches == []
    assert data["banners_auto_closed"]["found"] == 1
    [notice] = [n for n in data["notices"] if n.get("kind") == "error"]
    assert notice["code"] == "BROWSER_BANNER_NAVIGATED"
    evidence = notice["evidence"]
    assert evidence["frame"] == "main" and evidence["from"] == url and evidence["how"] == "cancelled"
    assert evidence["to"].endswith("/search?q=banner-navigated") and evidence["after_control"] == "Reject"
    # The closer stops on that page: the next page-changing call does not run it again.
    again = await after_action(tool_ctx, "browser_list_interactives", {"status": "ok", "data": {}}, {})
    assert again["ran"] is False and "stopped" in again["reason"]
    assert demo_site.state.searches == []
