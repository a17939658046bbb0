"""The requests of one page in flight, counted from when its tracker was installed (:class:`NetworkTracker`): what
settling waits for (``page/waiting.py``)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field

from playwright.async_api import Page, Request

POLL_S = 0.1
_LONG_LIVED = {"eventsource", "websocket"}
# What a page's content waits for before it shows its data; images, fonts, media and beacons ("ping") it does not.
WAITED_KINDS = frozenset({"fetch", "xhr", "document", "script"})
# A request in flight this long is a long poll or a stream, not data the page is about to show: not waited on.
LONG_LIVED_S = 5.0


@dataclass
class NetworkTracker:
    """In-flight requests of one page, counted from when the tracker was installed."""

    page: Page
    inflight: dict[Request, float] = field(default_factory=dict)  # each with when it started
    last_change: float = field(default_factory=time.monotonic)
    last_asked: float = 0.0  # when the page last sent a fetch/XHR (a question to its server)
    last_answered: float | None = None  # when an awaited request (WAITED_KINDS) last ended, answered or failed
    last_unloaded: float | None = None  # when a navigation last ended without a document (it became a download)

    def install(self) -> None:
        self.page.on("request", self._start)
        self.page.on("requestfinished", self._end)
        self.page.on("requestfailed", self._failed)

    def _start(self, request: Request) -> None:
        if request.resource_type in _LONG_LIVED or request.url.startswith("data:"):
            return
        self.last_change = self.inflight[request] = time.monotonic()
        if request.resource_type in ("fetch", "xhr"):
            self.last_asked = self.last_change

    def _end(self, request: Request) -> None:
        if self.inflight.pop(request, None) is not None:
            self.last_change = time.monotonic()
            if request.resource_type in WAITED_KINDS:
                self.last_answered = self.last_change

    def _failed(self, request: Request) -> None:
        if request.is_navigation_request():
            self.last_unloaded = time.monotonic()
        self._end(request)

    def unloaded_ago_ms(self) -> float | None:
        return None if self.last_unloaded is None else (time.monotonic() - self.last_unloaded) * 1000

    def answered_ago_ms(self) -> float | None:
        """How long ago the latest awaited request ended; None when none has."""
        return None if self.last_answered is None else (time.monotonic() - self.last_answered) * 1000

    def awaited(self) -> list[Request]:
        """The requests in flight the page's content is waiting for (:data:`WAITED_KINDS`, not long-lived)."""
        young = time.monotonic() - LONG_LIVED_S
        return [r for r, t0 in self.inflight.items() if t0 > young and r.resource_type in WAITED_KINDS]

    async def wait_answered(self, timeout_s: float) -> bool:
        """Until no awaited request is in flight; False at the timeout."""
        deadline = time.monotonic() + timeout_s
        while self.awaited():
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(min(POLL_S / 2, max(0.0, deadline - time.monotonic())))
        return True

    def idle_for(self) -> float:
        """Seconds since the last request started or ended, or 0 while one is in flight."""
        return 0.0 if self.inflight else time.monotonic() - self.last_change

    async def wait_idle(self, idle_ms: int, timeout_s: float) -> bool:
        deadline = time.monotonic() + timeout_s
        while True:
            if self.idle_for() * 1000 >= idle_ms:
                return True
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(min(POLL_S, max(0.0, deadline - time.monotonic())))
