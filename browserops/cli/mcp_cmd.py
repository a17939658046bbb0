"""``browserops mcp``: serve the tool catalogue to MCP clients over stdio or streamable HTTP."""

from __future__ import annotations

import asyncio
from pathlib import Path

import click

from browserops.cli.context import CliState, pass_state


@click.command("mcp")
@click.option("--http", "use_http", is_flag=True, help="Serve streamable HTTP on 127.0.0.1 instead of stdio.")
@click.option("--port", type=click.IntRange(1, 65535), default=8931, show_default=True,
              help="Port for --http (the endpoint is http://127.0.0.1:PORT/mcp).")
@click.option("--headed", is_flag=True, help="Show the browser window.")
@click.option("--profile", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Use a persistent profile directory (log in once with --headed, reuse later).")
@click.option("--cdp-url", default=None, help="Attach to a running Chrome (e.g. http://127.0.0.1:9222).")
@click.option("--ws-endpoint", default=None, help="Connect to a Playwright server (ws://...).")
@pass_state
def mcp(state: CliState, use_http: bool, port: int, headed: bool, profile: Path | None, cdp_url: str | None,
        ws_endpoint: str | None) -> None:
    """Serve every browser tool to an MCP client; one browser session per server.

    \b
    The browser starts on the first tool call and restarts by itself after a crash. Calls run one at a
    time. Files (downloads, uploads with relative paths) live in the workspace. stdout carries the MCP
    protocol in stdio mode, so all messages go to stderr.

    \b
    Client config (Claude Desktop, Cursor, ...):
      {"mcpServers": {"browserops": {"command": "uv",
        "args": ["run", "--directory", "/path/to/browserops", "browserops", "mcp"]}}}

    \b
    Examples:
      browserops mcp                                   # stdio, headless
      browserops --workspace ~/ws mcp --headed         # watch it work; files under ~/ws
      browserops mcp --http --port 8931                # http://127.0.0.1:8931/mcp
      browserops mcp --profile ~/.browserops/profile   # keep logins between runs
      browserops --set banners_auto_close=false mcp    # no automatic banner closing
    """
    from browserops.browser.session import SessionOptions
    from browserops.mcp_server import BrowserOpsMCP, serve_http, serve_stdio

    settings = state.loaded().settings
    options = SessionOptions.from_settings(settings, profile_dir=profile, cdp_url=cdp_url, ws_endpoint=ws_endpoint,
                                           headed=headed or None)
    app = BrowserOpsMCP(settings, state.workspace, options)
    if use_http:
        state.progress(f"browserops MCP server on http://127.0.0.1:{port}/mcp (workspace {state.workspace}); "
                       "Ctrl+C to stop.")
        asyncio.run(serve_http(app, port))
    else:
        asyncio.run(serve_stdio(app))


COMMANDS = [mcp]
