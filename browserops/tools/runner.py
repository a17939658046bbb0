"""``ToolRunner``: the one pipeline every tool call goes through, whichever door it came in by.

The MCP server, the agent's in-process host, the plan engine (prepare/run) and chat all call tools through a
runner, each with its :class:`Profile` — the front door's guards, crash policy and hooks as data (:data:`MCP`,
:data:`AGENT`, :data:`CHAT`, :func:`plan_profile`; :data:`BARE` runs a tool alone, for tests and benchmarks).
One call passes these steps, in order::

    lookup → guards → crash policy (before) → invoke → crash policy (after) → post-action hooks

- **lookup**: an unknown name is ``BROWSER_UNKNOWN_TOOL`` listing the known ones;
- **guards** (:data:`Guard`): each may refuse the call before anything runs by raising a
  :class:`~browserops.contract.BrowserOpsError` — the plan's side-effect guard (:class:`SideEffectGuard`), the
  agent's gate;
- **origins** (:func:`check_origin`, built in, so no front door can leave it out): a navigating call's ``url``
  on an origin the session's rules refuse is ``BROWSER_ORIGIN_BLOCKED`` before it runs. The browser itself
  aborts every other refused document request (a click's navigation, a redirect, a popup, a frame; see
  ``browser/launch/origin_guard.py``); a call that failed because of such a refusal ends
  ``BROWSER_ORIGIN_BLOCKED`` naming the URL and the rule, and a tab a redirect chain took to a refused origin is
  emptied;
- **invoke** (:func:`~browserops.tools.invoke.invoke`): argument validation, the dialog check, the timeout, and the
  one boundary where Playwright's errors become codes (:func:`browserops.browser.errors.call_browser`);
- **crash policy** (:class:`CrashPolicy`): whether a dead browser is restarted before the next call and said so
  (``data.browser_restarted``), and whether a call hit by a crash is run again once — only when that is safe
  (:func:`~browserops.tools.definitions.retry_safe`, the one rule). A call that ran while the browser died
  always ends ``BROWSER_CRASHED`` naming the tool;
- **hooks** (:data:`AfterHook`): the banner closer and the session's notices (:class:`BannerHook`,
  :func:`notices_hook`), each may add to the result; they never fail the call.

:meth:`ToolRunner.call` never raises (the tool contract); with ``raise_refused=True`` it raises the guards'
refusals (the plan engine wants those as exceptions) and still returns every tool failure as a result.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from browserops.browser.errors import crashed_error
from browserops.browser.launch.origin_guard import recover, stop_refused
from browserops.browser.page.navigation import normalise_url
from browserops.contract import BrowserOpsError, ErrorCode, SideEffect, ToolResult, error_from
from browserops.origins import blocked_error
from browserops.tools import registry
from browserops.tools.context import Tool, ToolContext
from browserops.tools.definitions import ToolDef, retry_safe
from browserops.tools.hooks import after_action
from browserops.tools.invoke import invoke

log = logging.getLogger(__name__)

RESTARTED_NOTE = "The browser had crashed and was restarted; earlier tabs and element numbers are gone."

# A guard sees the tool and the raw arguments before anything runs; it refuses by raising BrowserOpsError.
Guard = Callable[[ToolDef[Any], Mapping[str, Any]], Awaitable[None]]
# A post-action hook may add to a result (never fail it); it runs only while the browser is alive.
AfterHook = Callable[[ToolContext, ToolDef[Any], Mapping[str, Any], ToolResult], Awaitable[ToolResult]]


@dataclass(frozen=True)
class CrashPolicy:
    """What the runner does about a browser that died."""

    # Restart a dead browser before the next call (a long-lived server or agent); the plan engine does not: a run
    # whose browser died stops there, its bundle incomplete.
    restart: bool = False
    # Put ``data.browser_restarted`` on the call that restarted it (the MCP server's way of saying so).
    announce: bool = False
    # Run a call that a crash cut short again once, when running it twice changes nothing (retry_safe).
    retry: bool = False


class SideEffectGuard:
    """Allows only tools of some side-effect classes (prepare: read-only and local-write; run without --confirm:
    also export). The refusal names who refused and what."""

    def __init__(self, allowed: Iterable[SideEffect], *, who: str) -> None:
        self.allowed = frozenset(allowed)
        self.who = who

    def allows(self, tool: ToolDef[Any]) -> bool:
        return tool.side_effect in self.allowed

    async def __call__(self, tool: ToolDef[Any], args: Mapping[str, Any]) -> None:
        if not self.allows(tool):
            allowed = ", ".join(sorted(e.value for e in self.allowed))
            raise BrowserOpsError(
                ErrorCode.POLICY_REFUSED,
                f"{self.who} may only use {allowed} tools; it refused {tool.name} ({tool.side_effect.value}).",
                details={"tool": tool.name, "side_effect": tool.side_effect.value},
            )


@dataclass(frozen=True)
class BannerHook:
    """The post-action banner closer (tools/hooks.py) as a runner hook."""

    # Also after the first listing on a domain (the front doors); the plan closes banners only after it navigated
    # or acted.
    on_first_listing: bool = True
    # Report what it closed as ``data.banners_auto_closed`` (the front doors; the plan's events say it otherwise).
    report: bool = True

    async def __call__(self, ctx: ToolContext, tool: ToolDef[Any], args: Mapping[str, Any],
                       result: ToolResult) -> ToolResult:
        if not self.on_first_listing and tool.traits.banners == "listing":
            return result
        hook = await after_action(ctx, tool.name, result, args, tool.traits)
        if self.report and hook["ran"] and hook["found"]:
            return result.with_data(banners_auto_closed=hook)
        return result


async def notices_hook(ctx: ToolContext, tool: ToolDef[Any], args: Mapping[str, Any],
                       result: ToolResult) -> ToolResult:
    """What the session noticed meanwhile (a tab the site opened, a dialog) as ``data.notices``. A restart is
    reported by the crash policy, so that notice is left for it."""
    session = ctx.session
    taken = session.take_notices()
    session.notices.extend(n for n in taken if n.get("kind") == "browser_restarted")
    notices = [n for n in taken if n.get("kind") != "browser_restarted"]
    if notices:
        return result.with_data(notices=notices)
    return result


banner_hook = BannerHook()
FRONT_DOOR_HOOKS: tuple[AfterHook, ...] = (banner_hook, notices_hook)


@dataclass(frozen=True)
class Profile:
    """How one front door runs tools, as data: who may refuse a call first, what happens to a dead browser, and
    what runs after each call."""

    name: str
    crash: CrashPolicy = CrashPolicy()
    hooks: tuple[AfterHook, ...] = ()
    guards: tuple[Guard, ...] = ()

    def with_guards(self, *guards: Guard) -> Profile:
        return replace(self, guards=(*self.guards, *guards))


# The MCP server: a long-lived process restarts a dead browser and says so; a client decides about retrying.
MCP = Profile("mcp", CrashPolicy(restart=True, announce=True), FRONT_DOOR_HOOKS)
# The agent's in-process host: as MCP, and a safe call a crash cut short runs again once.
AGENT = Profile("agent", CrashPolicy(restart=True, announce=True, retry=True), FRONT_DOOR_HOOKS)
# Chat runs the agent in process over the session the chat opened (and opens its first URL through it too).
CHAT = replace(AGENT, name="chat")
# One tool alone (validation, timeout, errors): tests and benchmarks that look at a tool, not at a front door.
BARE = Profile("bare")


def plan_profile(*guards: Guard, banners: bool) -> Profile:
    """prepare / run: the plan's guards; a dead browser is not restarted (the run stops, ``BROWSER_CRASHED``, its
    bundle incomplete); banners are closed after navigating and acting only when the caller may (run, never
    prepare: the closer clicks "reject"/"close")."""
    hooks: tuple[AfterHook, ...] = (BannerHook(on_first_listing=False, report=False),) if banners else ()
    return Profile("plan", CrashPolicy(), hooks, guards)


# Codes a navigation ends with when the browser aborted it (Chromium's ERR_BLOCKED_BY_CLIENT).
_ABORTED = frozenset({ErrorCode.NAVIGATION_FAILED.value, ErrorCode.TIMEOUT.value, ErrorCode.ACTION_FAILED.value})


def check_origin(ctx: ToolContext, tool: ToolDef[Any], args: Mapping[str, Any]) -> None:
    """Refuse a call that would open a URL on a refused origin, before anything runs."""
    url = args.get("url")
    if not (tool.traits.new_document or tool.traits.opens_tab) or not isinstance(url, str) or not url.strip():
        return
    rules = ctx.session.origin_rules
    if not rules.active:
        return
    try:
        target = normalise_url(url)
    except BrowserOpsError:
        return  # the tool's own validation says what is wrong with it
    rules.check(target)


async def origin_outcome(ctx: ToolContext, blocks_before: int, result: ToolResult) -> ToolResult:
    """A call whose navigation the browser refused fails as ``BROWSER_ORIGIN_BLOCKED``; a tab a redirect chain
    took to a refused origin is emptied and said so."""
    session = ctx.session
    if not session.origin_rules.active:
        return result
    blocks = session.origin_blocks[blocks_before:]
    if blocks and session.alive:
        await recover(session, blocks)
    stopped = await stop_refused(session) if session.alive else []
    session.origin_blocks.extend(stopped)
    page_blocks = [b for b in [*blocks, *stopped] if b.get("frame") == "page"]
    if page_blocks and ((result.failed and result.code in _ABORTED) or stopped):
        block = page_blocks[-1]
        return error_from(blocked_error(str(block["url"]), str(block["rule"])))
    return result


class ToolRunner:
    """Runs catalogue tools on one :class:`ToolContext` the way one front door does (its :class:`Profile`)."""

    def __init__(self, ctx: ToolContext, profile: Profile, *, tools: Iterable[Tool[Any]] | None = None) -> None:
        self.ctx = ctx
        self.profile = profile
        self.tools = {t.name: t for t in (registry.bound_tools() if tools is None else tools)}
        # A call by an alias runs the tool under its own name (results and records say that name).
        self.aliases = {alias: t.name for t in self.tools.values() for alias in t.definition.aliases}
        # This runner's own copies of the profile's guards and hooks (a server adds an origin policy's guard).
        self.guards: list[Guard] = list(profile.guards)
        self.hooks: list[AfterHook] = list(profile.hooks)
        self.restarts = 0

    @property
    def crash(self) -> CrashPolicy:
        return self.profile.crash

    def get(self, name: str) -> ToolDef[Any] | None:
        tool = self.tools.get(self.aliases.get(name, name))
        return tool.definition if tool is not None else None

    def definitions(self) -> list[ToolDef[Any]]:
        return [t.definition for t in self.tools.values()]

    async def call(self, name: str, args: Mapping[str, Any] | None = None, *,
                   raise_refused: bool = False, dialog_announced: bool = False) -> ToolResult:
        """The tool contract for one call; never raises (except cancellation). With ``raise_refused`` an unknown
        tool or a guard's refusal is raised instead (the plan engine wants those as exceptions); tool failures
        are results either way. ``dialog_announced``: see :func:`~browserops.tools.invoke.invoke`."""
        try:
            tool = self.tools.get(self.aliases.get(name, name))
            if tool is None:
                raise BrowserOpsError(ErrorCode.UNKNOWN_TOOL,
                                      f"Unknown tool {name!r}. Known tools: {', '.join(sorted(self.tools))}.")
            raw = dict(args or {})
            check_origin(self.ctx, tool.definition, raw)
            for guard in self.guards:
                await guard(tool.definition, raw)
            restarted = await self._revive()
        except BrowserOpsError as exc:
            if raise_refused:
                raise
            return error_from(exc)
        log.debug("tool %s starts", tool.name)
        blocks_before = len(self.ctx.session.origin_blocks)
        result = self._blame_crash(tool, await invoke(tool, self.ctx, raw, restarts=self.crash.restart,
                                                      dialog_announced=dialog_announced))
        if self.crash.retry and retry_safe(tool.definition.traits) and result.code == ErrorCode.CRASHED.value:
            log.warning("browser crashed during %s; restarting and retrying once", tool.name)
            try:
                restarted = await self._revive() or restarted
            except BrowserOpsError as exc:
                return error_from(exc)
            result = self._blame_crash(tool, await invoke(tool, self.ctx, raw, restarts=self.crash.restart))
            result = result.with_data(retried_after_crash=True)
        result = await origin_outcome(self.ctx, blocks_before, result)
        if self.ctx.session.alive:
            for hook in self.hooks:
                result = await hook(self.ctx, tool.definition, raw, result)
        if restarted and self.crash.announce:
            result = result.with_data(browser_restarted=RESTARTED_NOTE)
        return result

    async def _revive(self) -> bool:
        """Restart a dead browser when the policy says so; True when it did. Without restarting, a dead browser
        is left dead and the call fails as crashed."""
        session = self.ctx.session
        if not self.crash.restart or session.alive:
            return False
        try:
            restarted = await session.ensure_alive()
        except BrowserOpsError as exc:
            raise BrowserOpsError(exc.code, f"The browser could not be restarted: {exc.message}") from exc
        if restarted:
            self.restarts += 1
        return restarted

    def _blame_crash(self, tool: Tool[Any], result: ToolResult) -> ToolResult:
        """Whatever the tool saw (a timeout, a closed target), when the browser is dead afterwards the cause is
        the dead browser."""
        if result.failed and result.code != ErrorCode.CRASHED.value and not self.ctx.session.alive:
            return error_from(crashed_error(f"running {tool.name}", restarts=self.crash.restart,
                                            browser=self.ctx.session.where))
        return result
