"""The only door from prepare/run to the browser: catalogue tools, filtered by side-effect class.

``prepare`` gets a :class:`GuardedTools` that allows ``read-only`` tools and ``local-write`` ones (screenshots
and snapshots land in the workspace), so it is read-only *by construction*: a bug, a pack or a hand-edited step
cannot make it click, type or upload — the guard refuses before the tool runs. ``run`` without ``--confirm``
also allows ``export``; only a confirmed run allows ``browser-act``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from browserops.contract import BrowserOpsError, ErrorCode, SideEffect, ToolResult, error_from, result_error
from browserops.tools.base import ToolContext
from browserops.tools.hooks import after_action
from browserops.tools.registry import call_tool, get_tool

PREPARE_CLASSES = frozenset({SideEffect.READ_ONLY, SideEffect.LOCAL_WRITE})
UNCONFIRMED_CLASSES = frozenset({SideEffect.READ_ONLY, SideEffect.LOCAL_WRITE, SideEffect.EXPORT})
CONFIRMED_CLASSES = frozenset(SideEffect)
EFFECT_CLASSES = frozenset({SideEffect.BROWSER_ACT, SideEffect.EXPORT})  # what changes the site or leaves it


class GuardedTools:
    """Calls catalogue tools through one :class:`ToolContext`, allowing only some side-effect classes."""

    def __init__(self, ctx: ToolContext, allowed: Iterable[SideEffect], *, who: str, banners: bool = False,
                 before_effect: Callable[[], Awaitable[None]] | None = None) -> None:
        self.ctx = ctx
        # Awaited before every browser-act or export call; raises to stop it (a run's lane lease, lane.py).
        self.before_effect = before_effect
        self.allowed = frozenset(allowed)
        self.who = who
        # The post-action banner closer clicks "reject"/"close" on overlays: never in prepare.
        self.banners = banners
        self.calls: list[str] = []

    def allows(self, name: str) -> bool:
        tool = get_tool(name)
        return tool is not None and tool.side_effect in self.allowed

    def _check(self, name: str) -> None:
        tool = get_tool(name)
        if tool is None:
            raise BrowserOpsError(ErrorCode.UNKNOWN_TOOL, f"Unknown tool {name!r}.")
        if tool.side_effect not in self.allowed:
            allowed = ", ".join(sorted(e.value for e in self.allowed))
            raise BrowserOpsError(
                ErrorCode.POLICY_REFUSED,
                f"{self.who} may only use {allowed} tools; it refused {name} ({tool.side_effect.value}).",
                details={"tool": name, "side_effect": tool.side_effect.value},
            )

    async def call(self, name: str, args: Mapping[str, Any] | None = None) -> ToolResult:
        """The tool's result contract (never raises for a tool failure; raises for a refused tool)."""
        self._check(name)
        tool = get_tool(name)
        if self.before_effect is not None and tool is not None and tool.side_effect in EFFECT_CLASSES:
            await self.before_effect()
        self.calls.append(name)
        result = await call_tool(name, self.ctx, args)
        if result.get("status") != "ok" and not self.ctx.session.alive:
            # Whatever the tool saw (a timeout, a closed target), the cause is the browser that went away.
            return error_from(self.ctx.session.crashed_error())
        return result

    async def need(self, name: str, args: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The tool's data, or its failure raised as a :class:`BrowserOpsError` with the tool's code."""
        result = await self.call(name, args)
        if result.get("status") != "ok":
            raise result_error(result)
        data = result.get("data")
        return data if isinstance(data, dict) else {}

    async def after(self, name: str, result: ToolResult, args: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The post-action hook (banners), when this caller may use it."""
        if not self.banners:
            return {"ran": False, "reason": "banners are left alone here", "relist": False}
        return await after_action(self.ctx, name, result, args)
