"""What a page sends that Playwright's request events never report: a DevTools ``Fetch`` tap per page.

Chromium gives each document its own frame host (RenderDocument). When a page navigates away, its pagehide/unload
listeners run as the old document goes, and what they send with ``navigator.sendBeacon`` or a ``keepalive`` fetch
(a CMS releasing its editing lock, analytics) is carried on by the browser with no ``Network.requestWillBeSent`` on
the page's target: Playwright's request events (and its routes: a paused request with no ``networkId`` is continued
unseen, crNetworkManager ``_onRequestPaused``) never hear of it, although the server gets it. Likewise a request still
in flight when its document went gets no ``loadingFinished``, so its answer never reaches Playwright.

The browser's own interception does see both: a ``Fetch`` session on the page's target pauses every request of the
kinds a going document can send a change with (fetch/XHR, beacons, "other") in the browser process, whichever
document sent it. The tap continues every safe one at once; an unsafe one is continued with ``interceptResponse`` so its
answer's status is read as it arrives. A request with no ``networkId`` (no page-side record: Playwright never sees
it) is reported to :class:`~browserops.browser.launch.requests.RequestMonitor` as sent by an unloading document;
the answer of any unsafe request is reported too, so an entry whose document went is closed with its status.

The tap changes nothing on the wire but a round trip through this process per paused request, so a session taps
its pages only once it runs or rehearses a plan (``RequestMonitor.start_tapping``). Where the browser offers no
DevTools session (not Chromium), ``RequestMonitor.blind`` says so, and the ledger says it may miss unload-time sends.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Protocol

from playwright.async_api import BrowserContext, CDPSession, Page
from playwright.async_api import Error as PlaywrightError

log = logging.getLogger(__name__)

# The safe methods of RFC 9110 §9.2.1; everything else could change a server. One definition for the ledger,
# the rehearsal fence and the tap.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# The request kinds a page can send with an unsafe method while or after its document goes. Images, scripts,
# styles, fonts, media, prefetches, event streams and WebSocket handshakes are always GETs; a document request (a
# form post) always has its page-side record and its answer goes to the new document, which Playwright reports: so
# none of those is paused, and a page load costs no extra round trip.
TAPPED_KINDS = ("XHR", "Fetch", "Ping", "Other", "CSPViolationReport")
PATTERNS = [{"urlPattern": "*", "requestStage": "Request", "resourceType": kind} for kind in TAPPED_KINDS]


class TapListener(Protocol):
    """What the tap tells (the session's RequestMonitor)."""

    def unload_sent(self, key: str, method: str, url: str, kind: str, body: bytes | None) -> bool:
        """A request no page event reported (``key`` names it until its answer); False refuses it."""

    def answered(self, key: str | None, method: str, url: str, status: int) -> None:
        """An unsafe request's answer arrived: ``key`` for one :meth:`unload_sent` reported, else the request is
        one Playwright reported (method and URL find it)."""


def _body(request: dict[str, Any]) -> bytes | None:
    entries = request.get("postDataEntries")
    if entries:
        with contextlib.suppress(ValueError):
            return b"".join(base64.b64decode(e.get("bytes", "")) for e in entries)
    text = request.get("postData")
    return text.encode("utf-8") if isinstance(text, str) else None


class WireTap:
    """The Fetch tap of one page (see the module)."""

    def __init__(self, listener: TapListener) -> None:
        self.listener = listener
        self.cdp: CDPSession | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.orphans: set[str] = set()  # Fetch request ids of unanswered requests no page event reported

    async def attach(self, context: BrowserContext, page: Page) -> bool:
        """Open the page's DevTools session and start the tap; False where the browser offers none."""
        try:
            # Set before interception starts: a request paused before Fetch.enable answers must be continued too.
            self.cdp = cdp = await context.new_cdp_session(page)
            cdp.on("Fetch.requestPaused", self._on_paused)
            await cdp.send("Fetch.enable", {"patterns": PATTERNS})
        except PlaywrightError as exc:
            log.info("no DevTools tap for %s: %s", page.url, str(exc).splitlines()[0] if str(exc) else exc)
            return False
        return True

    def _on_paused(self, event: dict[str, Any]) -> None:
        task = asyncio.get_running_loop().create_task(self._decide(event))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _decide(self, event: dict[str, Any]) -> None:
        cdp = self.cdp
        if cdp is None:
            return
        fetch_id = event["requestId"]
        request = event.get("request") or {}
        method = str(request.get("method", "GET")).upper()
        url = str(request.get("url", ""))
        status = event.get("responseStatusCode")
        command, params = "Fetch.continueRequest", {"requestId": fetch_id}
        try:
            if status is not None:  # the answer of an unsafe request (only those ask for it)
                command = "Fetch.continueResponse"
                key = fetch_id if fetch_id in self.orphans else None
                self.orphans.discard(fetch_id)
                self.listener.answered(key, method, url, int(status))
            elif method not in SAFE_METHODS:
                if not event.get("networkId"):
                    kind = str(event.get("resourceType", "other")).lower()
                    if not self.listener.unload_sent(fetch_id, method, url, kind, _body(request)):
                        command, params = "Fetch.failRequest", {"requestId": fetch_id, "errorReason": "BlockedByClient"}
                    else:
                        self.orphans.add(fetch_id)
                if command == "Fetch.continueRequest":
                    params["interceptResponse"] = True
        finally:
            # Whatever happened above, the request goes on (or is refused): a paused request left alone hangs.
            with contextlib.suppress(PlaywrightError):
                await cdp.send(command, params)


def tap_page(context: BrowserContext, page: Page, listener: TapListener,
             on_result: Callable[[Page, WireTap | None], None]) -> asyncio.Task[None]:
    """Start ``page``'s tap in a task of its own (the page event that asks for it cannot wait); ``on_result`` gets
    the tap, or None where the browser offers no DevTools session."""
    tap = WireTap(listener)

    async def start() -> None:
        on_result(page, tap if await tap.attach(context, page) else None)

    return asyncio.get_running_loop().create_task(start())
