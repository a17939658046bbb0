"""``browserops mcp`` as a subprocess over stdio, with a real MCP client session."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from browserops.demo_site import DemoSite
from browserops.tools.registry import all_tools
from tests.mcp.helpers import FRONT_DOOR_TOOLS, browser_of_server, call, item_named, listed_items
from tests.procs import child_env, wait_gone


def server_params(workspace: Path, *extra: str) -> StdioServerParameters:
    env = child_env()
    return StdioServerParameters(
        command=sys.executable, args=["-m", "browserops", "--workspace", str(workspace), "mcp", *extra], env=env,
    )


async def test_stdio_session_end_to_end(workspace: Path, demo_site: DemoSite) -> None:
    async with Client(server_params(workspace)) as client:
        names = {t.name for t in (await client.list_tools()).tools}
        assert names == {n for t in all_tools() for n in (t.name, *t.aliases)} | FRONT_DOOR_TOOLS
        # The browser starts lazily: nothing runs before the first call.
        assert not browser_of_server(str(workspace))

        nav = await call(client, "browser_navigate", url=demo_site.base_url + "/search?q=pen")
        assert nav["status"] == "ok" and nav["data"]["title"] == "Search results"
        assert len(browser_of_server(str(workspace))) == 1

        # Two concurrent calls over one stdio session run one after the other.
        slow = demo_site.base_url + "/slow?ms=600&nobanner=1"
        started = time.monotonic()
        first, second = await asyncio.gather(call(client, "browser_navigate", url=slow + "&n=1"),
                                             call(client, "browser_navigate", url=slow + "&n=2"))
        assert first["status"] == second["status"] == "ok", (first, second)
        assert time.monotonic() - started >= 1.2

        # Chromium is killed under the server: the next call restarts it and says so.
        (browser_pid,) = browser_of_server(str(workspace))
        os.kill(browser_pid, signal.SIGKILL)
        assert not wait_gone({browser_pid}), "the killed Chromium is still there"
        again = await call(client, "browser_navigate", url=demo_site.base_url + "/search?q=ink")
        assert again["status"] == "ok", again
        assert "restarted" in str(again["data"]["browser_restarted"])
        assert browser_of_server(str(workspace)) not in (set(), {browser_pid})

        ours = browser_of_server(str(workspace), main_only=False)
        assert len(ours) > 1
    # Closing the session ends the server and its browser: nothing is left behind.
    assert wait_gone(ours) == set()


async def test_stdio_navigate_list_act_on_the_demo_form(workspace: Path, demo_site: DemoSite) -> None:
    async with Client(server_params(workspace)) as client:
        await _form_scenario(client, demo_site)


async def _form_scenario(client: Client, demo_site: DemoSite) -> None:
    await call(client, "browser_navigate", url=demo_site.base_url + "/expense")
    items = listed_items((await call(client, "browser_list_interactives"))["data"])
    merchant = item_named(items, "Merchant")
    typed = await call(client, "browser_overlay_act", index=merchant["n"], action="type", text="Paper Co")
    assert typed["status"] == "ok", typed
    amount = item_named(items, "Amount")
    assert (await call(client, "browser_overlay_act", index=amount["n"], action="type", text="3.20"))["status"] == "ok"
    submit = item_named(listed_items((await call(client, "browser_list_interactives"))["data"]), "Submit expense")
    assert (await call(client, "browser_overlay_act", index=submit["n"], action="click"))["status"] == "ok"
    # The site records the submission before it redirects to the confirmation page.
    landed = await call(client, "browser_wait", url_contains="/expense/confirmation/", timeout_ms=15_000)
    assert landed["status"] == "ok", landed
    assert demo_site.state.snapshot()["submissions"][-1]["merchant"] == "Paper Co"
