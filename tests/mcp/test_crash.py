"""Fault injection over MCP: the server's Chromium is SIGKILLed as a call of each kind begins (before the tool
sends anything to the browser). The call ends within 10 s with ``BROWSER_CRASHED`` naming the tool, never an
``ok`` from a dead browser, a hang or a raise; the next call restarts the browser and says so in
``data.browser_restarted``."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator, Mapping
from typing import Any

import pytest
from mcp.client import Client

from browserops.browser.launch.session import SessionOptions
from browserops.config import Settings
from browserops.demo_site import DemoSite
from browserops.mcp_server import BrowserOpsMCP, build_server
from browserops.tools.definitions import ToolDef
from tests.mcp.helpers import call, item_named, kill_browser_with_marker, listed_items

MARKER = f"--browserops-test-marker={uuid.uuid4().hex}"
EXIT_WITHIN_S = 10.0


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BrowserOpsMCP]:
    settings = Settings()
    options = SessionOptions.from_settings(settings)
    options.extra_args.append(MARKER)  # so the test kills exactly this server's browser
    server_app = BrowserOpsMCP(settings, tmp_path_factory.mktemp("mcp-crash-ws"), options)
    yield server_app
    await server_app.close()


def _kill_on_next_call(app: BrowserOpsMCP) -> tuple[list[int], Any]:
    """A one-shot guard in the server's runner (the slot an origin policy uses) that kills the browser as the
    next call begins: the tool then runs while Chromium dies under it."""
    assert app.runner is not None
    killed: list[int] = []

    async def killer(tool: ToolDef[Any], args: Mapping[str, Any]) -> None:
        if not killed:
            killed.append(kill_browser_with_marker(MARKER))

    app.runner.guards.append(killer)
    return killed, killer


async def _args_for(client: Client, tool: str, base_url: str) -> dict[str, Any]:
    await call(client, "browser_navigate", url=base_url + "/expense")
    items = listed_items((await call(client, "browser_list_interactives", ids=True))["data"])
    merchant = item_named(items, "Merchant")
    return {
        "browser_navigate": {"url": base_url + "/search?q=pen"},
        "browser_list_interactives": {},
        "browser_overlay_act": {"index": merchant["n"], "action": "type", "text": "Crash Café"},
        "browser_act_by_index": {"id": merchant["id"], "action": "click"},
        "browser_screenshot": {},
        "browser_snapshot": {},
        "browser_extract": {"mode": "text"},
        "browser_find": {"text": "Amount"},
        "browser_wait": {"state": "settled", "timeout_ms": 3000},
        "browser_inspect": {"id": merchant["n"]},
    }[tool]


TOOLS = ["browser_navigate", "browser_list_interactives", "browser_overlay_act", "browser_act_by_index",
         "browser_screenshot", "browser_snapshot", "browser_extract", "browser_find", "browser_wait",
         "browser_inspect"]


@pytest.mark.parametrize("tool", TOOLS)
async def test_a_killed_browser_is_reported_and_the_next_call_restarts_it(app: BrowserOpsMCP, demo_site: DemoSite,
                                                                         tool: str) -> None:
    async with Client(build_server(app)) as client:
        args = await _args_for(client, tool, demo_site.base_url)
        killed, killer = _kill_on_next_call(app)
        started = time.monotonic()
        try:
            result = await asyncio.wait_for(call(client, tool, **args), EXIT_WITHIN_S)
        finally:
            assert app.runner is not None
            app.runner.guards.remove(killer)
        assert killed == [1] and time.monotonic() - started < EXIT_WITHIN_S
        assert result["status"] == "error" and result["code"] == "BROWSER_CRASHED", result
        assert f"crashed while running {tool}" in result["error"] and "next call restarts" in result["error"]
        # The browser is gone now; the next call brings it back and says so.
        for _ in range(200):
            if app.session is not None and not app.session.alive:
                break
            await asyncio.sleep(0.01)
        again = await asyncio.wait_for(call(client, "browser_navigate", url=demo_site.base_url + "/search"),
                                       EXIT_WITHIN_S)
        assert again["status"] == "ok", again
        assert "restarted" in again["data"]["browser_restarted"]
        later = await call(client, "browser_list_interactives")
        assert later["status"] == "ok" and "browser_restarted" not in later["data"]
