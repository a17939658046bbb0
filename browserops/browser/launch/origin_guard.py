"""Origin rules enforced inside the browser: every request to a refused origin is aborted before it leaves the
browser — a top-level navigation, a redirect's next hop, a new tab or popup, a frame, and also what an allowed page
asks for itself: fetch and XHR, ``sendBeacon``, form posts, images, scripts, styles, fonts, and WebSocket
connections (a context WebSocket route). Service workers are blocked in a context opened while rules are set
(``service_workers="block"``: a worker could otherwise fetch on the page's behalf from its own cache and network).

It is a context route, so it covers every page and frame of the session, whoever started the request (a tool, a
click, a script, a ``<meta refresh>``). A navigation request to an allowed origin is fetched
once without following redirects, so a redirect to a refused origin is stopped before its target is asked for
(the browser follows the answered redirect itself; a further hop of a chain is checked when the browser asks
for it, and a tab it lands on is emptied by :func:`stop_refused`). Each refusal is kept on the session
(``origin_blocks``) and reported as a notice saying what was blocked and by which rule.

Routing costs a round trip per request, so nothing is routed while no rule is set. Once installed the routes stay
for the context's life (rules narrowed back to "everything" simply let every request through): removing a route
while pages are open could let a request through between two checks.
"""

from __future__ import annotations

import contextlib
import html
import logging
import re
from collections.abc import Callable
from typing import Any, Protocol
from urllib.parse import urljoin

from playwright.async_api import APIResponse, BrowserContext, Page, Request, Route, WebSocketRoute
from playwright.async_api import Error as PlaywrightError

from browserops.browser.launch.targets import WEBSOCKET_REPORT, refuse_shared_workers
from browserops.origins import DEFAULT_PORTS, OriginPattern, OriginRules


class Wires(Protocol):
    """The session's page wires (``targets.PageWires``), as the guard uses them."""

    def covers(self, page: Page) -> bool: ...

    async def ready(self, page: Page) -> None: ...

    def page_told(self, source: dict[str, Any], payload: Any) -> None: ...


class GuardedSession(Protocol):
    """What the guard needs of the session (``BrowserSession``), without importing it."""

    origin_rules: OriginRules
    origin_blocks: list[dict[str, Any]]
    notices: list[dict[str, Any]]

    @property
    def wires(self) -> Wires: ...

    @property
    def pages(self) -> list[Page]: ...

log = logging.getLogger(__name__)

ROUTE_PATTERN = "**/*"
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
# What a page loads by the dozen from its own site; a URL path ending so is taken for a static file.
STATIC_SUFFIXES = ("js", "mjs", "css", "png", "jpg", "jpeg", "gif", "svg", "webp", "avif", "ico", "woff", "woff2",
                   "ttf", "otf", "eot", "map")


_EVERY_URL = re.compile(r".*")
# The rule named when a tab's requests cannot have their redirects watched (the browser gave it no DevTools wire).
NO_WIRE = "no watch on this tab's redirects"
NO_WORKER = "no watch on that worker's requests"  # a worker nothing can hold before it runs (launch/targets.py)


def _what(request: Request) -> str:
    """A request that is not a navigation, in words: 'a POST request (fetch)', 'a beacon', 'a script'…"""
    return _what_kind(request.resource_type, request.method)


def _what_kind(kind: str, method: str) -> str:
    if kind == "ping":
        return "a beacon"
    if kind in ("fetch", "xhr"):
        return f"a {method} request ({kind})"
    if kind == "document":
        return "a navigation"
    if kind in ("other", ""):
        return f"a {method} request"
    return f"a request for {'an' if kind[0] in 'aeiou' else 'a'} {kind}"


def _frame_kind(request: Request) -> str:
    try:
        frame = request.frame
    except PlaywrightError:  # a service worker's request has no frame
        return "worker"
    return "page" if frame.parent_frame is None else "frame"


