"""Every hop under the origin rules, in an MCP session (issue 36.2): a page of the allowed site reaches a partner
origin only by ways Playwright's routes never see — a fetch and an image through the site's own open redirect, a form
post answered 302, a beacon sent as the page goes, a WebSocket opened by a dedicated worker (made from a blob, and
from a script) — and the partner, a raw TCP listener recording every connection, receives nothing. Each refusal is
reported as an ``origin_blocked`` notice, and the page says each attack ran."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client

from browserops.config import Settings
from browserops.demo_site import DemoSite
from browserops.mcp_server import BrowserOpsMCP, build_server
from tests.mcp.helpers import call, item_named, listed_items
from tests.partner import Partner


@pytest.fixture
async def app(tmp_path: Path, demo_site: DemoSite) -> AsyncIterator[BrowserOpsMCP]:
    server_app = BrowserOpsMCP(Settings(allowed_origins=[demo_site.base_url]), tmp_path)
    yield server_app
    await server_app.close()


class Session:
    """An MCP client that keeps every origin_blocked notice any call's result brought (a refusal is told with the
    first result after it, which may be a listing's)."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.hows: list[str] = []

    async def call(self, name: str, **args: Any) -> dict[str, Any]:
        result = await call(self.client, name, **args)
        data = result.get("data")
        notices = data.get("notices", []) if isinstance(data, dict) else []
        self.hows += [str(n["how"]) for n in notices if n.get("kind") == "origin_blocked"]
        return result

    async def click(self, name: str) -> dict[str, Any]:
        listing = await self.call("browser_list_interactives")
        item = item_named(listed_items(listing["data"]), name)
        return await self.call("browser_overlay_act", index=item["n"], action="click")

    async def shows(self, text: str) -> None:
        waited = await self.call("browser_wait", text=text, timeout_ms=8000)
        assert waited["status"] == "ok", (text, waited)


async def test_no_hop_of_any_request_reaches_a_refused_partner(app: BrowserOpsMCP, demo_site: DemoSite,
                                                                partner: Partner) -> None:
    page = f"{demo_site.base_url}/origins/hops?partner={partner.url}"
    async with Client(build_server(app)) as client:
        session = Session(client)
        assert (await session.call("browser_navigate", url=page))["status"] == "ok"
        for button, says in (("Fetch through a redirect", "Fetch refused"),
                             ("Show the redirected logo", "Logo refused"),
                             ("Chat from a worker", "worker chat refused"),
                             ("Chat from a worker script", "worker chat refused")):
            await session.click(button)
            await session.shows(says)
        # Answered 302 to the partner: the click itself did what it does (the post reached the allowed site), the
        # redirect's hop is refused before it leaves and said so, and the tab is back on the page.
        before = len(session.hows)
        posted = await session.click("Post and follow")
        assert posted["status"] == "ok" and "a redirect" in session.hows[before:], (posted, session.hows)
        await session.shows("Partner hops")
        await session.click("Leave this page")  # its pagehide listener sends a beacon to the partner
        for _ in range(50):  # the beacon's refusal is told with a result after it
            if "a beacon" in session.hows:
                break
            await session.call("browser_list_tabs")
            await asyncio.sleep(0.1)
    assert partner.received == []
    hows = session.hows
    assert hows.count("a redirect") == 3, hows  # the fetch's, the image's and the form post's
    assert hows.count("a WebSocket connection of a worker") == 2 and "a beacon" in hows, hows
