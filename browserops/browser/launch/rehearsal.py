"""A throwaway copy of a session's browser, fenced, in which ``prepare`` rehearses a plan's in-page steps.

:class:`RehearsalSession` is a :class:`BrowserSession` over a new browser context that starts with the cookies and
storage of its parent (``storage_state``: cookies, local storage, IndexedDB), so it is signed in where the parent is,
and is thrown away afterwards, so nothing typed or clicked in it stays in the person's profile. A parent with a
:class:`Browser` (launched, attached over CDP, remote) gets the copy as a second context of that browser; a persistent
profile has none (its context *is* its browser), so the copy runs in a second Chromium launched like the first.

Its :class:`RequestFence` refuses, before it leaves the browser, every request that could change a site: any method
but the safe ones (GET, HEAD, and the OPTIONS of a CORS preflight: RFC 9110 §9.2.1), so also ``sendBeacon`` and form
posts; every WebSocket message the page sends (the server's messages still reach the page); a new top-level document
the plan does not name (a link or a GET form leading to another address; the page's own address with another query,
as its search or filter form asks for, is the same page); what a page sends as it unloads (a beacon or keepalive
fetch from a pagehide listener when a step navigates), which no route sees, is refused by the session's DevTools tap
(:mod:`~browserops.browser.launch.wire`); popups and new tabs; downloads
(``accept_downloads=False``) and service workers (``service_workers="block"``). Each refusal is kept, so prepare can
say which step's rehearsal the page may have needed it for.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import urllib.parse
from dataclasses import dataclass, field, replace
from typing import Any

from playwright.async_api import Browser, BrowserContext, Page, Playwright, Request, Route, WebSocketRoute
from playwright.async_api import Error as PlaywrightError

from browserops.browser.errors import browser_errors
from browserops.browser.launch.discovery import find_chromium, launch_options
from browserops.browser.launch.session import BrowserSession
from browserops.browser.launch.targets import refuse_shared_workers
from browserops.browser.launch.warm import warm_browsers
from browserops.browser.launch.wire import SAFE_METHODS
from browserops.contract import BrowserOpsError, ErrorCode

log = logging.getLogger(__name__)

# Requests the page cannot wait for an answer to: refusing them cannot change what the page shows.
_FIRE_AND_FORGET = frozenset({"ping", "beacon", "cspviolationreport"})
_EVERY_URL = re.compile(r".*")


def _without_query(url: str) -> str:
    """Origin and path: query values and fragments can hold what a person typed."""
    parts = urllib.parse.urlsplit(url)
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))


def _document(url: str) -> str:
    return url.split("#", 1)[0]


def _address(url: str) -> tuple[str, str, str]:
    """Scheme, host and path: a page of results, a search or a sort of the same list differ only in the query."""
    parts = urllib.parse.urlsplit(url)
    return parts.scheme, parts.netloc, parts.path.rstrip("/") or "/"


@dataclass(frozen=True)
class Refusal:
    """One request the fence kept from leaving: what it was, where to (origin + path), whether the page could
    depend on it."""

    what: str  # "POST request", "WebSocket message", "new page", "popup", "download"
    url: str
    needed: bool
    unsafe: bool = False  # it would have sent something that can change a site (not a GET, a new page, a file)

    def describe(self) -> str:
        return f"{self.what} to {self.url}"


@dataclass
class RequestFence:
    """The rules of a rehearsal context, and what they refused."""

    refusals: list[Refusal] = field(default_factory=list)
    named: set[str] = field(default_factory=set)  # documents the plan names (URL without fragment)
    url_parts: list[str] = field(default_factory=list)  # the rehearsed step's expected URL fragments
    main: Page | None = None
    _closing: set[asyncio.Task[None]] = field(default_factory=set)  # popups being closed (a task needs a holder)

    def name_document(self, url: str) -> None:
        """A document the plan opens (a navigate step): loading it is not a new page the plan did not name."""
        self.named.add(_document(url))

    def expect_urls(self, parts: list[str]) -> None:
        """The step being rehearsed says its click leads to a URL containing one of ``parts``."""
        self.url_parts = list(parts)

    def since(self, mark: int) -> list[Refusal]:
        return self.refusals[mark:]

    def _refuse(self, what: str, url: str, *, needed: bool, unsafe: bool = False) -> None:
        self.refusals.append(Refusal(what, _without_query(url), needed, unsafe))
        log.info("rehearsal refused %s to %s", what, _without_query(url))

    def refuse_unload(self, method: str, url: str, kind: str) -> None:
        """A request a document sent as it went away (``kind`` ``ping``: a beacon), refused by the DevTools tap."""
        self._refuse("beacon" if kind == "ping" else f"{method} request", url, needed=False, unsafe=True)

    def refuse_by_rules(self, url: str, how: str) -> None:
        """A request the origin rules refused in the copy (any hop of it): listed with the fence's own refusals."""
        self._refuse(f"{how.removeprefix('a ')} (origin rules)", url, needed=False)

    def refuse_unseen(self, url: str, _rule: str, what: str, _frame: str, _tab: int | None) -> None:
        """What a guard inside a worker or a cross-site frame refused (launch/targets.py): a worker's WebSocket, a
        worker nothing could watch. The page may have needed it."""
        self._refuse(what.removeprefix("a "), url or "(no address)", needed=True)

    def _named(self, url: str) -> bool:
        """A document the plan names (a navigate step's URL, the rehearsed click's expected URL), or the page
        itself again with another query (a GET search or filter form of the page, a reload)."""
        doc = _document(url)
        same_page = self.main is not None and _address(self.main.url) == _address(url)
        return doc in self.named or same_page or any(part in url for part in self.url_parts)

    async def install(self, context: BrowserContext) -> None:
        await context.route(_EVERY_URL, self._on_route)
        await context.route_web_socket(_EVERY_URL, self._on_websocket)
        context.on("page", self._on_page)

    def _on_page(self, page: Page) -> None:
        if self.main is None:
            self.main = page
            page.on("download", lambda download: self._refuse("download", download.url, needed=False))
            return
        if not any(r.what == "popup" for r in self.refusals[-1:]):
            self._refuse("popup", page.url or "about:blank", needed=False)
        task = asyncio.get_running_loop().create_task(_close(page))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    def _tab_of(self, request: Request) -> tuple[bool, bool]:
        """(whether the request comes from the rehearsal's own tab, whether from its top frame). A popup's first
        request comes before its page exists, so it has no frame to ask yet: it is not the tab's."""
        try:
            frame = request.frame
            return frame.page is self.main, frame.parent_frame is None
        except PlaywrightError:
            return not request.is_navigation_request(), False  # a worker's request has no frame either

    async def _on_route(self, route: Route, request: Request) -> None:
        own, top = self._tab_of(request)
        navigation = request.is_navigation_request() and top
        if not own:
            self._refuse("popup", request.url, needed=False, unsafe=request.method not in SAFE_METHODS)
            await route.abort("blockedbyclient")
        elif request.method not in SAFE_METHODS:
            self._refuse(f"{request.method} request", request.url,
                         needed=request.resource_type not in _FIRE_AND_FORGET, unsafe=True)
            await _refuse_route(route, navigation)
        elif navigation and not self._named(request.url):
            self._refuse("new page", request.url, needed=True)
            await _refuse_route(route, navigation)
        else:
            await route.fallback()

    def _on_websocket(self, ws: WebSocketRoute) -> None:
        ws.connect_to_server()  # the server's messages reach the page (reading); the page's do not leave
        ws.on_message(lambda _message: self._refuse("WebSocket message", ws.url, needed=True, unsafe=True))


