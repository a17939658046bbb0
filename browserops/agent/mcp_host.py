"""``MCPToolHost``: the loop's tools served by a ``browserops mcp`` subprocess over an MCP client session.

The agent's bridge to an MCP server (docs/design.md §11): the subprocess is started on first use
(``python -m browserops --workspace WS mcp``) and the tools are the server's own list (names, descriptions,
schemas, side-effect class from ``_meta["browserops/side_effect"]`` and the other traits from
``_meta["browserops/traits"]``). A health check tells whether the server answers. When the subprocess dies, the
next call restarts it and the step is retried once — but only when it surely did not run before (the health
check is a ``tools/list`` round trip, bypassing the client's cache; a server that does not answer within
``health_timeout_s`` counts as hung and is replaced):

- a call that is safe to run twice (:func:`~browserops.tools.definitions.retry_safe`, the runner's rule too: a
  read-only tool or a pure read) is retried after the restart whatever happened;
- any other call is sent only after a successful health check. If it fails, the server is restarted *before*
  the call is sent, so it runs exactly once. If the server dies after the check, while the call is in flight,
  nobody can tell whether it ran: it is **not** retried and comes back as ``BROWSER_CRASHED`` saying so, and
  the next call restarts the server.

Each client session lives in a task of its own (anyio requires a task group to be exited in the task that
entered it), so calls, restarts and closing may come from any task.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO

from mcp.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from browserops.agent.toolspec import AGENT_META, ALIAS_META, SIDE_EFFECT_META, TRAITS_META, ToolSpec
from browserops.contract import ErrorCode, SideEffect, ToolResult, ToolTraits, error
from browserops.tools.definitions import retry_safe

log = logging.getLogger(__name__)

HEALTH_TIMEOUT_S = 10.0
READ_TIMEOUT_S = 300.0  # a browser_wait may take minutes; a hung server is caught by the check before acting


def _errlog() -> TextIO:
    """Where the server's stderr goes: ours, or the process's own when ours is not a real file (CliRunner)."""
    try:
        sys.stderr.fileno()
        return sys.stderr
    except (OSError, ValueError, AttributeError):
        return sys.__stderr__ or sys.stderr


def _side_effect(meta: Mapping[str, Any] | None) -> SideEffect:
    raw = (meta or {}).get(SIDE_EFFECT_META)
    try:
        return SideEffect(str(raw))
    except ValueError:
        return SideEffect.BROWSER_ACT  # unknown: treat as acting, the strict choice


class MCPToolHost:
    def __init__(self, command: str, args: Sequence[str], *, env: Mapping[str, str] | None = None,
                 read_timeout_s: float = READ_TIMEOUT_S, health_timeout_s: float = HEALTH_TIMEOUT_S) -> None:
        self.params = StdioServerParameters(command=command, args=list(args), env=dict(env) if env else None)
        self.read_timeout_s = read_timeout_s
        self.health_timeout_s = health_timeout_s
        self.restarts = 0
        self.starts = 0
        self._client: Client | None = None
        self._stop: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._specs: list[ToolSpec] = []

    @classmethod
    def for_workspace(cls, workspace: Path, *, global_args: Sequence[str] = (), mcp_args: Sequence[str] = (),
                      env: Mapping[str, str] | None = None, **kwargs: Any) -> MCPToolHost:
        """``python -m browserops --workspace WS [global args] mcp [mcp args]`` with this interpreter."""
        args = ["-m", "browserops", "--workspace", str(workspace), *global_args, "mcp", *mcp_args]
        return cls(sys.executable, args, env=env, **kwargs)

    @classmethod
    def for_cli(cls, workspace: Path, *, mode_args: list[str], overrides: Mapping[str, Any]) -> MCPToolHost:
        """The subprocess for ``browserops agent --mcp``: the same settings overrides and browser-mode flags."""
        global_args = [f"--set={key}={value}" for key, value in overrides.items() if key != "log_level"]
        mcp_args = list(mode_args)
        env = {k: v for k, v in os.environ.items() if k.startswith("BROWSEROPS_")}
        return cls.for_workspace(workspace, global_args=global_args, mcp_args=mcp_args, env=env)

    # -- lifecycle ------------------------------------------------------------------------------------------
    async def start(self) -> None:
        """Start the subprocess and read its tool list."""
        ready: asyncio.Future[Client] = asyncio.get_running_loop().create_future()
        stop = asyncio.Event()
        task = asyncio.create_task(self._connection(ready, stop), name="browserops-mcp-client")
        try:
            client = await ready
            listed = await client.list_tools()
        except BaseException:
            stop.set()
            with contextlib.suppress(BaseException):
                await task
            raise
        self._client, self._stop, self._task = client, stop, task
        self.starts += 1
        self._specs = [
            ToolSpec(name=t.name, description=t.description or "", input_schema=dict(t.input_schema),
                     traits=ToolTraits.from_meta((t.meta or {}).get(TRAITS_META), _side_effect(t.meta)))
            for t in listed.tools if not (t.meta or {}).get(AGENT_META) and not (t.meta or {}).get(ALIAS_META)
        ]

    async def _connection(self, ready: asyncio.Future[Client], stop: asyncio.Event) -> None:
        """Owns one client session from enter to exit: anyio requires both in the same task, and calls (and
        restarts) may come from any task."""
        try:
            transport = stdio_client(self.params, errlog=_errlog())
            async with Client(transport, read_timeout_seconds=self.read_timeout_s) as client:
                ready.set_result(client)
                await stop.wait()
        except Exception as exc:
            if not ready.done():
                ready.set_exception(exc)
            else:
                log.debug("the MCP client session ended with %s", type(exc).__name__)

    async def _drop(self) -> None:
        stop, task = self._stop, self._task
        self._client, self._stop, self._task = None, None, None
        if stop is not None:
            stop.set()
        if task is not None:
            try:
                await task
            except Exception:  # the server is already gone; closing its pipes may complain
                log.debug("closing a dead MCP session failed", exc_info=True)

    async def _restart(self) -> ToolResult | None:
        await self._drop()
        try:
            await self.start()
        except Exception as exc:
            return error(ErrorCode.CRASHED, f"The browserops MCP server could not be restarted: {exc}.")
        self.restarts += 1
        log.warning("the browserops MCP server was restarted")
        return None

    async def close(self) -> None:
        await self._drop()

    async def __aenter__(self) -> MCPToolHost:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    # -- ToolHost -------------------------------------------------------------------------------------------
    def tools(self) -> list[ToolSpec]:
        return list(self._specs)

    async def health(self) -> bool:
        if self._client is None:
            return False
        try:
            # tools/list, never from the cache: a real round trip (ping is gone from the 2026 protocol). A server
            # that does not answer in time counts as dead (hung), so the next call replaces it.
            await asyncio.wait_for(self._client.list_tools(cache_mode="bypass"), self.health_timeout_s)
        except Exception:
            return False
        return True

    def _retry_safe(self, name: str) -> bool:
        spec = next((s for s in self._specs if s.name == name), None)
        return spec is not None and retry_safe(spec.traits)

    async def _send(self, name: str, args: Mapping[str, Any]) -> ToolResult:
        assert self._client is not None
        result = await self._client.call_tool(name, dict(args))
        data = result.structured_content
        if isinstance(data, dict) and data.get("status") in ("ok", "error"):
            return ToolResult.from_wire(data)
        text = " ".join(getattr(c, "text", "") for c in result.content)
        return error(ErrorCode.INTERNAL, f"The MCP server answered {name} without the tool contract: {text[:300]}")

    async def call(self, name: str, args: Mapping[str, Any]) -> ToolResult:
        safe = self._retry_safe(name)
        restarted = False
        if self._client is None or (not safe and not await self.health()):
            # Dead before anything was sent: restart first, so the call runs once on the fresh server.
            failed = await self._restart()
            if failed:
                return failed
            restarted = True
        try:
            result = await self._send(name, args)
        except Exception as exc:
            log.warning("the MCP server failed during %s (%s)", name, type(exc).__name__)
            if not safe:
                await self._drop()  # the next call restarts it
                return error(ErrorCode.CRASHED, f"The browserops MCP server stopped while running {name}; it may or "
                             "may not have acted. Observe the page before doing anything else (the next call "
                             "restarts the server).")
            failed = await self._restart()
            if failed:
                return failed
            restarted = True
            try:
                result = await self._send(name, args)
            except Exception as again:
                await self._drop()
                return error(ErrorCode.CRASHED, f"The browserops MCP server failed twice on {name}: "
                             f"{type(again).__name__}.")
            result = result.with_data(retried_after_restart=True)
        if restarted:
            result = result.with_data(mcp_server_restarted=True)
        return result
