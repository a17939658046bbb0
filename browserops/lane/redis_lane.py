"""The ``redis://`` lane backend: one browser run per workspace at a time across every runner machine.

Setting ``lane_backend = "redis://host:port/db"`` makes the lane a Redis key, ``browserops:lane:<workspace>``
(the workspace's absolute path: runners must see a shared workspace at the same path). Its value is
``"<token> <holder JSON>"``; it is set only when absent and expires after ``lane_lease_s`` seconds unless the
holder renews it, which a background task does every third of the lease while the run lives. A runner killed
with SIGKILL, or cut off from Redis, stops renewing: the key expires and the next runner takes the lane.

Every holding gets a **fencing token** from ``INCR browserops:lane:<workspace>:fence``, recorded in the run's
``bundle.json``. A runner that froze (stopped process, paused VM, long GC) can come back after its lease ended
and another runner took over; before each acting step :meth:`RedisLane.check` compares the lease's local
deadline (counted from *before* each renewal was sent, so it ends no later than the key does) and the key's
current value with its own, and raises ``BROWSER_LANE_LOST`` instead of acting. Acquire, renew and release are
Lua scripts, each one atomic on the Redis server. See cli_contract.md ("Lane backends").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import orjson
import redis.asyncio as aioredis
from redis.exceptions import RedisError

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.lane.holder import busy_message, holder_record

log = logging.getLogger(__name__)

KEY_PREFIX = "browserops:lane:"

# KEYS: lock, fence. ARGV: holder JSON, lease ms. Returns {token, value} when taken, {0, current value} if not.
_ACQUIRE = """
local current = redis.call('GET', KEYS[1])
if current then return {0, current} end
local token = redis.call('INCR', KEYS[2])
local value = token .. ' ' .. ARGV[1]
redis.call('SET', KEYS[1], value, 'PX', ARGV[2])
return {token, value}
"""
# KEYS: lock. ARGV: our value, lease ms. 1 when the lease was extended, 0 when the lane is no longer ours.
_RENEW = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0
"""
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


