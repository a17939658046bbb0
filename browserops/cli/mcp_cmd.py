"""``browserops mcp``: serve the tool catalogue to MCP clients over stdio or streamable HTTP."""

from __future__ import annotations

import asyncio

import click

from browserops.browser.launch.warm import closing_warm_browsers
from browserops.cli.context import CliState, pass_state
from browserops.cli.options import BrowserMode, browser_mode_options


@click.command("mcp")
@click.option("--http", "use_http", is_flag=True, help="Serve streamable HTTP on 127.0.0.1 instead of stdio.")
@click.option("--port", type=click.IntRange(1, 65535), default=8931, show_default=True,
              help="Port for --http (the endpoint is http://127.0.0.1:PORT/mcp).")
@browser_mode_options(profile_help="Use a persistent profile directory (log in once with --headed, reuse later).")
@pass_state
def mcp(state: CliState, use_http: bool, port: int, browser: BrowserMode) -> None:
    """Serve every browser tool to an MCP client; one browser session per server.

    \b
    The browser starts on the first tool call and restarts by itself after a crash. Calls run one at a
    time. Files (downloads, uploads with relative paths) live in the workspace. stdout carries the MCP
    protocol in stdio mode, so all messages go to stderr.

    \b
    Besides the catalogue: browser_task (the agent), and the two phases — browser_prepare, browser_run (the
    server asks the person to approve through the client, MCP elicitation; a client without it gets the
    read-only part and a `run --review` command for the person's terminal) and browser_evidence.

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
    from browserops.mcp_server import BrowserOpsMCP, serve_http, serve_stdio

    settings = state.loaded().settings
    app = BrowserOpsMCP(settings, state.workspace, browser.session_options(settings),
                        run_flags=browser.cli_args(with_headed=False))
    if use_http:
        state.progress(f"browserops MCP server on http://127.0.0.1:{port}/mcp (workspace {state.workspace}); "
                       "Ctrl+C to stop.")
        asyncio.run(closing_warm_browsers(serve_http(app, port)))
    else:
        asyncio.run(closing_warm_browsers(serve_stdio(app)))


COMMANDS = [mcp]