def _whole_origin(pattern: OriginPattern, rules: OriginRules) -> str | None:
    """A regex for the URL start of the one origin ``pattern`` names exactly (a scheme, a host without wildcard,
    a port or the scheme's default), when the rules allow that origin; None otherwise."""
    scheme, host = pattern.scheme, pattern.host
    if scheme not in ("http", "https") or pattern.subdomains or host in ("", "*") or ":" in host:
        return None
    default = DEFAULT_PORTS[scheme]
    port = pattern.port if pattern.port is not None else default  # any port: only its default form is exempted
    if rules.refusal(f"{scheme}://{host}:{port}/") is not None:
        return None
    port_re = f"(?::{port})?" if port == default else f":{port}"
    return f"{re.escape(scheme)}://{re.escape(host)}{port_re}"


def route_pattern(rules: OriginRules) -> str | re.Pattern[str]:
    """What the guard routes: every URL, except the static files (:data:`STATIC_SUFFIXES`) of an origin the rules
    allow as a whole. Each routed request costs a round trip through this process, and a heavy admin page loads
    dozens of scripts, styles and images from its own site (Wagtail's page editor: ~0.4 s more per load with all
    of them routed). No rule can refuse those: a rule is about origins, and that origin is allowed. What is lost
    is only the first-hop redirect check of a *navigation* to such a URL (a tab opened on a ``.js`` file), which
    then gets the check of a chain's later hops (:meth:`OriginGuard._on_request`, :func:`stop_refused`)."""
    origins = [o for o in (_whole_origin(p, rules) for p in rules.allowed) if o is not None]
    if not origins:
        return ROUTE_PATTERN
    suffixes = "|".join(STATIC_SUFFIXES)
    # Playwright hands the regex to its driver, which matches it in JavaScript: plain syntax only.
    return re.compile(rf"^(?!(?:{'|'.join(origins)})/[^?#]*\.(?:{suffixes})(?:[?#]|$))", re.IGNORECASE)


