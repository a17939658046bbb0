"""Origin rules enforced inside the browser: every document request (a top-level navigation, a redirect's next
hop, a new tab or popup, a frame) to a refused origin is aborted before it leaves the browser.

It is a context route, so it covers every page and frame of the session, whoever started the navigation (a
tool, a click, a script, a ``<meta refresh>``). Only document requests are routed through the check: images,
scripts and XHR of an allowed page load as the page wants. A navigation request to an allowed origin is fetched
once without following redirects, so a redirect to a refused origin is stopped before its target is asked for
(the browser follows the answered redirect itself; a further hop of a chain is checked when the browser asks
for it, and a tab it lands on is emptied by :func:`stop_refused`). Each refusal is kept on the session
(``origin_blocks``) and reported as a notice saying what was blocked and by which rule.

Routing costs a round trip per request, so nothing is routed while no rule is set.
"""

from __future__ import annotations

import contextlib
import logging
from typing import Any, Protocol
from urllib.parse import urljoin

from playwright.async_api import BrowserContext, Page, Request, Route
from playwright.async_api import Error as PlaywrightError

from browserops.origins import OriginRules


class GuardedSession(Protocol):
    """What the guard needs of the session (``BrowserSession``), without importing it."""

    origin_rules: OriginRules
    origin_blocks: list[dict[str, Any]]
    notices: list[dict[str, Any]]

    @property
    def pages(self) -> list[Page]: ...

log = logging.getLogger(__name__)

ROUTE_PATTERN = "**/*"
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})


def _frame_kind(request: Request) -> str:
    try:
        frame = request.frame
    except PlaywrightError:  # a service worker's request has no frame
        return "worker"
    return "page" if frame.parent_frame is None else "frame"


class OriginGuard:
    """The route handler of one session's context."""

    def __init__(self, session: GuardedSession) -> None:
        self.session = session
        self.installed: BrowserContext | None = None

    @property
    def rules(self) -> OriginRules:
        return self.session.origin_rules

    async def install(self, context: BrowserContext) -> None:
        if self.installed is context or not self.rules.active:
            return
        await context.route(ROUTE_PATTERN, self._handle)
        context.on("request", self._on_request)
        self.installed = context

    def _record(self, request: Request, url: str, rule: str, how: str) -> None:
        kind = _frame_kind(request)
        pages = self.session.pages
        tab: int | None = None
        with contextlib.suppress(PlaywrightError):
            page = request.frame.page
            tab = pages.index(page) if page in pages else None
        where = {"page": "the tab", "frame": "a frame of the page", "worker": "a worker"}[kind]
        message = (f"browserops blocked {how} of {where} to {url[:200]} ({rule}); nothing was loaded from there.")
        block = {"kind": "origin_blocked", "url": url, "rule": rule, "frame": kind, "tab": tab, "how": how,
                 "message": message}
        self.session.origin_blocks.append(block)
        self.session.notices.append(block)
        log.info("origin blocked: %s of %s (%s)", how, kind, rule)

    async def _handle(self, route: Route, request: Request) -> None:
        if not self.rules.active or not request.is_navigation_request():
            await route.fallback()
            return
        url = request.url
        rule = self.rules.refusal(url)
        if rule is not None:
            self._record(request, url, rule, "a navigation")
            await route.abort("blockedbyclient")
            return
        if not url.startswith(("http://", "https://")):
            await route.fallback()
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
        await route.fulfill(response=response)

    def _on_request(self, request: Request) -> None:
        """A later hop of a redirect chain is not routed (Playwright routes a chain's first request only): say
        so when it reaches a refused origin; the document it loads is left by :func:`stop_refused`."""
        if request.redirected_from is None or not request.is_navigation_request():
            return
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


ERROR_PAGE = "chrome-error://"


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
            continue
        with contextlib.suppress(PlaywrightError):
            if await page.go_back(wait_until="domcontentloaded") is None and page.url.startswith(ERROR_PAGE) \
                    and len(pages) > 1:
                await page.close()
                block["closed_tab"] = True
