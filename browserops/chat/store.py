"""Where chat sessions live on disk: ``<workspace>/.browserops/chat/<session_id>.json`` and ``.events.jsonl``.

The state file is replaced atomically (write a temporary file, fsync, rename), so a crash leaves either the
old or the new state, never half of one. The event log is append-only and holds only masked event data; it
lets a restarted process continue the ``seq`` numbering and replay recent events to late subscribers.
"""

from __future__ import annotations

import contextlib
import logging
import os
import time
from collections import deque
from pathlib import Path

import orjson
from filelock import FileLock, Timeout
from pydantic import ValidationError

from browserops.chat.api import ChatSession, Event, check_session_id
from browserops.contract import BrowserOpsError, ErrorCode

log = logging.getLogger(__name__)

CHAT_DIR = Path(".browserops") / "chat"


class ChatStore:
    def __init__(self, workspace: Path) -> None:
        self.root = workspace / CHAT_DIR

    def _dir(self) -> Path:
        # Owner-only: the state file keeps the raw arguments of a pending action.
        self.root.mkdir(parents=True, exist_ok=True, mode=0o700)
        return self.root

    def state_path(self, session_id: str) -> Path:
        return self.root / f"{check_session_id(session_id)}.json"

    def events_path(self, session_id: str) -> Path:
        return self.root / f"{check_session_id(session_id)}.events.jsonl"

    def claim(self, session_id: str) -> FileLock:
        """Hold the session for this process: two processes writing one session would lose each other's state."""
        lock = FileLock(self._dir() / f"{check_session_id(session_id)}.lock", thread_local=False)
        try:
            lock.acquire(timeout=0)
        except Timeout as exc:
            raise BrowserOpsError(
                ErrorCode.SESSION_IN_USE,
                f"Chat session {session_id!r} is open in another browserops process (chat or serve) on this "
                "workspace. Close that one, or use another --session.",
            ) from exc
        return lock

    # -- state -------------------------------------------------------------------------------------
    def load(self, session_id: str) -> ChatSession | None:
        path = self.state_path(session_id)
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return None
        try:
            data = orjson.loads(raw)
            pending = data.get("pending_action")
            state = ChatSession.model_validate(data)
            if state.pending_action is not None and isinstance(pending, dict):
                state.pending_action.raw_args = dict(pending.get("raw_args") or {})
            return state
        except (orjson.JSONDecodeError, ValidationError, AttributeError) as exc:
            # Keep the unreadable file for inspection and start the session afresh.
            kept = path.with_name(f"{path.name}.corrupt-{int(time.time())}")
            with contextlib.suppress(OSError):
                path.rename(kept)
            log.warning("chat session %s: unreadable state file moved to %s (%s)", session_id, kept.name, exc)
            return None

    def save(self, state: ChatSession) -> None:
        data = state.model_dump(mode="json")
        if state.pending_action is not None:
            data["pending_action"]["raw_args"] = state.pending_action.raw_args
        payload = orjson.dumps(data, option=orjson.OPT_INDENT_2)
        path = self.state_path(state.session_id)
        directory = self._dir()
        tmp = directory / f".{path.name}.{os.getpid()}.tmp"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, payload)
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)

    # -- event log ---------------------------------------------------------------------------------
    def append_event(self, event: Event) -> None:
        self._dir()
        with self.events_path(event.session_id).open("ab") as fh:
            fh.write(orjson.dumps(event.to_json()) + b"\n")

    def recent_events(self, session_id: str, limit: int) -> list[Event]:
        """The last ``limit`` events of a session's log (unreadable lines are skipped)."""
        path = self.events_path(session_id)
        if not path.is_file() or limit <= 0:
            return []
        tail: deque[bytes] = deque(maxlen=limit)
        with path.open("rb") as fh:
            for line in fh:
                if line.strip():
                    tail.append(line)
        out: list[Event] = []
        for line in tail:
            try:
                out.append(Event.model_validate(orjson.loads(line)))
            except (orjson.JSONDecodeError, ValidationError):
                log.warning("chat session %s: skipping an unreadable event log line", session_id)
        return out

    def session_ids(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(p.name[: -len(".json")] for p in self.root.glob("*.json"))
