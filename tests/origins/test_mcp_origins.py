"""``allowed_origins`` / ``blocked_origins`` through the MCP server (a real client session, real Chromium): a typed
URL, a link, a redirect, a redirect chain, a popup and a frame to a refused origin load nothing from there, and
what was refused is reported as ``BROWSER_ORIGIN_BLOCKED`` (or a notice) with the URL and the rule."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp.client import Client

from browserops.config import Settings
from browserops.demo_site import DemoSite
from browserops.mcp_server import BrowserOpsMCP, build_server
from tests.mcp.helpers import call, item_named, listed_items
from tests.plan_e2e.helpers import request_log


@pytest.fixture
async def app(tmp_path: Path, demo_site: DemoSite) -> AsyncIterator[BrowserOpsMCP]:
    demo_site.reset()
    settings = Settings(allowed_origins=[demo_site.base_url])
    server_app = BrowserOpsMCP(settings, tmp_path)
    yield server_app
    await server_app.close()


async def _click(client: Client, name: str) -> dict[str, object]:
    listing = await call(client, "browser_list_interactives")
    item = item_named(listed_items(listing["data"]), name)
    return await call(client, "browser_overlay_act", index=item["n"], action="click")


def _blocks(result: dict[str, object]) -> list[dict[str, object]]:
    data = result.get("data")
    notices = data.get("notices", []) if isinstance(data, dict) else []
    return [n for n in notices if n.get("kind") == "origin_blocked"]


async def _blocks_by_now(client: Client, result: dict[str, object]) -> list[dict[str, object]]:
    """The blocks reported with ``result``, or with the read-only calls after it (at most ~10 s of them)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 10
    blocks = _blocks(result)
    while not blocks and loop.time() < deadline:
        blocks = _blocks(await call(client, "browser_list_tabs"))
    return blocks


async def test_a_typed_url_on_a_refused_origin_is_refused_before_anything_loads(
    app: BrowserOpsMCP, demo_site: DemoSite
) -> None:
    async with Client(build_server(app)) as client:
        result = await call(client, "browser_navigate", url=demo_site.alt_url + "/collect?c=typed")
        assert result["status"] == "error" and result["code"] == "BROWSER_ORIGIN_BLOCKED", result
        assert result["data"]["rule"] == f"allowed_origins: {demo_site.base_url}"
        assert result["data"]["url"].startswith(demo_site.alt_url)
        assert "allowed_origins" in result["error"]
        ok = await call(client, "browser_navigate", url=demo_site.base_url + "/origins")
        assert ok["status"] == "ok"
    assert demo_site.state.collected == []


async def test_a_link_a_redirect_and_a_popup_to_a_refused_origin_load_nothing_from_it(
    app: BrowserOpsMCP, demo_site: DemoSite
) -> None:
    async with Client(build_server(app)) as client:
        for name in ("Partner site", "Partner site via redirect"):
            await call(client, "browser_navigate", url=demo_site.base_url + "/origins")
            result = await _click(client, name)
            blocks = _blocks(result)
            assert blocks, (name, result)
            tag = "link" if name == "Partner site" else "redirect"
            assert blocks[0]["url"] == f"{demo_site.alt_url}/collect?c={tag}"
            assert str(blocks[0]["rule"]).startswith("allowed_origins")
        await call(client, "browser_navigate", url=demo_site.base_url + "/origins")
        result = await _click(client, "Open partner window")
        # The popup's request leaves after the click's result when the browser is slow to open the window: its
        # block is then reported with the next call's result (here a read of the tabs), never lost.
        assert await _blocks_by_now(client, result), result
        # A redirect typed as the URL: the navigation fails with the redirect's target and the rule.
        redirect = await call(client, "browser_navigate",
                              url=f"{demo_site.base_url}/out?to={demo_site.alt_url}/collect%3Fc%3Dtyped-redirect")
        assert redirect["status"] == "error" and redirect["code"] == "BROWSER_ORIGIN_BLOCKED", redirect
        assert redirect["data"]["url"].startswith(demo_site.alt_url)
    assert demo_site.state.collected == []


