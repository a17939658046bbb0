"""``--speak``: spoken progress for the chat REPL through espeak-ng (docs/design.md §10.6).

What is spoken comes only from session events — status changes, step numbers and the agent's messages —
never from what the user typed, and never tool arguments (they may hold typed text). Utterances are queued
and spoken one at a time by ``espeak-ng --stdin`` (text on stdin, so it is never parsed as an option).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import shutil
from collections.abc import Callable, Sequence

from browserops.chat.api import Event

log = logging.getLogger(__name__)

MISSING_MESSAGE = (
    "--speak needs espeak-ng, which is not installed (Debian/Ubuntu: sudo apt-get install espeak-ng). "
    "Continuing without speech."
)
_MAX_QUEUED = 5
_MAX_CHARS = 400

_STATUS_WORDS = {"running": "Working.", "error": "Something went wrong."}


def spoken_text(event: Event) -> str | None:
    """What to say for an event, or None to stay quiet."""
    data = event.data
    if event.type == "status":
        return _STATUS_WORDS.get(str(data.get("status")))
    if event.type == "tool_call":
        return f"Step {data.get('step')}."
    if event.type in ("agent_message", "agent_question"):
        text = str(data.get("text") or "").strip()
        return text[:_MAX_CHARS] or None
    if event.type == "manual_stop":
        return "Stopping."
    return None


class Speaker:
    def __init__(self, command: Sequence[str]) -> None:
        self.command = list(command)
        self._queue: asyncio.Queue[str] = asyncio.Queue(maxsize=_MAX_QUEUED)
        self._worker: asyncio.Task[None] | None = None
        self._proc: asyncio.subprocess.Process | None = None

    @classmethod
    def find(cls, which: Callable[[str], str | None] = shutil.which,
             extra_args: Sequence[str] = ()) -> Speaker | None:
        """A speaker using espeak-ng, or None when it is not installed."""
        binary = which("espeak-ng")
        return cls([binary, "--stdin", *extra_args]) if binary else None

    def say(self, text: str) -> None:
        """Queue an utterance; when the queue is full the oldest news is dropped, not the newest."""
        if self._worker is None:
            self._worker = asyncio.create_task(self._run(), name="speaker")
        if self._queue.full():
            self._queue.get_nowait()
        self._queue.put_nowait(text)

    async def _run(self) -> None:
        while True:
            text = await self._queue.get()
            try:
                self._proc = await asyncio.create_subprocess_exec(
                    *self.command, stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
                await self._proc.communicate(text.encode("utf-8"))
            except OSError as exc:
                log.warning("espeak-ng failed: %s", exc)
            finally:
                self._proc = None
                self._queue.task_done()

    async def drain(self) -> None:
        """Wait until everything queued has been spoken."""
        if self._worker is not None:
            await self._queue.join()

    async def close(self) -> None:
        proc = self._proc
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                proc.terminate()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(5):
                    await proc.wait()
        if self._worker is not None:
            self._worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._worker
            self._worker = None