def public_url(url: str) -> str:
    """The URL without a password, for messages and bundle.json."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    netloc = f"{parts.username}:***@{host}" if parts.username else f":***@{host}"
    if parts.port:
        netloc += f":{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, parts.query, parts.fragment))


def parse_value(value: str) -> tuple[int, dict[str, Any]]:
    token, _, holder = value.partition(" ")
    try:
        who = orjson.loads(holder)
    except orjson.JSONDecodeError:
        who = {}
    return int(token) if token.isdigit() else 0, who if isinstance(who, dict) else {}


class RedisLane:
    """The workspace lane as a Redis lease. ``async with RedisLane(ws, url, lease_s=30):``."""

    def __init__(
        self,
        workspace: Path,
        url: str,
        *,
        lease_s: float = 30.0,
        no_wait: bool = False,
        timeout_s: float | None = None,
        on_wait: Callable[[str], None] | None = None,
        holder: Mapping[str, Any] | None = None,
        poll_s: float = 0.05,
    ) -> None:
        self.workspace = workspace.resolve()
        self.url = url
        self.lease_s = lease_s
        self.no_wait = no_wait
        self.timeout_s = timeout_s
        self.on_wait = on_wait
        self.holder = dict(holder or {})
        self.poll_s = poll_s
        self.key = KEY_PREFIX + str(self.workspace)
        self.fence_key = self.key + ":fence"
        self.waited_s = 0.0
        self.token: int | None = None
        self._value: str | None = None
        self._deadline = 0.0  # monotonic time the lease surely ends at, unless renewed before
        self._lost: str | None = None
        self._renewer: asyncio.Task[None] | None = None
        self._stop = asyncio.Event()
        # A short socket timeout: a renewal that hangs must not outlive the lease it tries to extend.
        io_timeout = max(0.2, min(5.0, lease_s / 3))
        self._io_timeout = io_timeout
        self._redis = aioredis.Redis.from_url(url, decode_responses=True, socket_timeout=io_timeout,
                                              socket_connect_timeout=io_timeout)

    # ------------------------------------------------------------------ errors

    def _unavailable(self, exc: Exception) -> BrowserOpsError:
        return BrowserOpsError(
            ErrorCode.LANE_UNAVAILABLE,
            f"Cannot reach the Redis lane backend at {public_url(self.url)} ({type(exc).__name__}: {exc}). Check "
            "that Redis runs there and this machine may connect, or set lane_backend = \"file\" for a "
            "single-machine lane.", details={"backend": public_url(self.url)})

    def _busy_error(self, who: Mapping[str, Any], waited: bool) -> BrowserOpsError:
        if waited:
            detail = f"; gave up after {self.timeout_s:g} s. Wait for it to finish, then retry."
        else:
            detail = ". Wait for it to finish, or run again without --no-wait to queue behind it."
        return BrowserOpsError(ErrorCode.LANE_BUSY, busy_message(self.workspace, who) + detail,
                               details={"holder": dict(who)})

    def _lost_error(self, why: str) -> BrowserOpsError:
        return BrowserOpsError(
            ErrorCode.LANE_LOST,
            f"This run's lease on the browser lane of workspace {self.workspace} (fencing token {self.token}) "
            f"ended: {why}. It stopped before acting again; another runner may hold the lane now. Check the "
            f"runner's connection to {public_url(self.url)} and its load, then prepare and run again.",
            details={"token": self.token, "backend": public_url(self.url)})

    # ------------------------------------------------------------------ acquire

    async def _try_once(self) -> tuple[bool, dict[str, Any]]:
        holder = orjson.dumps(holder_record(self.holder)).decode()
        sent = time.monotonic()
        try:
            token, value = await self._redis.eval(_ACQUIRE, 2, self.key, self.fence_key, holder,
                                                  int(self.lease_s * 1000))
        except RedisError as exc:
            raise self._unavailable(exc) from exc
        if int(token) == 0:
            return False, parse_value(str(value))[1]
        self.token, self._value = int(token), str(value)
        self._deadline = sent + self.lease_s
        self._lost = None
        return True, {}

    async def acquire_async(self) -> RedisLane:
        started = time.monotonic()
        announced = False
        while True:
            taken, who = await self._try_once()
            if taken:
                break
            if self.no_wait:
                await self._redis.aclose()
                raise self._busy_error(who, waited=False)
            if not announced and self.on_wait:
                self.on_wait(busy_message(self.workspace, who) + "; waiting for it…")
            announced = True
            if self.timeout_s is not None and time.monotonic() - started >= self.timeout_s:
                self.waited_s = time.monotonic() - started
                await self._redis.aclose()
                raise self._busy_error(who, waited=True)
            await asyncio.sleep(self.poll_s)
        self.waited_s = time.monotonic() - started if announced else 0.0
        self._stop.clear()
        self._renewer = asyncio.create_task(self._renew_loop(), name=f"lane-renew-{self.token}")
        return self

    # ------------------------------------------------------------------ holding

    async def _renew_loop(self) -> None:
        # Stopped by an event, not by cancelling: a cancel landing inside a Redis command can be lost in the
        # client's own timeout handling, and the loop then renews forever while release waits for it.
        while self._lost is None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), self.lease_s / 3)
            if self._stop.is_set():
                return
            sent = time.monotonic()
            if sent >= self._deadline:
                self._lost = f"the lease of {self.lease_s:g} s ran out before it could be renewed"
                return
            try:
                renewed = await self._redis.eval(_RENEW, 1, self.key, self._value or "",
                                                 int(self.lease_s * 1000))
            except RedisError as exc:  # a blip: try again until the lease runs out
                log.warning("could not renew the lane lease (token %s): %s", self.token, exc)
                continue
            if int(renewed) == 1:
                self._deadline = sent + self.lease_s
            else:
                self._lost = "the lease expired and the lane is no longer this run's"
                return

    async def check(self) -> None:
        """Raise ``BROWSER_LANE_LOST`` unless the lease is still surely ours."""
        if self._value is None:
            raise self._lost_error("the lane was never taken")
        if self._lost is None and time.monotonic() >= self._deadline:
            self._lost = f"it was not renewed within {self.lease_s:g} s (the runner froze or lost Redis)"
        if self._lost is None:
            try:
                current = await self._redis.get(self.key)
            except RedisError:
                current = self._value  # unreachable: the local deadline, still ahead, decides
            if current != self._value:
                holder = parse_value(str(current))[0] if current else None
                self._lost = ("the lease expired" + (f" and token {holder} holds the lane now" if holder else ""))
        if self._lost is not None:
            raise self._lost_error(self._lost)

    def record(self) -> dict[str, Any]:
        return {"backend": public_url(self.url), "token": self.token, "leaseS": self.lease_s}

    async def release_async(self) -> None:
        """Stop renewing, delete the key if still ours, close the client. Bounded: a Redis that stopped answering
        cannot hold a finished run, since the key expires by itself within the lease."""
        bound = 3 * self._io_timeout + 1.0
        if self._renewer is not None:
            self._stop.set()
            await asyncio.wait({self._renewer}, timeout=bound)  # one renewal in flight may finish first
            if not self._renewer.done():
                self._renewer.cancel()
                await asyncio.wait({self._renewer}, timeout=bound)
            self._renewer = None
        if self._value is not None:
            with contextlib.suppress(RedisError, TimeoutError):  # unreachable: the key expires by itself
                await asyncio.wait_for(self._redis.eval(_RELEASE, 1, self.key, self._value), bound)
            self._value = None
        with contextlib.suppress(RedisError, TimeoutError):
            await asyncio.wait_for(self._redis.aclose(), bound)

    async def __aenter__(self) -> RedisLane:
        return await self.acquire_async()

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.release_async()
