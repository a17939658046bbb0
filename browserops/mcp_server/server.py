"""The server itself: :class:`BrowserOpsMCP` (settings, workspace, one lazily started browser session, one lock), the
catalogue tools served from their definitions, ``browser_task``, and the two-phase tools of :mod:`.two_phase`.

One server process holds one browser session, started lazily on the first call. Calls are serialised with a lock: a
second concurrent call waits its turn and never interleaves with the first on the same page (docs/design.md §3.3:
one assistant, one session, one call at a time). If Chromium crashed, the next call restarts it and says so in
``data.browser_restarted``.

Each catalogue tool is registered with the input schema of its args model and annotations from its side-effect class;
the result is the tool contract ``{"status", "error"?, "code"?, "data"?}`` as JSON text and as structured content
(``isError`` set for ``status: "error"``). After page-changing tools the post-action banner hook runs
(``banners_auto_close``); what the session noticed meanwhile (a tab the site opened, a dialog) is returned in
``data.notices``.

``browser_task(goal, url?, max_steps?)`` runs the whole agent as a sub-agent over the same session (each of its tool
calls takes the lock like any other call) and returns its final summary; destructive actions come back as
``needs_approval`` instead of being executed (:mod:`browserops.agent.task`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, ToolAnnotations

from browserops import __version__
from browserops.agent.task import TASK_DESCRIPTION, TASK_TOOL, TaskArgs, run_task
from browserops.agent.toolspec import AGENT_META, ALIAS_META, SIDE_EFFECT_META, TRAITS_META, ToolSpec, catalogue_specs
from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.config import Settings
from browserops.contract import BrowserOpsError, SideEffect, ToolResult, error_from
from browserops.mcp_server.plan_tools import plan_tools
from browserops.mcp_server.two_phase import BrowserChoice, PlanTools
from browserops.mcp_server.wire import raw_metadata, to_call_tool_result
from browserops.privacy import use_workspace
from browserops.tools.context import ToolContext
from browserops.tools.definitions import ToolDef, all_definitions
from browserops.tools.runner import MCP, ToolRunner

StartBrowser = Callable[[], Awaitable[None]]

log = logging.getLogger(__name__)

SERVER_NAME = "browserops"
DEFAULT_HTTP_PORT = 8931

INSTRUCTIONS = (
    "Drive a real Chromium through numbered elements. Typical loop: browser_navigate(url) → "
    "browser_list_interactives() → act by number (browser_overlay_act) → list again. Numbers are valid only "
    "for the latest listing. Every result is {status, error?, code?, data?}; codes are stable BROWSER_* "
    "values and the error text says what to do next. data.notices reports tabs the site opened and dialogs. "
    "browser_task(goal) delegates a whole task to the built-in agent and returns its summary. To change a site "
    "with a person's approval: browser_prepare (read-only; returns the plan and its diff), then browser_run "
    "(request_id only: the server asks the person to approve through this client), then browser_evidence."
)


class BrowserOpsMCP:
    """The state behind the MCP tools: settings, workspace, one lazily started browser session, one lock.
    ``run_flags``: the browser-mode flags of the command line that started the server (``--profile DIR`` …), for a
    ``browserops run`` the person is told to type in a terminal."""

    def __init__(self, settings: Settings, workspace: Path, options: SessionOptions | None = None, *,
                 run_flags: Sequence[str] = ()) -> None:
        self.settings = settings
        self.workspace = workspace
        use_workspace(workspace)  # digests of typed text are keyed by this workspace's secret (privacy.py)
        self.options = options or SessionOptions.from_settings(settings)
        self.run_flags = list(run_flags)
        self.session: BrowserSession | None = None
        self.runner: ToolRunner | None = None
        self._lock = asyncio.Lock()

    async def _runner(self) -> ToolRunner:
        """The runner over the running session, started on the first call. A crashed browser is the runner's
        business (the :data:`~browserops.tools.runner.MCP` profile: restarted before the next call, and said so)."""
        if self.runner is None:
            session = BrowserSession(self.options)
            await session.start()
            self.session = session
            ctx = ToolContext(session=session, settings=self.settings, workspace=self.workspace)
            self.runner = ToolRunner(ctx, MCP)
        return self.runner

    async def call(self, name: str, arguments: Mapping[str, Any] | None = None) -> ToolResult:
        """Run one tool call after any call in progress has finished. Never raises (except cancellation)."""
        async with self._lock:
            try:
                runner = await self._runner()
            except BrowserOpsError as exc:
                return error_from(exc)
            return await runner.call(name, arguments)

    async def close(self) -> None:
        async with self._lock:
            await self._close()

    async def _close(self) -> None:
        if self.session is not None:
            await self.session.close()
            self.session = None
            self.runner = None

    # ------------------------------------------------------------------ the two phases' browser

    @asynccontextmanager
    async def plan_browser(self, choice: BrowserChoice) -> AsyncIterator[tuple[ToolContext, StartBrowser]]:
        """A browser for prepare or run, and the function that makes sure it runs (called by the lane's holder).
        ``server``: this server's own session, held (the lock) for the whole prepare or run, as a profile can be
        open in one browser only. ``fresh``: a new headless browser of the settings, closed afterwards."""
        if choice == "fresh":
            session = BrowserSession(SessionOptions.from_settings(self.settings))
            started = False

            async def start() -> None:
                nonlocal started
                if not started:
                    await session.start()
                    started = True

            try:
                yield ToolContext(session=session, settings=self.settings, workspace=self.workspace), start
            finally:
                if started:
                    await asyncio.shield(session.close())
            return
        async with self._lock:
            own = (await self._runner()).ctx.session

            async def alive() -> None:
                await own.ensure_alive()

            yield ToolContext(session=own, settings=self.settings, workspace=self.workspace), alive

    def browser_args(self, choice: BrowserChoice) -> list[str]:
        return list(self.run_flags) if choice == "server" else []

    async def release_profile(self, choice: BrowserChoice) -> bool:
        """Close this server's browser when a terminal run is to open the same profile (one browser per profile);
        the next tool call starts it again. True when it did."""
        if choice != "server" or self.options.profile_dir is None:
            return False
        async with self._lock:
            was_open = self.session is not None
            await self._close()
        return was_open


class AppToolHost:
    """The agent's view of this server's tools (for ``browser_task``): every call goes through
    :meth:`BrowserOpsMCP.call`, so it is serialised, restarts a crashed browser and runs the banner hook."""

    def __init__(self, app: BrowserOpsMCP) -> None:
        self.app = app
        self._specs = catalogue_specs()

    def tools(self) -> list[ToolSpec]:
        return list(self._specs)

    async def call(self, name: str, args: Mapping[str, Any]) -> ToolResult:
        return await self.app.call(name, args)

    async def health(self) -> bool:
        return self.app.session is not None and self.app.session.alive

    async def close(self) -> None:
        return None


def annotations_for(tool: ToolDef[Any]) -> ToolAnnotations:
    return ToolAnnotations(
        read_only_hint=tool.read_only,
        # Only acting on the page can change things on the site; exports and local writes add files.
        destructive_hint=tool.side_effect is SideEffect.BROWSER_ACT,
        idempotent_hint=False,
        open_world_hint=True,
    )


def _mcp_tool(app: BrowserOpsMCP, tool: ToolDef[Any], alias: str | None = None) -> Tool:
    """The tool as MCP lists it; with ``alias``, the same tool under another name it answers to (a client written
    against that name finds it listed), marked so that an agent is not offered it twice."""
    name = tool.name
    meta: dict[str, Any] = {SIDE_EFFECT_META: tool.side_effect.value, TRAITS_META: tool.traits.to_meta()}
    description = f"{tool.description} [side effect: {tool.side_effect.value}]"
    if alias is not None:
        meta[ALIAS_META] = name
        description = f"Another name of {name}. {description}"

    async def run(arguments: dict[str, Any]) -> CallToolResult:
        return to_call_tool_result(await app.call(name, arguments))

    return Tool(
        fn=run,
        name=alias or name,
        description=description,
        parameters=tool.input_schema(),
        fn_metadata=raw_metadata(),
        is_async=True,
        annotations=annotations_for(tool),
        meta=meta,
    )


def _task_tool(app: BrowserOpsMCP) -> Tool:
    async def run(arguments: dict[str, Any]) -> CallToolResult:
        return to_call_tool_result(await run_task(AppToolHost(app), app.settings, app.workspace, arguments))

    schema = TaskArgs.model_json_schema()
    schema.pop("title", None)
    return Tool(
        fn=run,
        name=TASK_TOOL,
        description=TASK_DESCRIPTION,
        parameters=schema,
        fn_metadata=raw_metadata(),
        is_async=True,
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, idempotent_hint=False,
                                    open_world_hint=True),
        meta={SIDE_EFFECT_META: SideEffect.BROWSER_ACT.value, AGENT_META: True},
    )


def build_server(app: BrowserOpsMCP) -> MCPServer:
    """An MCPServer serving every catalogue tool through ``app``, ``browser_task`` (the agent) and the two phases
    (``browser_prepare``, ``browser_run``, ``browser_evidence``)."""
    return MCPServer(
        SERVER_NAME,
        instructions=INSTRUCTIONS,
        version=__version__,
        tools=[_mcp_tool(app, tool) for tool in all_definitions()]
        + [_mcp_tool(app, tool, alias) for tool in all_definitions() for alias in tool.aliases]
        + [_task_tool(app)] + plan_tools(PlanTools(app)),
        log_level="WARNING",
    )


async def serve_stdio(app: BrowserOpsMCP) -> None:
    try:
        await build_server(app).run_stdio_async()
    finally:
        await app.close()


async def serve_http(app: BrowserOpsMCP, port: int = DEFAULT_HTTP_PORT) -> None:
    """Streamable HTTP on 127.0.0.1 only: the server drives a browser with the user's sessions in it."""
    try:
        await build_server(app).run_streamable_http_async(host="127.0.0.1", port=port)
    finally:
        await app.close()
