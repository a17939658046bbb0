"""Every hop under the origin rules, in an MCP session (issue 36.2): a page of the allowed site reaches a partner
origin only by ways Playwright's routes never see — a fetch and an image through the site's own open redirect, a form
post answered 302, a fetch POST answered 307, a beacon sent as the page goes, a WebSocket opened by a dedicated worker
(made from a blob, and from a script), a shared worker and a worker's own worker — and the partner, a raw TCP
listener recording every connection, receives nothing. Each refusal is reported as an ``origin_blocked`` notice, and
the page says each attack ran."""

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
        self.notices: list[dict[str, Any]] = []

    async def call(self, name: str, **args: Any) -> dict[str, Any]:
        result = await call(self.client, name, **args)
        data = result.get("data")
        notices = data.get("notices", []) if isinstance(data, dict) else []
        blocked = [n for n in notices if n.get("kind") == "origin_blocked"]
        self.notices += blocked
        self.hows += [str(n["how"]) for n in blocked]
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
                             ("Chat from a worker script", "worker chat refused"),
                             ("Post through a redirect", "Post refused"),  # a 307 would re-send its body
                             ("Chat from a shared worker", "shared worker refused: SecurityError"),
                             ("Chat from a worker's worker", "nested worker refused: SecurityError"),
                             ("Forge a refusal", "Refusal forged")):
            await session.click(button)
            await session.shows(says)
        # Answered 302 to the partner: the click itself did what it does (the post reached the allowed site), the
        # redirect's hop is refused before it leaves and said so, and the tab is back on the page.
        before = len(session.hows)
        posted = await session.click("Post and follow")
        assert posted["status"] == "ok" and "a redirect" in session.hows[before:], (posted, session.hows)
        await session.shows("Partner hops")
        await session.click("Leave this page")  # its pagehide listener sends a beacon to the partner
        for _ in range(50):  # a refusal a guard in the page tells is told with a result after it
            if {"a beacon", "a SharedWorker"} <= set(session.hows):
                break
            await session.call("browser_switch_tab")  # no index: lists the tabs
            await asyncio.sleep(0.1)
    assert partner.received == []
    hows = session.hows
    assert hows.count("a redirect") == 1, hows  # the form post's
    # Chromium's interception calls a fetch() "XHR": the hows are matched without the kind in brackets.
    hops = sorted(h.split(" (")[0] for h in hows if h.startswith("a redirect of"))
    assert hops == ["a redirect of a GET request", "a redirect of a POST request",
                    "a redirect of a request for an image"], hows
    assert hows.count("a WebSocket connection of a worker") == 2 and "a beacon" in hows, hows
    assert "a SharedWorker" in hows and "a Worker started from a worker" in hows, hows
    # The page's forged reports: words of its own never reach a notice's rule or kind (only its URL, as any
    # request's URL would).
    assert not any("SYSTEM" in h for h in hows), hows
    assert not any("SYSTEM" in str(n["rule"]) for n in session.notices), session.notices


async def test_a_worker_whose_page_navigates_before_its_guard_is_in_reaches_nothing(
        app: BrowserOpsMCP, demo_site: DemoSite, partner: Partner, late_guard: float) -> None:
    """The worker's guard is late (``late_guard``) and the page is navigated away at once: the navigation waits in
    the tap until the guard is in (Chromium lets go of a held worker whose document is being replaced)."""
    page = f"{demo_site.base_url}/origins/hops?partner={partner.url}"
    async with Client(build_server(app)) as client:
        session = Session(client)
        # The next navigation is the page's own document request (the tap holds it back), or about:blank, which
        # makes no request: browserops' own navigations wait for the guards too.
        for button, then in (("Chat from a worker", page), ("Chat from a worker script", page),
                             ("Chat from a worker", "about:blank"), ("Chat from a worker script", "about:blank")):
            assert (await session.call("browser_navigate", url=page))["status"] == "ok"
            await session.click(button)
            assert (await session.call("browser_navigate", url=then))["status"] == "ok"
    assert partner.received == []
