"""``browserops mcp --http`` over streamable HTTP on 127.0.0.1, with a real MCP client session."""

from __future__ import annotations

import asyncio
import signal
import sys
from pathlib import Path

import httpx
from mcp.client import Client

from browserops.demo_site import DemoSite
from browserops.tools.registry import all_tools
from tests.mcp.helpers import FRONT_DOOR_TOOLS, browser_of_server, call, free_port, wait_listening
from tests.procs import child_env, wait_gone


async def test_streamable_http(workspace: Path, demo_site: DemoSite) -> None:
    port = free_port()
    env = child_env()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "browserops", "--workspace", str(workspace), "mcp", "--http", "--port", str(port),
        env=env, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
    )
    try:
        await wait_listening(port, proc)
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            names = {t.name for t in (await client.list_tools()).tools}
            assert names == {n for t in all_tools() for n in (t.name, *t.aliases)} | FRONT_DOOR_TOOLS
            nav = await call(client, "browser_navigate", url=demo_site.base_url + "/search?q=stapler")
            assert nav["status"] == "ok" and nav["data"]["title"] == "Search results"
            tabs = await call(client, "browser_switch_tab")
            assert [t["title"] for t in tabs["data"]["tabs"]] == ["Search results"]
        # A second client session talks to the same browser session (one per server process).
        async with Client(f"http://127.0.0.1:{port}/mcp") as client:
            tabs = await call(client, "browser_switch_tab")
            assert tabs["data"]["tabs"][0]["url"].endswith("/search?q=stapler")
        ours = browser_of_server(str(workspace), main_only=False)
        assert ours
        # A web page in the user's browser must not drive it (DNS rebinding / cross-site requests).
        async with httpx.AsyncClient() as http:
            foreign = await http.post(
                f"http://127.0.0.1:{port}/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                headers={"Origin": "http://evil.example", "Accept": "application/json, text/event-stream"},
            )
            assert foreign.status_code in (400, 403)
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = await asyncio.wait_for(proc.communicate(), timeout=20)
    assert b"http://127.0.0.1:" in err
    assert wait_gone(ours) == set()
