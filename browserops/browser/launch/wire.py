"""What a page sends that Playwright's request events and routes never report: a DevTools ``Fetch`` tap per target.

Chromium gives each document its own frame host (RenderDocument). When a page navigates away, its pagehide/unload
listeners run as the old document goes, and what they send with ``navigator.sendBeacon`` or a ``keepalive`` fetch
(a CMS releasing its editing lock, analytics) is carried on by the browser with no ``Network.requestWillBeSent`` on
the page's target: Playwright's request events (and its routes: a paused request with no ``networkId`` is continued
unseen, crNetworkManager ``_onRequestPaused``) never hear of it, although the server gets it. Likewise a request still
in flight when its document went gets no ``loadingFinished``, so its answer never reaches Playwright. And Playwright
routes a request's first hop only: the hops of a redirect (a page's fetch or ``<img>`` of an allowed address that
redirects elsewhere, a form post answered 302) are continued without asking any route (crNetworkManager: "we do not
fire routes for redirects").

The browser's own interception does see all of them: a ``Fetch`` session on a target pauses each request in the
browser process, whichever document sent it, each hop of a redirect again (``redirectedRequestId``), a dedicated
worker's requests with its page's. With origin rules the tap pauses every request and refuses, before it leaves,
each whose address the rules refuse (:class:`HopGuard`): every hop is under the rules. Without rules it pauses only
the kinds a going document can send a change with (fetch/XHR, beacons, "other"). It continues every safe request at
once; an unsafe one is continued with ``interceptResponse`` so its answer's status is read as it arrives. A request
with no ``networkId`` (no page-side record: Playwright never sees it) is reported to
:class:`~browserops.browser.launch.requests.RequestMonitor` as sent by an unloading document; the answer of any
unsafe request is reported too, so an entry whose document went is closed with its status.

A tap talks to its target through a ``send`` function (a page's own DevTools session, or a cross-site frame's session
reached through it: :mod:`~browserops.browser.launch.targets`), and is fed that target's ``Fetch.requestPaused``
events. It changes nothing on the wire but a round trip through this process per paused request, so a session taps
its pages only when it has origin rules or runs or rehearses a plan. Where the browser offers no DevTools session
(not Chromium), ``RequestMonitor.blind`` says so, and the ledger says it may miss unload-time sends.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

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
# With origin rules: every request, each hop of a redirect included.
EVERY = [{"urlPattern": "*", "requestStage": "Request"}]
# A document request (a navigation of the page or of a frame in it), paused where the session guards workers: see
# WireTap's ``before_document``.
DOCUMENTS = {"urlPattern": "*", "requestStage": "Request", "resourceType": "Document"}


class TapListener(Protocol):
    """What the tap tells (the session's RequestMonitor)."""

    def unload_sent(self, key: str, method: str, url: str, kind: str, body: bytes | None) -> bool:
        """A request no page event reported (``key`` names it until its answer); False refuses it."""

    def answered(self, key: str | None, method: str, url: str, status: int) -> None:
        """An unsafe request's answer arrived: ``key`` for one :meth:`unload_sent` reported, else the request is
        one Playwright reported (method and URL find it)."""

    def refuses(self, method: str, url: str, kind: str, body: bytes | None, *, reported: bool) -> bool:
        """Whether an unsafe request is refused before it leaves (a read-only window: a plan's export step).
        ``reported``: Playwright reports it too (it has a page-side record), so its ledger entry comes from there."""


class HopGuard(Protocol):
    """The origin rules, asked about every request a tap pauses (the session's OriginGuard)."""

    @property
    def active(self) -> bool:
        """Whether any rule is set (then every request is paused and asked about)."""

    def stops(self, url: str, *, method: str, kind: str, redirected: bool, frame: str, tab: int | None) -> bool:
        """True when the rules refuse ``url`` (the refusal is recorded): the tap fails the request."""


Send = Callable[[str, dict[str, Any]], Awaitable[Any]]
DocumentGate = Callable[[], Awaitable[None]]


def _body(request: dict[str, Any]) -> bytes | None:
    entries = request.get("postDataEntries")
    if entries:
        with contextlib.suppress(ValueError):
            return b"".join(base64.b64decode(e.get("bytes", "")) for e in entries)
    text = request.get("postData")
    return text.encode("utf-8") if isinstance(text, str) else None


class WireTap:
    """The Fetch tap of one target (see the module). ``frame``: "page", or "frame" for a cross-site frame's target;
    ``tab``: which tab it belongs to (for the refusal's notice). ``before_document``: awaited before a document
    request goes on, while ``documents()`` says so (then document requests are paused even without rules): a
    navigation must not commit while a worker of the page is held for its guard, because Chromium lets go of a
    worker whose document is being replaced, and the worker then runs its script unguarded until its thread ends —
    long enough to open a WebSocket (launch/targets.py)."""

    def __init__(self, send: Send, listener: TapListener | None, guard: HopGuard | None, *, frame: str = "page",
                 tab: Callable[[], int | None] = lambda: None, before_document: DocumentGate | None = None,
                 documents: Callable[[], bool] = lambda: False) -> None:
        self.send = send
        self.listener = listener
        self.guard = guard
        self.frame = frame
        self.tab = tab
        self.before_document = before_document
        self.documents = documents
        self._tasks: set[asyncio.Task[None]] = set()
        self.orphans: set[str] = set()  # Fetch request ids of unanswered requests no page event reported
        self.patterns: list[dict[str, str]] | None = None

    async def enable(self) -> None:
        """Start (or re-aim) the interception: every request while rules are set, else the unload-time kinds
        (nothing at all when nobody listens and no rule is set)."""
        every = self.guard is not None and self.guard.active
        patterns = EVERY if every else list(PATTERNS) if self.listener is not None else []
        if not every and self.before_document is not None and self.documents():
            patterns.append(DOCUMENTS)
        if patterns == self.patterns:
            return
        if patterns:
            await self.send("Fetch.enable", {"patterns": patterns})
        else:
            await self.send("Fetch.disable", {})
        self.patterns = patterns

    def on_paused(self, event: dict[str, Any]) -> None:
        task = asyncio.get_running_loop().create_task(self._decide(event))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _stopped(self, event: dict[str, Any], method: str, url: str) -> bool:
        guard = self.guard
        if guard is None or not guard.active:
            return False
        return guard.stops(url, method=method, kind=str(event.get("resourceType", "Other")),
                           redirected=bool(event.get("redirectedRequestId")), frame=self.frame, tab=self.tab())

    def _read_only(self, event: dict[str, Any], method: str, url: str, request: dict[str, Any]) -> bool:
        """An unsafe request in the listener's read-only window (a plan's export step): refused."""
        if method in SAFE_METHODS or self.listener is None:
            return False
        return self.listener.refuses(method, url, str(event.get("resourceType", "other")).lower(), _body(request),
                                     reported=bool(event.get("networkId")))

    async def _decide(self, event: dict[str, Any]) -> None:
        fetch_id = event["requestId"]
        request = event.get("request") or {}
        method = str(request.get("method", "GET")).upper()
        url = str(request.get("url", ""))
        status = event.get("responseStatusCode")
        command, params = "Fetch.continueRequest", {"requestId": fetch_id}
        refused = {"requestId": fetch_id, "errorReason": "BlockedByClient"}
        try:
            if status is None and event.get("resourceType") == "Document" and self.before_document is not None:
                await self.before_document()
            if status is not None:  # the answer of an unsafe request (only those ask for it)
                command = "Fetch.continueResponse"
                key = fetch_id if fetch_id in self.orphans else None
                self.orphans.discard(fetch_id)
                if self.listener is not None:
                    self.listener.answered(key, method, url, int(status))
            elif self._stopped(event, method, url) or self._read_only(event, method, url, request):
                command, params = "Fetch.failRequest", refused
            elif method not in SAFE_METHODS and self.listener is not None:
                if not event.get("networkId"):
                    kind = str(event.get("resourceType", "other")).lower()
                    if not self.listener.unload_sent(fetch_id, method, url, kind, _body(request)):
                        command, params = "Fetch.failRequest", refused
                    else:
                        self.orphans.add(fetch_id)
                if command == "Fetch.continueRequest":
                    params["interceptResponse"] = True
        finally:
            # Whatever happened above, the request goes on (or is refused): a paused request left alone hangs.
            with contextlib.suppress(PlaywrightError, TapGone):
                await self.send(command, params)


class TapGone(Exception):
    """The target a tap talked to went away (its frame or worker closed) before an answer came."""
