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


def _blocks(result: dict[str, Any]) -> list[dict[str, Any]]:
    data = result.get("data")
    notices = data.get("notices", []) if isinstance(data, dict) else []
    return [n for n in notices if n.get("kind") == "origin_blocked"]


async def _click(client: Client, name: str) -> dict[str, Any]:
    listing = await call(client, "browser_list_interactives")
    item = item_named(listed_items(listing["data"]), name)
    return await call(client, "browser_overlay_act", index=item["n"], action="click")


async def _status(client: Client, says: str) -> list[dict[str, Any]]:
    """Wait for the page's status line to say ``says``; the blocks reported meanwhile."""
    waited = await call(client, "browser_wait", text=says, timeout_ms=8000)
    assert waited["status"] == "ok", (says, waited)
    return _blocks(waited)


async def test_no_hop_of_any_request_reaches_a_refused_partner(app: BrowserOpsMCP, demo_site: DemoSite,
                                                                partner: Partner) -> None:
    page = f"{demo_site.base_url}/origins/hops?partner={partner.url}"
    hows: list[str] = []
    async with Client(build_server(app)) as client:
        assert (await call(client, "browser_navigate", url=page))["status"] == "ok"
        for button, says in (("Fetch through a redirect", "Fetch refused"),
                             ("Show the redirected logo", "Logo refused"),
                             ("Chat from a worker", "worker chat refused"),
                             ("Chat from a worker script", "worker chat refused")):
            clicked = await _click(client, button)
            hows += [b["how"] for b in _blocks(clicked) + await _status(client, says)]
        posted = await _click(client, "Post and follow")  # answered 302 to the partner: the hop is refused
        hows += [b["how"] for b in _blocks(posted)]
        assert (await call(client, "browser_navigate", url=page))["status"] == "ok"
        left = await _click(client, "Leave this page")  # its pagehide listener sends a beacon to the partner
        hows += [b["how"] for b in _blocks(left)]
        for _ in range(20):  # a beacon's block is told with the next call's result
            if "a beacon" in hows:
                break
            hows += [b["how"] for b in _blocks(await call(client, "browser_list_tabs"))]
            await asyncio.sleep(0.1)
    assert partner.received == []
    assert hows.count("a redirect") >= 3, hows  # the fetch's, the image's and the form post's
    assert hows.count("a WebSocket connection of a worker") == 2 and "a beacon" in hows, hows
