"""How the loop reaches tools: one small interface, whatever serves them.

:class:`ToolHost` is that interface. :class:`InProcessToolHost` calls the catalogue directly on a
:class:`~browserops.tools.context.ToolContext`; an MCP-backed host (a client session to a ``browserops mcp``
subprocess) implements the same protocol. A host never raises for a tool failure: it returns the tool
contract ``{"status": "error", "code": ..., "error": ...}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from browserops.agent.toolspec import ToolSpec, catalogue_specs
from browserops.contract import ToolResult
from browserops.tools.context import Tool, ToolContext
from browserops.tools.runner import AGENT, ToolRunner


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
    """The catalogue in this process, through a :class:`~browserops.tools.runner.ToolRunner` with the agent's
    profile (or the one given, e.g. chat's): after a browser crash the session is restarted before the next call,
    and a call that is safe to run twice (``retry_safe``) and hit the crash is retried once (an acting call is
    not: it may have run). Like the MCP server, every call is followed by the post-action hooks (banners closed
    within budget, then ``data.banners_auto_closed``; the session's notices in ``data.notices``), so both hosts
    answer alike."""

    def __init__(self, ctx: ToolContext | ToolRunner, tools: Iterable[Tool[Any]] | None = None) -> None:
        self.runner = ctx if isinstance(ctx, ToolRunner) else ToolRunner(ctx, AGENT, tools=tools)
        self.ctx = self.runner.ctx
        self._specs = catalogue_specs(self.runner.definitions())

    @property
    def restarts(self) -> int:
        return self.runner.restarts

    def tools(self) -> list[ToolSpec]:
        return list(self._specs)

    async def call(self, name: str, args: Mapping[str, Any]) -> ToolResult:
        return await self.runner.call(name, args)

    async def health(self) -> bool:
        return self.ctx.session.alive

    async def close(self) -> None:
        """The session belongs to whoever made the context; the host has nothing of its own to release."""
        return None
