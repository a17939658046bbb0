"""The ``file`` lane backend (the default): the workspace lane as an OS file lock.

A lane is an exclusive OS file lock (``flock`` through :mod:`filelock`) on
``<workspace>/.browserops/lane.lock``. The kernel drops the lock when its holder's process exits for any
reason — SIGKILL and power-off of the process included — so a crashed run never leaves the lane locked and
there is no stale-lock cleanup to get wrong. (On a filesystem without ``flock``, e.g. some network mounts,
filelock falls back to a lock file that a crash *can* leave behind; keep workspaces on a local disk.)

Next to the lock, ``lane.holder.json`` names the current holder (pid, what it runs, since when) so a waiter can
say whom it waits for. It is informational only: the lock decides, never that file. ``lane.fence`` counts the
holders: each one gets the next number as its fencing token, recorded in the run's ``bundle.json``.

``lane_backend = "redis://host:port/db"`` selects :class:`browserops.lane.redis_lane.RedisLane` instead, which
holds across machines; :func:`browserops.lane.backend.open_lane` picks by the setting. Both have the async
interface of :class:`browserops.lane.backend.WorkspaceLane`.

Usage::

    with Lane(ws, on_wait=print_to_stderr, holder={"requestId": rid}):
        ...                                   # waits while another process holds the lane
    with Lane(ws, no_wait=True):              # BROWSER_LANE_BUSY instead of waiting
        ...
    async with Lane(ws):                      # waits without blocking the event loop
        ...
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import TracebackType
from typing import Any

import orjson
from filelock import FileLock, Timeout

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.lane.holder import busy_message, holder_record

LANE_DIR = ".browserops"
LOCK_FILE = "lane.lock"
HOLDER_FILE = "lane.holder.json"
FENCE_FILE = "lane.fence"


class Lane:
    def __init__(
        self,
        workspace: Path,
        *,
        no_wait: bool = False,
        timeout_s: float | None = None,
        on_wait: Callable[[str], None] | None = None,
        holder: Mapping[str, Any] | None = None,
        poll_s: float = 0.05,
    ) -> None:
        self.workspace = workspace.resolve()
        self.no_wait = no_wait
        self.timeout_s = timeout_s
        self.on_wait = on_wait
        self.holder = dict(holder or {})
        self.poll_s = poll_s
        folder = self.workspace / LANE_DIR
        folder.mkdir(parents=True, exist_ok=True)
        self.lock_path = folder / LOCK_FILE
        self.holder_path = folder / HOLDER_FILE
        self.fence_path = folder / FENCE_FILE
        self.token: int | None = None
        # thread_local=False: an asyncio program may release from another thread than it acquired in.
        self._lock = FileLock(self.lock_path, thread_local=False)
        self.waited_s = 0.0

    # ------------------------------------------------------------------ inspection

    def current_holder(self) -> dict[str, Any] | None:
        """What the holder file says (may describe a holder that has since exited: the lock decides)."""
        try:
            data = orjson.loads(self.holder_path.read_bytes())
        except (OSError, orjson.JSONDecodeError):
            return None
        return data if isinstance(data, dict) else None

    def is_free(self) -> bool:
        """Whether nobody holds the lane right now (a racy snapshot, for status displays)."""
        if self._lock.is_locked:
            return False
        try:
            self._lock.acquire(blocking=False)
        except Timeout:
            return False
        self._lock.release()
        return True

    def _busy_message(self) -> str:
        return busy_message(self.workspace, self.current_holder() or {})

    def _busy_error(self, waited: bool) -> BrowserOpsError:
        if waited:
            detail = f"; gave up after {self.timeout_s:g} s. Wait for it to finish, then retry."
        else:
            detail = ". Wait for it to finish, or run again without --no-wait to queue behind it."
        return BrowserOpsError(ErrorCode.LANE_BUSY, self._busy_message() + detail,
                               details={"holder": self.current_holder() or {}})

    def _took(self) -> None:
        try:
            previous = int(self.fence_path.read_text(encoding="ascii").strip() or 0)
        except (OSError, ValueError):
            previous = 0
        self.token = previous + 1
        _overwrite(self.fence_path, str(self.token).encode("ascii"))  # under the lock: no other writer
        _overwrite(self.holder_path, orjson.dumps(holder_record({**self.holder, "token": self.token})))

    def record(self) -> dict[str, Any]:
        return {"backend": "file", "token": self.token}

    async def check(self) -> None:
        """A file lock cannot be lost while its process lives: nothing to check."""

    async def release_async(self) -> None:
        self.release()

    # ------------------------------------------------------------------ sync

    def _try_now(self) -> bool:
        """One non-blocking attempt; when the lane is busy, fail fast (``no_wait``) or announce the wait."""
        try:
            self._lock.acquire(blocking=False)
            return True
        except Timeout:
            if self.no_wait:
                raise self._busy_error(waited=False) from None
            if self.on_wait:
                self.on_wait(self._busy_message() + "; waiting for it…")
            return False

    def acquire(self) -> Lane:
        if not self._try_now():
            started = time.monotonic()
            try:
                self._lock.acquire(timeout=-1 if self.timeout_s is None else self.timeout_s, poll_interval=self.poll_s)
            except Timeout:
                raise self._busy_error(waited=True) from None
            finally:
                self.waited_s = time.monotonic() - started
        self._took()
        return self

    def release(self) -> None:
        if self._lock.is_locked:
            self._lock.release()

    def __enter__(self) -> Lane:
        return self.acquire()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()

    # ------------------------------------------------------------------ async

    async def acquire_async(self) -> Lane:
        """Like :meth:`acquire`, but polls with ``asyncio.sleep`` so the event loop keeps running."""
        if not self._try_now():
            started = time.monotonic()
            while True:
                await asyncio.sleep(self.poll_s)
                try:
                    self._lock.acquire(blocking=False)
                    break
                except Timeout:
                    if self.timeout_s is not None and time.monotonic() - started >= self.timeout_s:
                        self.waited_s = time.monotonic() - started
                        raise self._busy_error(waited=True) from None
            self.waited_s = time.monotonic() - started
        self._took()
        return self

    async def __aenter__(self) -> Lane:
        return await self.acquire_async()

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        self.release()


def _overwrite(path: Path, data: bytes) -> None:
    """Best effort (the files are informational or a counter under the lock)."""
    with contextlib.suppress(OSError):
        # Overwrite, then cut to length: opening with O_TRUNC makes ext4 flush on close (~1-2 ms per run).
        fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            os.write(fd, data)
            os.ftruncate(fd, len(data))
        finally:
            os.close(fd)
