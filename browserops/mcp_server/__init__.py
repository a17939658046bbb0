"""The MCP server (docs/design.md §11): the whole tool catalogue over stdio or streamable HTTP (official ``mcp`` SDK,
``MCPServer``), the agent as one ``browser_task`` tool, and the two phases — ``browser_prepare``, ``browser_run``
(after a person approves through the client's own question, MCP elicitation) and ``browser_evidence``.

``server`` is the server and its session; ``two_phase`` the three plan tools; ``approval`` how a person is asked
and what a model may not do in their place. How plans are made, run and shown is not here (``plan/``,
``twophase/``).
"""

from browserops.mcp_server.server import (
    DEFAULT_HTTP_PORT,
    INSTRUCTIONS,
    SERVER_NAME,
    AppToolHost,
    BrowserOpsMCP,
    annotations_for,
    build_server,
    serve_http,
    serve_stdio,
)
from browserops.mcp_server.wire import CONTRACT_SCHEMA, to_call_tool_result

__all__ = [
    "CONTRACT_SCHEMA", "DEFAULT_HTTP_PORT", "INSTRUCTIONS", "SERVER_NAME", "AppToolHost", "BrowserOpsMCP",
    "annotations_for", "build_server", "serve_http", "serve_stdio", "to_call_tool_result",
]