async def _refuse_route(route: Route, navigation: bool) -> None:
    """A refused navigation is answered 204 No Content, so the tab stays on its page (a browser does not leave a
    page for an empty answer); any other request fails as blocked."""
    with contextlib.suppress(PlaywrightError):
        if navigation:
            await route.fulfill(status=204, body="")
        else:
            await route.abort("blockedbyclient")


async def _silence(context: BrowserContext) -> None:
    """Before the copy is closed: its pages may not speak as they go. A page that is closed runs its pagehide and
    unload listeners, and what they send with ``sendBeacon`` or a keepalive ``fetch`` (a CMS releasing its editing
    session, analytics) leaves after the tab is gone, where the route no longer sees it. So the pages' scripts are
    switched off (no listener runs, no timer fires) and every request they could still start is blocked in the
    renderer, before the context is closed. Best effort per page: a page already gone says nothing."""
    for page in list(context.pages):
        with contextlib.suppress(PlaywrightError):
            cdp = await context.new_cdp_session(page)
            await cdp.send("Emulation.setScriptExecutionDisabled", {"value": True})
            await cdp.send("Network.enable")
            await cdp.send("Network.setBlockedURLs", {"urls": ["*"]})


async def _close(page: Page) -> None:
    with contextlib.suppress(PlaywrightError):
        await page.close()


