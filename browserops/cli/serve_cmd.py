"""``browserops serve``: the HTTP front door — SSE events, WebSocket chat and the accessible chat page."""

from __future__ import annotations

import asyncio

import click

from browserops.browser.launch.warm import closing_warm_browsers
from browserops.chat.api import check_session_id
from browserops.cli.chat_runtime import browser_options, chat_runtime
from browserops.cli.context import CliState, pass_state
from browserops.cli.options import BrowserMode
from browserops.server.chat_server import DEFAULT_PORT, ChatServer


@click.command("serve")
@click.option("--port", type=click.IntRange(0, 65535), default=DEFAULT_PORT, show_default=True,
              help="Port on 127.0.0.1 (0 picks a free one). The server never listens on other interfaces.")
@browser_options
@pass_state
def serve(state: CliState, port: int, url: str | None, browser: BrowserMode, session_id: str) -> None:
    """Serve the chat on 127.0.0.1: chat page at /, SSE at /events, WebSocket at /ws.

    \b
    Prints two tokens: the owner's (chat, confirm, stop) and a read-only viewer's (watch only).
    Every endpoint needs one, as 'Authorization: Bearer TOKEN' or '?token=TOKEN'.
    Open the printed owner URL in a browser for the accessible chat page. Ctrl+C stops.

    \b
    Endpoints (all take ?session=ID, default "default"):
      GET /                   chat page (keyboard-operable, live region, high contrast)
      GET /events             SSE: observation, tool_call, tool_result, policy_request, policy_result,
                              error, final, status, agent_message, agent_question, manual_stop
      WS  /ws                 in: user_message, confirm, stop (owner only); out: chat events
      GET /api/state          the session's state as JSON
      GET /screenshot/latest  the latest numbered screenshot (PNG)

    \b
    Examples:
      browserops serve --url https://example.com
      browserops serve --port 0 --json                     # free port; URL and tokens as JSON
      browserops serve --cdp-url http://127.0.0.1:9222     # drive the browser you already opened
      curl -N -H "Authorization: Bearer $VIEWER" http://127.0.0.1:8770/events
    """
    check_session_id(session_id)

    async def main() -> None:
        async with chat_runtime(state, url=url, browser=browser) as engine:
            server = ChatServer(engine, port=port, handle_signals=True)
            await server.start()
            owner_url = server.page_url(server.tokens.owner, session_id)
            viewer_url = server.page_url(server.tokens.viewer, session_id)
            if state.json_output:
                state.emit_json({"status": "ok", "url": server.url, "port": server.port, "session": session_id,
                                 "owner_token": server.tokens.owner, "viewer_token": server.tokens.viewer,
                                 "owner_url": owner_url, "viewer_url": viewer_url})
            else:
                click.echo(f"Chat server on {server.url} (session {session_id!r}); Ctrl+C stops.")
                click.echo(f"Owner page:   {owner_url}")
                click.echo(f"Viewer page:  {viewer_url}")
                click.echo(f"Owner token:  {server.tokens.owner}")
                click.echo(f"Viewer token: {server.tokens.viewer}")
            await server.wait_closed()
        state.progress("Server stopped.")

    asyncio.run(closing_warm_browsers(main()))


COMMANDS = [serve]
