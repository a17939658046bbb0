"""``GET /events``: a session's events as Server-Sent Events, replay first, then live.

Each event is ``id: <seq>`` / ``event: <type>`` / ``data: <json>``; a reconnecting EventSource sends
``Last-Event-ID`` and gets what it missed from the replay buffer. A comment line every ``ping_s`` seconds
keeps proxies and idle timeouts from closing the stream. The stream ends when the client disconnects or
the server shuts down.
"""

from __future__ import annotations

import asyncio
import contextlib

import orjson
from starlette.types import Message, Receive, Scope, Send

from browserops.chat.api import Event
from browserops.chat.events import Subscription

SSE_HEADERS = [
    (b"content-type", b"text/event-stream; charset=utf-8"),
    (b"cache-control", b"no-store"),
    (b"x-accel-buffering", b"no"),
    (b"x-content-type-options", b"nosniff"),
]


def format_event(event: Event) -> bytes:
    data = orjson.dumps(event.to_json())  # one line: orjson never emits raw newlines
    return b"id: %d\nevent: %s\ndata: %s\n\n" % (event.seq, event.type.encode(), data)


class EventStream:
    """An ASGI response streaming one subscription."""

    def __init__(self, subscription: Subscription, *, ping_s: float = 15.0) -> None:
        self.subscription = subscription
        self.ping_s = ping_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        sub = self.subscription

        async def watch_disconnect() -> None:
            while True:
                message: Message = await receive()
                if message["type"] == "http.disconnect":
                    sub.close()
                    return

        watcher = asyncio.create_task(watch_disconnect())
        try:
            await send({"type": "http.response.start", "status": 200, "headers": SSE_HEADERS})
            await send({"type": "http.response.body", "body": b"retry: 2000\n: connected\n\n", "more_body": True})
            while True:
                try:
                    async with asyncio.timeout(self.ping_s):
                        event = await sub.get()
                except TimeoutError:
                    await send({"type": "http.response.body", "body": b": ping\n\n", "more_body": True})
                    continue
                if event is None:
                    break
                await send({"type": "http.response.body", "body": format_event(event), "more_body": True})
            with contextlib.suppress(OSError):
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        except OSError:
            pass  # the client went away mid-send
        finally:
            sub.close()
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher
