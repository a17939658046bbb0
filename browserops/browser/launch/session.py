"""``BrowserSession``: one Playwright browser context and its pages, in one of four modes.

- ``launch``: a fresh Chromium (headless by default) with an empty context;
- ``persistent``: a dedicated profile directory, usually headed, for a manual login that survives runs;
- ``cdp``: attach to a Chrome/Chromium the user already runs (``--remote-debugging-port``);
- ``remote``: connect to a Playwright server (``playwright run-server``) over WebSocket.

The session notices pages the site opens itself and browser crashes; ``ensure_alive`` restarts after a
crash so a long-lived server survives it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Self, TypeVar

from playwright._impl._errors import TargetClosedError
from playwright.async_api import Browser, BrowserContext, Dialog, Download, Page, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError

from browserops.browser.errors import browser_errors, crashed_error, first_line
from browserops.browser.launch import profile_state
from browserops.browser.launch.discovery import (
    ChromiumLocation,
    driver_compile_cache,
    find_chromium,
    launch_options,
)
from browserops.browser.launch.lost import until_lost
from browserops.browser.launch.options import GUARDED_ARGS, Mode, SessionOptions
from browserops.browser.launch.origin_guard import OriginGuard
from browserops.browser.launch.requests import RequestMonitor
from browserops.browser.launch.session_tabs import SessionTabs
from browserops.browser.launch.targets import PageWires
from browserops.browser.launch.warm import warm_browsers
from browserops.browser.state.session_state import SessionState
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.origins import OriginRules

__all__ = ["GUARDED_ARGS", "BrowserSession", "Mode", "SessionOptions"]

log = logging.getLogger(__name__)
_T = TypeVar("_T")

class BrowserSession(SessionTabs):
    """Owns one browser context. Use as ``async with BrowserSession(options) as session:``."""

    def __init__(self, options: SessionOptions | None = None) -> None:
        self.options = options or SessionOptions()
        self.chromium: ChromiumLocation | None = None
        self._pw: Playwright | None = None
        self._browser: Browser | None = None
        self._context: BrowserContext | None = None
        self._pages: list[Page] = []
        self._active = 0
        self._dead = False
        # Set when the browser is lost (disconnected, its context closed, a tab crashed): every await that may
        # never be answered once it is gone is raced against it (:meth:`until_lost`).
        self._lost = asyncio.Event()
        self._closing = False
        # Things that happened outside a tool call (a tab the site opened, a crash): the next
        # observation reports and clears them.
        self.notices: list[dict[str, Any]] = []
        self.restarts = 0
        # What the session remembers between calls, one named field per concern, and what each event resets:
        # browser/state/session_state.py.
        self.state = SessionState()
        # JavaScript dialogs (alert/confirm/prompt/beforeunload) wait here until browser_dialog answers them.
        # Having a listener stops Playwright from auto-dismissing them; nothing awaits them, so nothing blocks.
        self.dialogs: list[Dialog] = []
        # Downloads the site started that no tool has claimed yet (browser_download_wait takes them).
        self.downloads: list[Download] = []
        # Called on every new dialog/download, e.g. by a tool waiting for one (see browser/dialogs.py).
        self.dialog_listeners: list[Callable[[Dialog], None]] = []
        self.download_listeners: list[Callable[[Download], None]] = []
        # Which origins may load (browserops/origins.py) and every document request refused so far.
        self.origin_rules = self.options.origin_rules
        self.origin_blocks: list[dict[str, Any]] = []
        self._origin_guard = OriginGuard(self)
        # Every request that could change a server, as sent and answered (a run's side-effect ledger).
        self.requests = RequestMonitor()
        # Each page's DevTools wire (launch/targets.py): every hop of every request under the origin rules, what
        # pages send as they unload, cross-site frames and workers guarded before they run.
        self.wires = PageWires(self.requests, self._origin_guard, lambda: self.pages, self._origin_guard.wire_refused)
        self.wires.rules = lambda: self.origin_rules.to_json()
        self.wires.lost = self.requests.lost
        self.requests.wires = self.wires

    # -- lifecycle -------------------------------------------------------------------------------
    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def start(self) -> None:
        opts = self.options
        driver_compile_cache()
        self._pw = await (warm_browsers().driver() if self.options.reuse else async_playwright().start())
        self._revive()
        try:
            self._context = await self._open_context(self._pw)
            async with browser_errors(self, "starting the browser"):
                if opts.mode == "persistent" and opts.profile_dir:  # before the first page loads anything
                    await self.until_lost(profile_state.restore(self._context, opts.profile_dir),
                                          "starting the browser")
                await self.until_lost(self._first_page(self._context), "starting the browser")
        except BaseException:
            if self.options.reuse:  # the driver (and a launched browser) are others' too: only this session's go
                await self._release_browser()
            else:
                await self._pw.stop()
            self._pw, self._browser, self._context, self._pages = None, None, None, []
            raise
        self._active = 0
        log.info("browser session started: mode=%s chromium=%s", opts.mode,
                 self.chromium.source if self.chromium else "remote")

    @property
    def shares_browser(self) -> bool:
        """A launched browser shared with the other sessions of this event loop (launch/warm.py). With ``reuse``
        every mode shares the loop's Playwright driver; only a launched browser is shared itself."""
        return self.options.reuse and self.options.mode == "launch"

    async def _release_browser(self) -> None:
        """Close what is this session's: its context (not an attached browser's, which is the user's), and its
        browser unless it is shared (for a CDP-attached one that only disconnects: the user's browser runs on)."""
        if self._context is not None and self.options.mode in ("launch", "persistent", "remote"):
            with contextlib.suppress(PlaywrightError):
                await self._context.close()
        if self._browser is None:
            return
        if self.shares_browser:
            self._browser.remove_listener("disconnected", self._browser_disconnected)
        else:
            with contextlib.suppress(PlaywrightError):
                await self._browser.close()

    async def _first_page(self, context: BrowserContext) -> None:
        opts = self.options
        context.set_default_timeout(opts.tool_timeout_ms)
        context.set_default_navigation_timeout(opts.navigation_timeout_ms)
        context.on("page", self._on_new_page)
        context.on("close", lambda _ctx: self._mark_dead("context closed"))
        # Before the first page exists, so even its first request is checked.
        self._origin_guard.installed = None
        await self._origin_guard.install(context)
        self.requests.install(context)
        self.wires.install(context)
        await self._fence_context(context)
        self._pages = [p for p in context.pages if not p.is_closed()]
        for page in self._pages:
            self._watch_page(page)
        if not self._pages:
            # new_page fires the context "page" event, which registers it.
            await context.new_page()

    async def _fence_context(self, context: BrowserContext) -> None:
        """Routes a kind of session adds to its context before the first page exists, after the origin guard's
        (Playwright asks the latest route first). A plain session adds none."""

    @property
    def playwright(self) -> Playwright | None:
        """The Playwright driver this session started (None before start and after close)."""
        return self._pw

    @property
    def browser(self) -> Browser | None:
        """The browser of a launched, attached or remote session; None for a persistent profile, whose context is
        its browser."""
        return self._browser

    async def _open_context(self, pw: Playwright) -> BrowserContext:
        opts = self.options
        ctx_kwargs: dict[str, Any] = {
            "viewport": {"width": opts.viewport[0], "height": opts.viewport[1]},
            "accept_downloads": True,
        }
        guarded = self.origin_rules.active
        if guarded:
            # A service worker fetches on a page's behalf, outside the page's requests: with origin rules, none.
            ctx_kwargs["service_workers"] = "block"
        try:
            if opts.mode == "cdp":
                assert opts.cdp_url
                self._browser = await pw.chromium.connect_over_cdp(opts.cdp_url)
                self._watch_browser(self._browser)
                if self._browser.contexts:
                    return self._browser.contexts[0]
                return await self.until_lost(self._browser.new_context(**ctx_kwargs), "starting the browser")
            if opts.mode == "remote":
                assert opts.ws_endpoint
                self._browser = await pw.chromium.connect(opts.ws_endpoint)
                self._watch_browser(self._browser)
                return await self.until_lost(self._browser.new_context(**ctx_kwargs), "starting the browser")
            self.chromium = find_chromium(configured=opts.chromium, playwright_path=pw.chromium.executable_path)
            launch_kwargs = launch_options(self.chromium, headless=opts.headless,
                                           extra_args=[*(GUARDED_ARGS if guarded else []), *opts.extra_args])
            if opts.mode == "persistent":
                assert opts.profile_dir
                opts.profile_dir.mkdir(parents=True, exist_ok=True)
                context = await pw.chromium.launch_persistent_context(
                    str(opts.profile_dir), **launch_kwargs, **ctx_kwargs
                )
                # The context is the browser here: its close is the browser's end.
                context.on("close", lambda _ctx: self._mark_dead("context closed"))
                return context
            if self.shares_browser:
                self._browser = await warm_browsers().browser(launch_kwargs)
            else:
                self._browser = await pw.chromium.launch(**launch_kwargs)
            self._watch_browser(self._browser)
            return await self.until_lost(self._browser.new_context(**ctx_kwargs), "starting the browser")
        except TargetClosedError as exc:
            # Launched, then gone before it answered: the browser died under us (killed, out of memory).
            raise crashed_error("starting the browser") from exc
        except PlaywrightError as exc:
            where = opts.cdp_url or opts.ws_endpoint or (self.chromium.path if self.chromium else "chromium")
            raise BrowserOpsError(
                ErrorCode.LAUNCH_FAILED,
                f"Could not start or reach the browser ({opts.mode} mode, {where}): "
                f"{first_line(exc)}. Check that the browser/endpoint is available"
                + (" and that the profile is not open in another browser." if opts.mode == "persistent" else "."),
            ) from exc

    async def close(self) -> None:
        if self.options.mode == "persistent" and self.options.profile_dir and self.alive:
            # Session-only cookies outlast the browser (profile_state.py); a failure costs only a sign-in.
            with contextlib.suppress(PlaywrightError, BrowserOpsError, OSError):
                await self.until_lost(profile_state.save(self.context, self.options.profile_dir), "closing")
        self._closing = True
        try:
            await self._release_browser()
            if self._pw is not None and not self.options.reuse:
                await self._pw.stop()
        finally:
            self._pw = None
            self._browser = None
            self._context = None
            self._pages = []
            self.dialogs = []
            self.downloads = []
            self._closing = False

    async def restart(self) -> None:
        await self.close()
        await self.start()
        self.restarts += 1

    async def ensure_alive(self) -> bool:
        """Restart the browser if it died. Returns True when a restart happened."""
        if self._context is not None and not self._dead:
            return False
        log.warning("browser is gone; restarting it")
        await self.restart()
        self.notices.append({"kind": "browser_restarted", "message": "The browser had crashed and was restarted; "
                             "previous pages and numbers are gone."})
        return True

    async def set_origin_rules(self, rules: OriginRules) -> None:
        """Replace the origin rules (the plan engine narrows them to what prepare saw); routing starts now if
        it was off."""
        self.origin_rules = rules
        # A lost browser routes nothing (and the run's error is its own, not this one's): whoever uses it next
        # reports the crash. Otherwise the install is raced against the browser's loss like any call.
        if self._context is not None and self.alive:
            await self.until_lost(self._origin_guard.install(self._context), "setting the origin rules")
            await self.until_lost(self.wires.update(), "setting the origin rules")

    # -- pages -----------------------------------------------------------------------------------
    def _mark_dead(self, why: str) -> None:
        if not self._closing:
            log.warning("browser session lost: %s", why)
            self._dead = True
            self._lost.set()

    def _revive(self) -> None:
        """A (re)started browser: not lost (yet)."""
        self._dead = False
        self._lost = asyncio.Event()

    def _browser_disconnected(self, _browser: Browser) -> None:
        self._mark_dead("browser disconnected")

    def _watch_browser(self, browser: Browser) -> None:
        browser.on("disconnected", self._browser_disconnected)
        if not browser.is_connected():  # gone before the listener was there
            self._mark_dead("browser disconnected")

    async def until_lost(self, work: Awaitable[_T], doing: str) -> _T:
        """``await work``, or ``BROWSER_CRASHED`` (``doing`` names the work) as soon as the browser is lost, with
        ``work`` cancelled: see :mod:`~browserops.browser.launch.lost`."""
        return await until_lost(self._lost, work, lambda: self.crashed_error(doing))

    @property
    def where(self) -> str:
        """Which browser this session drives, for error messages: a remote or attached one by its endpoint."""
        if self.options.mode == "remote":
            return f"the Playwright server at {self.options.ws_endpoint}"
        if self.options.mode == "cdp":
            return f"the browser at {self.options.cdp_url} (CDP)"
        return "the local Chromium"

    def crashed_error(self, doing: str = "driving it", *, restarts: bool = False) -> BrowserOpsError:
        """``BROWSER_CRASHED`` naming the browser that went away (a crash, or a lost remote connection)."""
        return crashed_error(doing, restarts=restarts, browser=self.where)

    @property
    def alive(self) -> bool:
        return self._context is not None and not self._dead

    @property
    def context(self) -> BrowserContext:
        if self._context is None:
            raise BrowserOpsError(ErrorCode.CRASHED, "The browser session is not running; start it first.")
        return self._context

    @property
    def page(self) -> Page:
        """The active page (tab)."""
        if self._dead or self._context is None:
            raise self.crashed_error("using its page", restarts=True)
        if not self._pages:
            raise BrowserOpsError(ErrorCode.TAB_NOT_FOUND, "No open tab. Navigate to a URL to open one.")
        return self._pages[min(self._active, len(self._pages) - 1)]
