"""How the loop reaches tools: one small interface, whatever serves them.

:class:`ToolHost` is that interface. :class:`InProcessToolHost` calls the catalogue directly on a
:class:`~browserops.tools.base.ToolContext`; an MCP-backed host (a client session to a ``browserops mcp``
subprocess) implements the same protocol. A host never raises for a tool failure: it returns the tool
contract ``{"status": "error", "code": ..., "error": ...}``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from browserops.agent.toolspec import ToolSpec, catalogue_specs
from browserops.contract import BrowserOpsError, ErrorCode, ToolResult, error
from browserops.tools import registry
from browserops.tools.base import ToolContext, ToolDef, invoke
from browserops.tools.hooks import finish_call

log = logging.getLogger(__name__)


class ToolHost(Protocol):
    def tools(self) -> list[ToolSpec]:
        """The tools this host serves (the local assistant tools are not among them)."""
        ...

    async def call(self, name: str, args: Mapping[str, Any]) -> ToolResult: ...

    async def health(self) -> bool:
        """True when the host can serve a call right now."""
        ...

    async def close(self) -> None: ...


class InProcessToolHost:
    """The catalogue in this process. After a browser crash the session is restarted before the next call,
    and a *read-only* call that hit the crash is retried once (an acting call is not: it may have run).
    Like the MCP server, every call is followed by the post-action hook (banners closed within budget, then
    ``data.banners_auto_closed``) and the session's notices (``data.notices``), so both hosts answer alike."""

    def __init__(self, ctx: ToolContext, tools: Iterable[ToolDef[Any]] | None = None) -> None:
        self.ctx = ctx
        self._tools = {t.name: t for t in (registry.all_tools() if tools is None else tools)}
        self._specs = catalogue_specs(self._tools.values())
        self.restarts = 0

    def tools(self) -> list[ToolSpec]:
        return list(self._specs)

    async def _revive(self) -> ToolResult | None:
        try:
            if await self.ctx.session.ensure_alive():
                self.restarts += 1
        except BrowserOpsError as exc:
            return error(exc.code, f"The browser could not be restarted: {exc.message}")
        return None

    async def call(self, name: str, args: Mapping[str, Any]) -> ToolResult:
        tool = self._tools.get(name)
        if tool is None:
            return error(ErrorCode.UNKNOWN_TOOL,
                         f"Unknown tool {name!r}. Known tools: {', '.join(sorted(self._tools))}.")
        failed = await self._revive()
        if failed:
            return failed
        self.ctx.signals.clear()
        result = await invoke(tool, self.ctx, args)
        crashed = result.get("code") == ErrorCode.CRASHED.value or not self.ctx.session.alive
        if crashed and tool.read_only:
            log.warning("browser crashed during %s; restarting and retrying once", name)
            failed = await self._revive()
            if failed:
                return failed
            self.ctx.signals.clear()
            result = await invoke(tool, self.ctx, args)
            result.setdefault("data", {})["retried_after_crash"] = True
        return await finish_call(self.ctx, name, args, result)

    async def health(self) -> bool:
        return self.ctx.session.alive

    async def close(self) -> None:
        """The session belongs to whoever made the context; the host has nothing of its own to release."""
        return None
