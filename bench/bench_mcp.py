"""Cost of serving a tool over MCP: the same navigation through raw Playwright (baseline), the catalogue
called directly, the MCP server in process, and ``browserops mcp`` over stdio. Prints JSON.

    uv run python bench/bench_mcp.py [--rounds 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.config import Settings
from browserops.demo_site import DemoSite
from browserops.mcp_server import BrowserOpsMCP, build_server
from browserops.tools.context import ToolContext
from browserops.tools.runner import BARE, ToolRunner


async def call_tool(name: str, ctx: ToolContext, args: dict[str, Any] | None = None) -> dict[str, Any]:
    """One tool alone (the BARE profile: no hooks), as the measurement wants it."""
    return (await ToolRunner(ctx, BARE).call(name, args)).to_wire()


async def _time(rounds: int, once: Callable[[int], Awaitable[object]]) -> float:
    await once(-1)  # warm-up (and, for the servers, the lazy browser start)
    samples = []
    for i in range(rounds):
        started = time.perf_counter()
        await once(i)
        samples.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(samples), 1)


async def main(rounds: int) -> dict[str, object]:
    workspace = Path(tempfile.mkdtemp(prefix="bench-mcp-"))
    out: dict[str, float] = {}
    with DemoSite() as site:
        def url(i: int) -> str:
            return f"{site.base_url}/search?q=item{i}&nobanner=1"

        async with BrowserSession(SessionOptions()) as session:
            page = session.page

            async def raw(i: int) -> None:
                await page.goto(url(i), wait_until="domcontentloaded")

            out["raw_playwright_ms"] = await _time(rounds, raw)
            ctx = ToolContext(session=session, settings=Settings(), workspace=workspace)

            async def direct(i: int) -> None:
                assert (await call_tool("browser_navigate", ctx, {"url": url(i)}))["status"] == "ok"

            out["catalogue_direct_ms"] = await _time(rounds, direct)

        app = BrowserOpsMCP(Settings(), workspace)
        try:
            async with Client(build_server(app)) as client:
                async def inproc(i: int) -> None:
                    assert not (await client.call_tool("browser_navigate", {"url": url(i)})).is_error

                out["mcp_in_process_ms"] = await _time(rounds, inproc)
        finally:
            await app.close()

        env = {k: v for k, v in os.environ.items() if not k.startswith("BROWSEROPS_")}
        params = StdioServerParameters(command=sys.executable,
                                       args=["-m", "browserops", "--workspace", str(workspace), "mcp"], env=env)
        async with Client(params) as client:
            async def stdio(i: int) -> None:
                assert not (await client.call_tool("browser_navigate", {"url": url(i)})).is_error

            out["mcp_stdio_ms"] = await _time(rounds, stdio)
    base = out["raw_playwright_ms"]
    return {
        "benchmark": "mcp navigate",
        "rounds": rounds,
        "median_ms": out,
        "overhead_vs_raw_ms": {k: round(v - base, 1) for k, v in out.items() if k != "raw_playwright_ms"},
        "note": "the MCP server also runs the post-action banner hook (one scan on a clean page)",
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    print(json.dumps(asyncio.run(main(parser.parse_args().rounds)), indent=2))
