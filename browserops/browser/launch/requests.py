"""What the pages of a session *sent*: every request that could change a server, as it leaves and as it is answered.

"Unsafe" is RFC 9110's complement of the safe methods: anything but GET, HEAD and OPTIONS (so form posts, fetch/XHR
writes, ``sendBeacon`` — a POST of type ``ping`` — and a form post that navigates), plus every WebSocket message a
page sends. The monitor listens to the context's ``request`` / ``requestfinished`` / ``requestfailed`` events (every
page, frame and popup of the context, whoever started the request) and to each page's WebSockets, and (once a run
or rehearsal asks, :meth:`RequestMonitor.start_tapping`) taps each page's DevTools ``Fetch`` interception
(:mod:`~browserops.browser.launch.wire`) for what those events never report: what a document sends as it unloads
(``sendBeacon``, keepalive fetches) and the answer of a request whose document went before it came. It never
changes a request.

Each entry keeps method, origin + path (query values replaced by ``…``: they can hold what a person typed; so is
every path segment that holds one of the plan's input values, as a REST path does — :meth:`RequestMonitor.hide`),
the answer's status, start and end time, and the body's size and keyed digest (``privacy.keyed_digest``: comparable
within the workspace, useless to anyone holding the bundle alone) — never the body, and no digest at all of a body
that carries a secret the run entered. ``step`` says which plan step was running when it left
(:meth:`RequestMonitor.set_step`), so a run's ledger can say which step caused it.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import logging
import time
import urllib.parse
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from playwright.async_api import BrowserContext, Page, Request, WebSocket
from playwright.async_api import Error as PlaywrightError

from browserops.browser.launch.targets import PageWires
from browserops.browser.launch.wire import SAFE_METHODS
from browserops.privacy import EnteredValues, keyed_digest

log = logging.getLogger(__name__)

MAX_ENTRIES = 2000  # a page that posts in a loop cannot grow the session without bound


def redacted_url(url: str, hidden: Sequence[str] = ()) -> str:
    """Origin + path, with every query value replaced by ``…`` (the keys stay: they say what kind of request it
    was), every path segment holding one of ``hidden`` (the plan's input values, in each form they take) replaced
    by ``…`` too, and no fragment."""
    parts = urllib.parse.urlsplit(url)
    keys = [key for key, _ in urllib.parse.parse_qsl(parts.query, keep_blank_values=True)]
    query = "&".join(f"{urllib.parse.quote(key)}=…" for key in keys)
    path = parts.path or "/"
    if hidden:
        folded = [h.casefold() for h in hidden if h]
        path = "/".join("…" if any(h in urllib.parse.unquote(seg).casefold() for h in folded) else seg
                        for seg in path.split("/"))
    return urllib.parse.urlunsplit((parts.scheme, parts.netloc, path, query, ""))


def _spellings(value: str) -> set[bytes]:
    """How a value may appear in a request body: as is, URL-encoded (a form post) and JSON-escaped."""
    forms = {value, urllib.parse.quote_plus(value), urllib.parse.quote(value, safe=""),
             orjson.dumps(value).decode()[1:-1]}
    return {f.encode("utf-8") for f in forms if f}


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds")


@dataclass
class SentRequest:
    """One unsafe request (or WebSocket message) a page sent."""

    id: int
    method: str  # POST, PUT, …; "WS" for a WebSocket message
    url: str  # redacted_url
    kind: str  # Playwright's resource type: fetch, xhr, document, ping (sendBeacon), websocket, …
    step: int | None
    started: str
    body_bytes: int
    body_digest: str | None  # privacy.keyed_digest; None: no body, or one that carries a secret
    ended: str | None = None
    status: int | None = None
    failure: str | None = None
    unloading: bool = False  # sent by a document as it went away, seen only by the DevTools tap
    body_secret: bool = False  # the body carries a secret the run entered: no digest of it is kept
    _t0: float = 0.0
    _done: bool = False
    _raw_url: str = ""  # to find the entry again when the tap reads its answer; never written out

    @property
    def in_flight(self) -> bool:
        return not self._done

    @property
    def address(self) -> str:
        """The URL as sent (to tell its site), for the process only: never written out (``url`` is)."""
        return self._raw_url

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "method": self.method, "url": self.url, "kind": self.kind,
                               "step": self.step, "started": self.started, "ended": self.ended,
                               "status": self.status, "bodyBytes": self.body_bytes, "bodyDigest": self.body_digest}
        if self.body_secret:
            out["bodySecret"] = True
        if self.failure:
            out["failure"] = self.failure
        if self.unloading:
            out["unloading"] = True
        if not self._done:
            out["inFlight"] = True
        return out


def _body(data: bytes | None, secrets: EnteredValues | None) -> tuple[int, str | None, bool]:
    """Size, keyed digest, and whether the body carries a secret (then no digest: not even a keyed one)."""
    if not data:
        return 0, None, False
    if secrets is not None and any(form in data for value in secrets.forms() for form in _spellings(value)):
        return len(data), None, True
    return len(data), keyed_digest(data), False


def _top_navigation(request: Request) -> bool:
    """A navigation of a tab's top document that the page itself started (not the next hop of a redirect: a form
    post answered 303 is recorded as its POST)."""
    try:
        return (request.is_navigation_request() and request.redirected_from is None
                and request.frame.parent_frame is None)
    except PlaywrightError:  # a service worker's request has no frame
        return False


class RequestMonitor:
    """The unsafe requests of one browser context, in the order they left."""

    def __init__(self) -> None:
        self.entries: list[SentRequest] = []
        self.step: int | None = None
        self._by_request: dict[Request, SentRequest] = {}
        self._context: BrowserContext | None = None
        self._changed = asyncio.Event()
        self._next_id = 1
        self._by_key: dict[str, SentRequest] = {}  # what the DevTools tap reported, by its Fetch request id
        # The session's page wires (launch/targets.py), which tap each page once a run asks (start_tapping).
        self.wires: PageWires | None = None
        # A fenced session (prepare's rehearsal) refuses what a document sends as it unloads: called with
        # (method, url, kind) for each refusal.
        self.refuse_unload: Callable[[str, str, str], None] | None = None
        # Whether a top-level GET navigation is recorded too (kind "navigation"): while a step that must save runs,
        # a link that changes data (an "Approve" that approves and comes back) sends its change by GET.
        self.navigations = False
        # A read-only window (a plan's export step acting): why every unsafe request is refused before it leaves
        # (the DevTools tap asks :meth:`refuses`), None outside one.
        self.read_only: str | None = None
        self.refused: list[str] = []  # what a read-only window refused ("POST origin/path"), in order
        # What a run enters (its plan's input values, the secrets among them), to keep out of URLs and digests.
        self._hidden: EnteredValues | None = None
        self._secrets: EnteredValues | None = None

    def hide(self, values: EnteredValues | None, *, secrets: EnteredValues | None) -> None:
        """From now on a URL path segment holding one of ``values`` (in any form it takes) is written as ``…``, and a
        body that carries one of ``secrets`` gets no digest; None: nothing is hidden beyond query values."""
        self._hidden, self._secrets = values, secrets

    def install(self, context: BrowserContext) -> None:
        if self._context is context:
            return
        self._context = context
        context.on("request", self._on_request)
        context.on("requestfinished", self._on_finished)
        context.on("requestfailed", self._on_failed)

    def watch_page(self, page: Page) -> None:
        page.on("websocket", self._on_websocket)

    def start_tapping(self) -> None:
        """Tap every page of the context from now on (a run, whose ledger it completes; a rehearsal, whose fence it
        completes). The tap costs each paused request a round trip through this process, so a session that only
        serves tools (an agent, an MCP client) goes without it until it runs a plan (unless it has origin rules,
        which tap every request anyway)."""
        if self.wires is not None:
            self.wires.tapping = True
            for page in self.wires.pages():
                self.wires.ensure(page)

    async def tapped(self) -> None:
        """Wait until every page's DevTools tap is in place (or known not to be)."""
        if self.wires is not None:
            await self.wires.update()

    @property
    def blind(self) -> str | None:
        """Why some page has no DevTools tap (a browser that offers no DevTools session): the ledger may then miss
        what a page sends as it unloads. None while every page is tapped."""
        return self.wires.blind if self.wires is not None else None

    def lost(self, keys: set[str]) -> None:
        """What a closed tab's documents sent as they unloaded can no longer be watched: still on its way, its
        answer unseen."""
        for key in keys:
            entry = self._by_key.pop(key, None)
            if entry is not None and entry.in_flight:
                entry.ended, entry.failure, entry._done = _now(), "answer not seen: its tab closed first", True
                self._changed.set()

    def set_step(self, step: int | None) -> None:
        """The plan step now running: what leaves from here on is that step's."""
        self.step = step

    # -- what the browser reports ----------------------------------------------------------------------------

    def _add(self, entry: SentRequest) -> None:
        if len(self.entries) >= MAX_ENTRIES:
            del self.entries[: len(self.entries) - MAX_ENTRIES + 1]
        self.entries.append(entry)
        self._changed.set()

    def _entry(self, method: str, url: str, kind: str, body: bytes | None) -> SentRequest:
        size, digest, secret = _body(body, self._secrets)
        hidden = self._hidden.forms() if self._hidden is not None else ()
        entry = SentRequest(self._next_id, method, redacted_url(url, hidden), kind, self.step, _now(), size, digest,
                            body_secret=secret, _t0=time.monotonic(), _raw_url=url)
        self._next_id += 1
        return entry

    def _on_request(self, request: Request) -> None:
        if request.method.upper() in SAFE_METHODS:
            if self.navigations and request.method.upper() == "GET" and _top_navigation(request):
                entry = self._entry("GET", request.url, "navigation", None)
                self._by_request[request] = entry
                self._add(entry)
                log.info("navigation GET %s (step %s)", entry.url, entry.step)
            return
        try:
            body = request.post_data_buffer
        except PlaywrightError:  # a body Playwright could not read (a stream): its size is unknown, not zero
            body = None
        entry = self._entry(request.method.upper(), request.url, request.resource_type, body)
        self._by_request[request] = entry
        self._add(entry)
        log.info("unsafe request %s %s (step %s)", entry.method, entry.url, entry.step)

    def _close(self, request: Request, status: int | None, failure: str | None) -> None:
        entry = self._by_request.pop(request, None)
        if entry is None:
            return
        if entry.in_flight:
            entry.ended = _now()
        # The DevTools tap may have read the answer already (its document went, so Playwright has none to read).
        entry.status, entry.failure, entry._done = status if status is not None else entry.status, failure, True
        self._changed.set()

    def _on_finished(self, request: Request) -> None:
        if request in self._by_request:
            self._read_status(request, None)

    def _on_failed(self, request: Request) -> None:
        # A form post answered with a file fails as a page load (the answer became a download) although the server
        # answered it: its status is still read, as the server gave it, beside the failure.
        if request in self._by_request:
            self._read_status(request, (request.failure or "failed")[:200])

    def _read_status(self, request: Request, failure: str | None) -> None:
        # The answer is already there when "requestfinished"/"requestfailed" fires; reading its status is a driver
        # round trip, so it is read in a task of its own.
        task = asyncio.get_running_loop().create_task(self._status(request, failure))
        task.add_done_callback(lambda t: t.exception() if not t.cancelled() else None)

    async def _status(self, request: Request, failure: str | None) -> None:
        status: int | None = None
        try:
            response = await request.response()
            status = response.status if response is not None else None
        except PlaywrightError:
            pass
        self._close(request, status, failure)

    # -- what the DevTools tap reports (wire.TapListener) ---------------------------------------------------

    def unload_sent(self, key: str, method: str, url: str, kind: str, body: bytes | None) -> bool:
        if self.refuse_unload is not None:
            self.refuse_unload(method, url, kind)
            return False
        entry = self._entry(method, url, kind, body)
        entry.unloading = True
        self._by_key[key] = entry
        self._add(entry)
        log.info("unsafe request %s %s sent as a page unloaded (step %s)", entry.method, entry.url, entry.step)
        return True

    def refuses(self, method: str, url: str, kind: str, body: bytes | None, *, reported: bool) -> bool:
        if self.read_only is None:
            return False
        hidden = self._hidden.forms() if self._hidden is not None else ()
        self.refused.append(f"{method} {redacted_url(url, hidden)}")
        log.info("refused an unsafe request (%s)", self.read_only)
        if not reported:  # sent by a document as it unloaded: no page event will put it in the ledger
            entry = self._entry(method, url, kind, body)
            entry.ended, entry.failure, entry._done, entry.unloading = entry.started, "refused", True, True
            self._add(entry)
        return True

    def answered(self, key: str | None, method: str, url: str, status: int) -> None:
        entry = self._by_key.pop(key, None) if key is not None else next(
            (e for e in self.entries if e.in_flight and not e.unloading and e.method == method and e._raw_url == url),
            None)
        if entry is None or not entry.in_flight:
            return
        # A request Playwright reported stays in its map: its own "requestfinished", if it ever comes, says the same.
        entry.ended, entry.status, entry._done = _now(), status, True
        self._changed.set()

    def _on_websocket(self, socket: WebSocket) -> None:
        url = socket.url

        def sent(payload: str | bytes) -> None:
            data = payload.encode("utf-8") if isinstance(payload, str) else payload
            entry = self._entry("WS", url, "websocket", data)
            entry.ended, entry._done = entry.started, True  # a message is sent whole; no answer belongs to it
            self._add(entry)

        socket.on("framesent", sent)

    # -- what the plan asks ------------------------------------------------------------------------------------

    def since(self, mark: int) -> list[SentRequest]:
        """Entries with an id above ``mark`` (see :meth:`mark`)."""
        return [e for e in self.entries if e.id > mark]

    def mark(self) -> int:
        return self._next_id - 1

    def in_flight(self) -> list[SentRequest]:
        return [e for e in self.entries if e.in_flight]

    async def changed(self, timeout_s: float) -> None:
        """Wait until something was sent or answered, at most ``timeout_s``."""
        self._changed.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._changed.wait(), timeout=max(0.0, timeout_s))
