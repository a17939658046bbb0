"""The only door from prepare/run to the browser: catalogue tools, filtered by side-effect class.

On the person's own browser ``prepare`` gets a :class:`GuardedTools` that allows ``read-only`` tools and
``local-write`` ones (screenshots and snapshots land in the workspace), so it is read-only there *by construction*:
a bug, a pack or a hand-edited step cannot make it click, type or upload — the guard refuses before the tool runs.
Its rehearsal also allows ``browser-act``, in a throwaway copy whose fence refuses every unsafe request
(``REHEARSAL_CLASSES``). ``run`` without ``--confirm`` also allows ``export``; only a confirmed run allows
``browser-act`` on the person's browser.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any

from browserops.contract import ErrorCode, SideEffect, ToolResult
from browserops.tools.context import ToolContext
from browserops.tools.definitions import ToolDef
from browserops.tools.runner import SideEffectGuard, ToolRunner, plan_profile
from browserops.tools.save_probe import SaveProbe

PREPARE_CLASSES = frozenset({SideEffect.READ_ONLY, SideEffect.LOCAL_WRITE})
# prepare's rehearsal types and clicks, but only in a fenced, throwaway copy of the browser (browser/launch/
# rehearsal.py): its fence, not the tools' class, is what keeps the site unchanged there.
REHEARSAL_CLASSES = frozenset({SideEffect.READ_ONLY, SideEffect.LOCAL_WRITE, SideEffect.BROWSER_ACT})
UNCONFIRMED_CLASSES = frozenset({SideEffect.READ_ONLY, SideEffect.LOCAL_WRITE, SideEffect.EXPORT})
CONFIRMED_CLASSES = frozenset(SideEffect)
EFFECT_CLASSES = frozenset({SideEffect.BROWSER_ACT, SideEffect.EXPORT})  # what changes the site or leaves it
# An acting call's arguments with its element found again (None: not found exactly once).
FindAgain = Callable[[dict[str, Any]], Awaitable[dict[str, Any] | None]]


class GuardedTools:
    """Catalogue tools through one :class:`ToolContext`, allowing only some side-effect classes: a
    :class:`~browserops.tools.runner.ToolRunner` with the plan's profile (:func:`~browserops.tools.runner.
    plan_profile`): a :class:`SideEffectGuard`, the lane fence, a dead browser not restarted (the run stops,
    ``BROWSER_CRASHED``), and — when ``banners`` — the banner closer after each navigation and action, inside the
    runner like every front door's hooks."""

    def __init__(self, ctx: ToolContext, allowed: Iterable[SideEffect], *, who: str, banners: bool = False,
                 before_effect: Callable[[], Awaitable[None]] | None = None) -> None:
        self.ctx = ctx
        self.guard = SideEffectGuard(allowed, who=who)
        self.allowed = self.guard.allowed
        # Awaited before every browser-act or export call; raises to stop it (a run's lane lease, lane.py).
        self.before_effect = before_effect
        self.who = who
        # The post-action banner closer clicks "reject"/"close" on overlays: never in prepare.
        self.banners = banners
        self.calls: list[str] = []
        self.runner = ToolRunner(ctx, plan_profile(self.guard, self._fence, self._record, banners=banners))
        # What the run reads between calls to tell a saved change (the request ledger, guards, Undo offers): reads
        # only, through the same door.
        self.probe = SaveProbe(ctx.session)
        # While a step acts: how its element is found again when it vanished as the page redrew it (the step
        # interpreter sets it, interpret/refind.py); used once, then cleared.
        self.find_again: FindAgain | None = None

    async def _fence(self, tool: ToolDef[Any], args: Mapping[str, Any]) -> None:
        if self.before_effect is not None and tool.side_effect in EFFECT_CLASSES:
            await self.before_effect()  # e.g. BROWSER_LANE_LOST: raised to the caller, the tool never runs

    async def _record(self, tool: ToolDef[Any], args: Mapping[str, Any]) -> None:
        self.calls.append(tool.name)  # after the side-effect guard: only calls that were let through

    def only_reads_since(self, mark: int | None) -> bool:
        """Whether only tools that change nothing on the page (reads, waits, screenshots) ran since ``calls``
        was ``mark`` long (None: never marked)."""
        if mark is None:
            return False
        tools = [self.runner.get(name) for name in self.calls[mark:]]
        return all(tool is not None and tool.side_effect in PREPARE_CLASSES for tool in tools)

    def allows(self, name: str) -> bool:
        tool = self.runner.get(name)
        return tool is not None and self.guard.allows(tool)

    async def call(self, name: str, args: Mapping[str, Any] | None = None, *,
                   dialog_announced: bool = False) -> ToolResult:
        """The tool's result contract (never raises for a tool failure; raises for a refused tool).
        ``dialog_announced``: the step says how a dialog the call opens is answered (reported as it opens)."""
        result = await self.runner.call(name, args, raise_refused=True, dialog_announced=dialog_announced)
        again = self.find_again
        if again is not None and result.failed and result.code == ErrorCode.STALE_INDEX.value:
            # The element vanished between the step's listing and its act (a list redrawn by a search's answer):
            # found again once, by the same role, name and container; never another element (refind.py).
            self.find_again = None
            moved = await again(dict(args or {}))
            if moved is not None:
                result = await self.runner.call(name, moved, raise_refused=True, dialog_announced=dialog_announced)
        return result

    async def need(self, name: str, args: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """The tool's data, or its failure raised as a :class:`BrowserOpsError` with the tool's code."""
        result = await self.call(name, args)
        if result.failed:
            raise result.raised()
        return result.data