class RehearsalSession(BrowserSession):
    """A fenced, throwaway copy of ``parent``'s context. ``async with RehearsalSession(parent) as copy:``."""

    def __init__(self, parent: BrowserSession) -> None:
        super().__init__(replace(parent.options))
        self.parent = parent
        self.fence = RequestFence()
        # What a document sends as it unloads (a beacon on pagehide when a step navigates) never reaches a route:
        # the session's DevTools tap refuses it in the browser instead (see launch/wire.py).
        self.requests.refuse_unload = self.fence.refuse_unload
        # Every page is wired from the start (launch/targets.py): a worker's WebSocket, which no route sees, is
        # refused whatever its address, and so is a worker in a cross-site frame.
        self.wires.tapping = self.wires.fenced = True
        self.wires.refusal_rule = "prepare's rehearsal"
        self.wires.refused = self.fence.refuse_unseen
        self._origin_guard.on_block = self.fence.refuse_by_rules
        self._own_browser: Browser | None = None
        self._shared_browser: Browser | None = None

    async def start(self) -> None:
        pw = self.parent.playwright
        if pw is None or not self.parent.alive:
            raise BrowserOpsError(ErrorCode.CRASHED, "The browser is not running, so prepare cannot copy it.")
        async with browser_errors(self, "copying the browser for prepare's rehearsal"):
            self._revive()
            state: Any = await self.parent.until_lost(self.parent.context.storage_state(indexed_db=True),
                                                      "copying the browser for prepare's rehearsal")
            self._context = await self.until_lost(self._new_context(pw, state),
                                                  "copying the browser for prepare's rehearsal")
            await self.until_lost(self._first_page(self._context), "copying the browser for prepare's rehearsal")
        self._active = 0

    async def _new_context(self, pw: Playwright, state: Any) -> BrowserContext:
        opts = self.options
        kwargs: dict[str, Any] = {"viewport": {"width": opts.viewport[0], "height": opts.viewport[1]},
                                  "accept_downloads": False, "service_workers": "block", "storage_state": state}
        browser = self.parent.browser
        if browser is None:  # a persistent profile: a second Chromium, as the first was launched
            self.chromium = find_chromium(configured=opts.chromium, playwright_path=pw.chromium.executable_path)
            launch_kwargs = launch_options(self.chromium, headless=opts.headless, extra_args=opts.extra_args)
            if opts.reuse:  # the loop's warm browser: the copy is a context of its own there
                browser = await warm_browsers().browser(launch_kwargs)
            else:
                browser = self._own_browser = await pw.chromium.launch(**launch_kwargs)
        browser.on("disconnected", self._on_disconnected)
        self._shared_browser = browser
        return await browser.new_context(**kwargs)

    def _on_disconnected(self, _browser: Browser) -> None:
        self._mark_dead("browser disconnected")

    async def _fence_context(self, context: BrowserContext) -> None:
        await self.fence.install(context)
        await refuse_shared_workers(context, "prepare's rehearsal", self.wires.page_told)

    async def close(self) -> None:
        self._closing = True
        try:
            if self._context is not None:
                await _silence(self._context)
                with contextlib.suppress(PlaywrightError):
                    await self._context.close()
            if self._shared_browser is not None:
                self._shared_browser.remove_listener("disconnected", self._on_disconnected)
            if self._own_browser is not None:
                with contextlib.suppress(PlaywrightError):
                    await self._own_browser.close()
        finally:
            self._context, self._own_browser, self._shared_browser, self._pages = None, None, None, []
            self.dialogs, self.downloads = [], []
            self._closing = False