class OriginGuard:
    """The route handler of one session's context."""

    def __init__(self, session: GuardedSession) -> None:
        self.session = session
        self.installed: BrowserContext | None = None
        self.pattern: str | re.Pattern[str] = ROUTE_PATTERN
        self.routed = False  # whether ``pattern`` is routed on ``installed`` now
        # Told of each refusal too (prepare's fence lists them with its own): (url, how).
        self.on_block: Callable[[str, str], None] | None = None

    @property
    def rules(self) -> OriginRules:
        return self.session.origin_rules

    async def install(self, context: BrowserContext) -> None:
        """Route the context's requests (from the first rules on); rules that allow other origins re-route it, and
        rules lifted take the route away: while any route exists Playwright turns the HTTP cache off and every
        request makes a round trip through this process, which a session that no longer has rules should not pay
        (a chat or MCP session after a plan run restored no rules kept both)."""
        if not self.rules.active:
            if self.installed is context and self.routed:
                await context.unroute(self.pattern, self._handle)
                self.routed = False
            return
        pattern = route_pattern(self.rules)
        if self.installed is context:
            if not self.routed:
                await context.route(pattern, self._handle)
                self.pattern, self.routed = pattern, True
            elif pattern != self.pattern:
                # The new route first, then the old one goes: no moment without a route.
                await context.route(pattern, self._handle)
                await context.unroute(self.pattern, self._handle)
                self.pattern = pattern
            return
        await context.route(pattern, self._handle)
        self.routed = True
        await context.route_web_socket(_EVERY_URL, self._socket)
        await refuse_shared_workers(context, "origin rules", self.session.wires.page_told)
        context.on("request", self._on_request)
        self.installed, self.pattern = context, pattern

    @property
    def active(self) -> bool:
        return self.rules.active

    def _record(self, request: Request, url: str, rule: str, how: str) -> None:
        pages = self.session.pages
        tab: int | None = None
        with contextlib.suppress(PlaywrightError):
            page = request.frame.page
            tab = pages.index(page) if page in pages else None
        self._note(url, rule, how, _frame_kind(request), tab)

    def _note(self, url: str, rule: str, how: str, kind: str, tab: int | None) -> None:
        where = {"page": "the tab", "frame": "a frame of the page", "worker": "a worker"}.get(kind, "the tab")
        message = (f"browserops blocked {how} of {where} to {url[:200]} ({rule}); nothing was loaded from there.")
        block = {"kind": "origin_blocked", "url": url, "rule": rule, "frame": kind, "tab": tab, "how": how,
                 "message": message}
        self.session.origin_blocks.append(block)
        self.session.notices.append(block)
        log.info("origin blocked: %s of %s (%s)", how, kind, rule)
        if self.on_block is not None:
            self.on_block(url, how)

    def stops(self, url: str, *, method: str, kind: str, redirected: bool, frame: str, tab: int | None) -> bool:
        """The page wire's question about a request it paused (any hop, any kind: launch/wire.py): refused by
        the rules, it is recorded here and failed there before it leaves."""
        rule = self.rules.refusal(url)
        if rule is None:
            return False
        what = _what_kind(kind.lower(), method)
        # A document's hop is "a redirect" (its tab is left on the error page, which recover() undoes); another
        # request's hop says what it was a hop of.
        how = ("a redirect" if kind == "Document" else f"a redirect of {what}") if redirected else what
        self._note(url, rule, how, frame, tab)
        return True

    def wire_refused(self, url: str, rule: str, how: str, frame: str, tab: int | None) -> None:
        """What a guard inside a worker or a page world refused (launch/targets.py). Page scripts can call the
        guards' bindings too, so the rule is worked out here again: a worker's WebSocket the rules allow was not
        refused by us (the report is dropped), and a refused worker gets the one rule that refuses it."""
        if how == WEBSOCKET_REPORT:
            found = self.rules.refusal(url)
            if found is None:
                log.info("dropped a refusal report the rules do not make")
                return
            rule = found
        else:
            rule = NO_WORKER
        self._note(url, rule, how, frame, tab)

    async def _handle(self, route: Route, request: Request) -> None:
        if not self.rules.active:
            await route.fallback()
            return
        url = request.url
        rule = self.rules.refusal(url)
        navigation = request.is_navigation_request()
        if rule is not None:
            self._record(request, url, rule, "a navigation" if navigation else _what(request))
            await route.abort("blockedbyclient")
            return
        wired = await self._wired(request)
        if not navigation:
            # A subresource waits for its tab's wire (a new tab's first document asks before it is in), so its
            # redirect's hops are checked; a tab the browser could give no wire cannot have them checked: refused.
            if wired is False:
                self._record(request, url, NO_WIRE, _what(request))
                await route.abort("blockedbyclient")
                return
            await route.fallback()
            return
        if not url.startswith(("http://", "https://")) or request.method not in ("GET", "HEAD"):
            # Only a plain load is fetched here first: a form's POST (a file upload among its parts) is sent by
            # the browser itself, exactly as it would be without rules; the page's wire checks each hop of its
            # answer. A tab with no wire yet (a form posted into a new tab) would follow those hops unchecked: the
            # session refuses what it cannot see.
            if wired or not url.startswith(("http://", "https://")):
                await route.fallback()
                return
            self._record(request, url, "no watch on a new tab's form post", "a form post into a new tab")
            await route.abort("blockedbyclient")
            return
        try:
            response = await route.fetch(max_redirects=0)
        except PlaywrightError:
            # The site did not answer as fetched here; let the browser try itself and report its own error.
            await route.fallback()
            return
        location = response.headers.get("location")
        if response.status in REDIRECT_STATUSES and location:
            target = urljoin(url, location)
            rule = self.rules.refusal(target)
            if rule is not None:
                self._record(request, target, rule, "a redirect")
                await route.abort("blockedbyclient")
                return
            if not wired:
                await _hop(route, response, target)
                return
        # The browser follows a redirect itself: the page's wire checks every further hop before it leaves.
        await route.fulfill(response=response)

    async def _wired(self, request: Request) -> bool | None:
        """Whether the request's tab has its wire (every hop of its requests under the rules), waiting for it when
        the tab has none yet; None when the request belongs to no page Playwright knows (a new tab's first
        request comes before Playwright knows its page)."""
        try:
            page = request.frame.page
        except PlaywrightError:
            return None
        if not self.session.wires.covers(page):
            await self.session.wires.ready(page)
        return self.session.wires.covers(page) or (None if page.is_closed() else False)

    async def _socket(self, socket: WebSocketRoute) -> None:
        """A WebSocket to a refused origin is closed before it connects; any other is connected as asked."""
        rule = self.rules.refusal(socket.url) if self.rules.active else None
        if rule is None:
            socket.connect_to_server()
            return
        message = f"browserops blocked a WebSocket connection to {socket.url[:200]} ({rule}); nothing was sent there."
        block = {"kind": "origin_blocked", "url": socket.url, "rule": rule, "frame": "page", "tab": None,
                 "how": "a WebSocket connection", "message": message}
        self.session.origin_blocks.append(block)
        self.session.notices.append(block)
        log.info("origin blocked: a WebSocket connection (%s)", rule)
        await socket.close(code=1008, reason="blocked by browserops origin rules")

    def _on_request(self, request: Request) -> None:
        """A later hop of a redirect chain is not routed (Playwright routes a chain's first request only): say
        so when it reaches a refused origin; the document it loads is left by :func:`stop_refused`."""
        if request.redirected_from is None or not request.is_navigation_request():
            return
        with contextlib.suppress(PlaywrightError):
            if self.session.wires.covers(request.frame.page):
                return  # the page's wire stopped that hop before it left, and said so
        rule = self.rules.refusal(request.url)
        if rule is not None and request.redirected_from.redirected_from is not None:
            self._record(request, request.url, rule, "a redirect chain")