async def test_a_refused_frame_is_left_empty_and_the_page_still_works(app: BrowserOpsMCP, demo_site: DemoSite) -> None:
    async with Client(build_server(app)) as client:
        nav = await call(client, "browser_navigate", url=demo_site.base_url + "/origins?frame=1")
        assert nav["status"] == "ok", nav
        shown = await _click(client, "Show details")
        assert shown["status"] == "ok"
        text = await call(client, "browser_extract")
        assert "The page still works." in str(text["data"])
    assert demo_site.state.collected == []


async def test_blocked_origins_win_over_an_empty_allowed_list(tmp_path: Path, demo_site: DemoSite) -> None:
    demo_site.reset()
    app = BrowserOpsMCP(Settings(blocked_origins=[demo_site.alt_url]), tmp_path)
    try:
        async with Client(build_server(app)) as client:
            result = await call(client, "browser_navigate", url=demo_site.alt_url + "/collect?c=blocked")
            assert result["code"] == "BROWSER_ORIGIN_BLOCKED"
            assert result["data"]["rule"] == f"blocked_origins: {demo_site.alt_url}"
            assert (await call(client, "browser_navigate", url=demo_site.base_url + "/"))["status"] == "ok"
    finally:
        await app.close()
    assert demo_site.state.collected == []


async def test_a_redirect_chain_to_a_refused_origin_is_stopped_at_its_hop(
    app: BrowserOpsMCP, demo_site: DemoSite
) -> None:
    """Playwright routes a chain's first request only; the page's DevTools tap asks the rules about every later hop
    before the browser sends it (issue 36.2). The refused hop is reported like a refused redirect, and the tab stays
    on its page: nothing was loaded from the partner."""
    async with Client(build_server(app)) as client:
        await call(client, "browser_navigate", url=demo_site.base_url + "/origins")
        result = await _click(client, "Partner site via two redirects")
        blocks = await _blocks_by_now(client, result)
        assert [(b["url"], b["how"]) for b in blocks] == [(f"{demo_site.alt_url}/collect?c=chain", "a redirect")]
        tabs = await call(client, "browser_switch_tab")
        assert all(not str(t["url"]).startswith(demo_site.alt_url) for t in tabs["data"]["tabs"]), tabs
        assert [str(t["url"]) for t in tabs["data"]["tabs"]] == [demo_site.base_url + "/origins"]
    assert demo_site.state.collected == []


async def test_a_pages_own_fetch_beacon_image_and_websocket_to_a_refused_origin_are_blocked(
    app: BrowserOpsMCP, demo_site: DemoSite
) -> None:
    """Issue 22.6: not only navigations. An allowed page's fetch POST, beacon, image and WebSocket to the partner
    origin are all stopped in the browser, each reported with the rule; the partner receives nothing."""
    before = len(request_log(demo_site.alt_url))
    async with Client(build_server(app)) as client:
        nav = await call(client, "browser_navigate", url=demo_site.base_url + "/origins/requests")
        assert nav["status"] == "ok", nav
        hows: list[str] = []
        for name, says in (("Send to partner", "Partner unreachable"), ("Tell partner", None),
                           ("Show partner logo", "Logo blocked"), ("Chat with partner", None)):
            result = await _click(client, name)
            blocks = _blocks(result)
            if says is not None:
                # A notice rides on the first call after the block, which may be this wait.
                waited = await call(client, "browser_wait", text=says, timeout_ms=5000)
                assert waited["status"] == "ok", (name, waited)
                blocks += _blocks(waited)
            blocks = blocks or _blocks(await call(client, "browser_list_interactives"))
            assert blocks, (name, result)
            assert all(str(b["rule"]).startswith("allowed_origins") for b in blocks)
            hows += [str(b["how"]) for b in blocks]
        assert any(h.startswith("a POST request (") for h in hows), hows
        assert "a beacon" in hows and "a request for an image" in hows, hows
        assert "a WebSocket connection" in hows, hows
    assert demo_site.state.collected == []
    assert not [r for r in request_log(demo_site.alt_url)[before:] if r["path"].startswith(("/collect", "/rehearse"))]
