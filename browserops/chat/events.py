"""Async publish/subscribe of session events, with a bounded replay buffer.

Each session has its own increasing ``seq``. A subscriber first gets the buffered events after the ``seq``
it names (an SSE client's ``Last-Event-ID``), then live ones, in order and without gaps. A subscriber that
cannot keep up is dropped (its iterator ends) instead of slowing the agent; it can reconnect and replay.
Published events are also appended to the session's event log when a store is given, so numbering and
replay survive a restart.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field

from browserops.chat.api import Event
from browserops.chat.store import ChatStore

log = logging.getLogger(__name__)

_CLOSED = None  # queue sentinel: the subscription is over


@dataclass
class _Channel:
    seq: int = 0
    buffer: deque[Event] = field(default_factory=deque)
    subscribers: set[Subscription] = field(default_factory=set)


class Subscription:
    """An async iterator of one session's events. Use ``async for`` and ``close()`` (or ``async with``)."""

    def __init__(self, bus: EventBus, session_id: str, types: frozenset[str] | None, queue_size: int) -> None:
        self._bus = bus
        self.session_id = session_id
        self.types = types
        self._queue: asyncio.Queue[Event | None] = asyncio.Queue(maxsize=queue_size)
        self.closed = False
        self.lagged = False

    def _offer(self, event: Event) -> None:
        if self.closed or (self.types is not None and event.type not in self.types):
            return
        try:
            self._queue.put_nowait(event)
        except asyncio.QueueFull:
            log.warning("event subscriber of %s fell behind; dropping it", self.session_id)
            self.lagged = True
            self._end()

    def _end(self) -> None:
        if self.closed:
            return
        self.closed = True
        self._bus._forget(self)
        # Make room for the sentinel so a waiting consumer always wakes up.
        while self._queue.full():
            self._queue.get_nowait()
        self._queue.put_nowait(_CLOSED)

    def close(self) -> None:
        self._end()

    async def get(self) -> Event | None:
        """The next event; ``None`` when the subscription ended (wrap in ``asyncio.timeout`` to bound it)."""
        if self.closed and self._queue.empty():
            return None
        item = await self._queue.get()
        if item is _CLOSED:
            self._queue.put_nowait(_CLOSED)  # stay ended for later calls
        return item

    def __aiter__(self) -> AsyncIterator[Event]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Event]:
        while True:
            event = await self.get()
            if event is None:
                return
            yield event

    async def __aenter__(self) -> Subscription:
        return self

    async def __aexit__(self, *exc: object) -> None:
        self.close()


class EventBus:
    def __init__(self, *, replay: int = 500, store: ChatStore | None = None, queue_size: int = 1000) -> None:
        self.replay = replay
        self.store = store
        # A replay must always fit, or a late subscriber would be dropped at once.
        self.queue_size = max(queue_size, replay + 100)
        self._channels: dict[str, _Channel] = {}
        self.closed = False

    def _channel(self, session_id: str) -> _Channel:
        channel = self._channels.get(session_id)
        if channel is None:
            channel = _Channel(buffer=deque(maxlen=self.replay))
            if self.store is not None:
                past = self.store.recent_events(session_id, self.replay)
                channel.buffer.extend(past)
                channel.seq = past[-1].seq if past else 0
            self._channels[session_id] = channel
        return channel

    def last_seq(self, session_id: str) -> int:
        return self._channel(session_id).seq

    async def publish(self, event: Event) -> Event:
        """Number the event, record it, and hand it to every subscriber of its session."""
        channel = self._channel(event.session_id)
        channel.seq += 1
        numbered = event.model_copy(update={"seq": channel.seq})
        channel.buffer.append(numbered)
        if self.store is not None:
            try:
                self.store.append_event(numbered)
            except OSError:
                log.exception("could not append to the event log of %s", event.session_id)
        for sub in list(channel.subscribers):
            sub._offer(numbered)
        return numbered

    def recent(self, session_id: str, after_seq: int = 0, types: Iterable[str] | None = None) -> list[Event]:
        wanted = frozenset(types) if types is not None else None
        return [e for e in self._channel(session_id).buffer
                if e.seq > after_seq and (wanted is None or e.type in wanted)]

    def subscribe(
        self, session_id: str, *, after_seq: int | None = None, types: Iterable[str] | None = None
    ) -> Subscription:
        """Live events of a session; with ``after_seq``, buffered events after it come first.

        Replay and registration happen without an ``await`` in between, so no event falls in a gap.
        """
        sub = Subscription(self, session_id, frozenset(types) if types is not None else None, self.queue_size)
        if self.closed:
            sub._end()
            return sub
        channel = self._channel(session_id)
        channel.subscribers.add(sub)
        if after_seq is not None:
            for event in self.recent(session_id, after_seq):
                sub._offer(event)
        return sub

    def _forget(self, sub: Subscription) -> None:
        channel = self._channels.get(sub.session_id)
        if channel is not None:
            channel.subscribers.discard(sub)

    def close(self) -> None:
        """End every subscription (server shutdown); later subscriptions end at once."""
        self.closed = True
        for channel in self._channels.values():
            for sub in list(channel.subscribers):
                sub._end()