async def stop_refused(session: GuardedSession) -> list[dict[str, Any]]:
    """Tabs showing a refused origin (only a redirect chain's later hop gets there) are emptied (about:blank),
    so nothing more is read from or sent to that site; returns what was stopped."""
    stopped: list[dict[str, Any]] = []
    if not session.origin_rules.active:
        return stopped
    for index, page in enumerate(session.pages):
        url = page.url
        rule = session.origin_rules.refusal(url)
        if rule is None:
            continue
        with contextlib.suppress(PlaywrightError):
            await page.goto("about:blank")
        stopped.append({"kind": "origin_blocked", "url": url, "rule": rule, "frame": "page", "tab": index,
                        "how": "a redirect chain", "message": f"browserops left {url[:200]} ({rule}): the tab "
                        "was redirected there and is now blank."})
    return stopped


async def _hop(route: Route, response: APIResponse, target: str) -> None:
    """Follow one redirect ourselves, in a tab no wire watches yet (a new tab's first load, which Playwright reports
    before it knows the tab's page): the answer becomes a page that sends the tab on to ``target`` as a navigation
    of its own, which this guard is asked about again, hop by hop, until the tab is wired. The redirect's cookies
    are kept (its ``Set-Cookie`` headers go along); nothing else of it."""
    cookies = "\n".join(h["value"] for h in response.headers_array if h["name"].lower() == "set-cookie")
    headers = {"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store"}
    if cookies:
        headers["Set-Cookie"] = cookies
    body = (f'<!doctype html><meta http-equiv="refresh" content="0;url={html.escape(target, quote=True)}">'
            "<title>Redirecting</title>")
    await route.fulfill(status=200, headers=headers, body=body)


ERROR_PAGE = "chrome-error://"
NAVIGATING = frozenset({"a navigation", "a redirect", "a redirect chain"})  # a tab's own document was refused
ERROR_WAIT_MS = 2000  # how long a refused document's error page may take to commit after the call returned


async def recover(session: GuardedSession, blocks: list[dict[str, Any]]) -> None:
    """After refused top-level navigations: a tab left on Chromium's "blocked" error page goes back to the page
    it was on; a tab that never showed anything else (a popup or new tab the site opened) is closed. Nothing
    else is navigated: this only undoes the refusal's side effect."""
    for block in blocks:
        index = block.get("tab")
        pages = session.pages
        if block.get("frame") != "page" or not isinstance(index, int) or not 0 <= index < len(pages):
            continue
        page = pages[index]
        if not page.url.startswith(ERROR_PAGE):
            if block.get("how") not in NAVIGATING:
                continue
            # The call may return before the refused document's error page commits (a hop the tap failed).
            with contextlib.suppress(PlaywrightError):
                await page.wait_for_url(lambda url: url.startswith(ERROR_PAGE), wait_until="commit",
                                        timeout=ERROR_WAIT_MS)
            if not page.url.startswith(ERROR_PAGE):
                continue
        with contextlib.suppress(PlaywrightError):
            if await page.go_back(wait_until="domcontentloaded") is None and page.url.startswith(ERROR_PAGE) \
                    and len(pages) > 1:
                await page.close()
                block["closed_tab"] = True
