"""One session engine behind both front doors (REPL and HTTP server), docs/design.md §10.

Per ``session_id`` it keeps a :class:`ChatSession` (mode, current goal, the one pending action and its kind,
status, short history), persisted atomically after every change so a restarted process resumes it. It turns
input lines into REPL semantics — slash commands, chat mode, ``/yes``/``/no`` for a pending confirmation,
"done" after a manual hand-off, ``/stop`` between steps — runs at most one Brain turn per session, and
publishes every event on its :class:`EventBus`.

Chat mode: ``/chat`` enters it; every non-slash line then goes to the agent. The chat-control commands
(``/yes``, ``/no``, ``/stop``, ``/status``, ``/help``, ``/chat``) keep it; ``/exit`` or any other slash command
leaves it (docs/design.md §10.1).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Literal

from filelock import FileLock

from browserops.chat.api import Brain, ChatSession, Event, TurnKind, TurnOutcome, check_session_id
from browserops.chat.events import EventBus
from browserops.chat.store import ChatStore
from browserops.chat.turns import TurnCall, TurnSupervisor
from browserops.chat.words import is_done_message
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.privacy import mask_pii

log = logging.getLogger(__name__)

Reply = str | TurnOutcome
Role = Literal["owner", "viewer"]

VIEWER_COMMANDS = frozenset({"/status", "/help"})
_CONTINUING = frozenset({"report", "ask", "manual", "error", "confirm"})

HELP = """Commands:
  /chat    enter chat mode: every line that is not a command goes to the agent
  /exit    leave chat mode (so does any command not listed here)
  /yes     execute the action waiting for your confirmation — exactly that action, once
  /no      drop the action waiting for confirmation; the agent decides again or asks
  /stop    stop the running task after its current step, or drop what is waiting for you
  /status  mode, status, current goal and what is pending
  /help    this list
After a manual hand-off (login, captcha, 2FA) write "done" (готово, 好了, fertig, listo, …) when finished.
After a report, any message continues the task: "go on", or feedback."""

VIEWER_REFUSAL = (
    "This is a read-only viewer: it cannot start tasks, answer confirmations, stop or change the mode. "
    "Use the owner token printed when the server started."
)


class ChatEngine:
    def __init__(self, workspace: Path, brain: Brain, *, steps_per_message: int = 10, replay: int = 500) -> None:
        self.workspace = workspace
        self.brain = brain
        self.steps_per_message = steps_per_message
        self.store = ChatStore(workspace)
        self.bus = EventBus(replay=replay, store=self.store)
        self.turns = TurnSupervisor(self.store, self.bus, steps_per_message)
        self._sessions: dict[str, ChatSession] = {}
        self._claims: dict[str, FileLock] = {}

    # -- state -------------------------------------------------------------------------------------
    def session(self, session_id: str) -> ChatSession:
        """The session's state, loaded from the workspace on first use (a new one if there is none)."""
        check_session_id(session_id)
        state = self._sessions.get(session_id)
        if state is None:
            if session_id not in self._claims:
                self._claims[session_id] = self.store.claim(session_id)
            state = self.store.load(session_id) or ChatSession(session_id=session_id)
            if state.status == "running":
                # The process running this turn died; nothing is running now, so say so.
                state.status = "error"
                state.last_outcome = "error"
                state.last_error = {"code": ErrorCode.INTERNAL.value,
                                    "error": "The previous process stopped while a task was running."}
                state.add_message("system", "The previous process stopped while a task was running; "
                                            "send a message to continue.")
                self._save(state)
            self._sessions[session_id] = state
        return state

    def is_running(self, session_id: str) -> bool:
        return self.turns.is_running(session_id)

    async def wait_idle(self, session_id: str) -> TurnOutcome | None:
        """Wait for the running turn (if any) and return its outcome."""
        task = self.turns.task(session_id)
        if task is None:
            return None
        return await asyncio.shield(task)

    def _save(self, state: ChatSession) -> None:
        self.turns.save(state)

    async def _announce(self, state: ChatSession) -> None:
        await self.turns.announce(state)

    # -- input -------------------------------------------------------------------------------------
    async def submit(self, session_id: str, line: str, *, role: Role = "owner") -> list[Reply]:
        """Handle one input line exactly as the REPL does; return reply lines and/or the turn's outcome.

        A line that starts a turn returns when the turn ends (``/stop`` from another task interrupts it).
        A viewer may only use ``/status`` and ``/help``; anything else raises ``BROWSER_UNAUTHORIZED``.
        """
        state = self.session(session_id)
        text = line.strip()
        if not text:
            return []
        if text.startswith("/"):
            command, _, _rest = text.partition(" ")
            command = command.lower()
            if role != "owner" and command not in VIEWER_COMMANDS:
                raise BrowserOpsError(ErrorCode.UNAUTHORIZED, VIEWER_REFUSAL)
            return await self._command(state, command)
        if role != "owner":
            raise BrowserOpsError(ErrorCode.UNAUTHORIZED, VIEWER_REFUSAL)
        if state.mode != "chat":
            return ["You are in command mode. Type /chat to talk to the agent, /help for the commands."]
        return await self._message(state, text)

    def request_stop(self, session_id: str) -> bool:
        """Ask the running turn to stop between steps, without recording it (``/stop`` records it)."""
        return self.turns.request_stop(session_id)

    async def _command(self, state: ChatSession, command: str) -> list[Reply]:
        handlers: dict[str, Callable[[ChatSession], Awaitable[list[Reply]]]] = {
            "/help": self._help, "/status": self._status, "/chat": self._enter_chat, "/exit": self._exit_chat,
            "/yes": self._yes, "/no": self._no, "/stop": self._stop_command,
        }
        handler = handlers.get(command)
        if handler is not None:
            return await handler(state)
        if state.mode == "chat":
            await self._set_mode(state, "cmd")
            return [f"Unknown command {command}. Left chat mode; /help lists the commands."]
        return [f"Unknown command {command}; /help lists the commands."]

    async def _help(self, state: ChatSession) -> list[Reply]:
        return [HELP]

    async def _status(self, state: ChatSession) -> list[Reply]:
        status = state.status + (f" ({state.pending_kind})" if state.pending_kind != "none" else "")
        lines = [f"session {state.session_id}: {state.mode} mode, {status}"]
        if state.current_goal:
            lines.append(f"goal: {mask_pii(state.current_goal)}")
        if state.pending_action is not None and state.pending_kind == "confirm":
            lines.append(f"waiting for /yes or /no: {state.pending_action.describe()}")
        elif state.status == "waiting_user" and state.waiting_reason:
            lines.append(f"waiting for you: {mask_pii(state.waiting_reason)}")
        if state.status == "error" and state.last_error:
            lines.append(f"last error: {state.last_error.get('error')}")
        return ["\n".join(lines)]

    async def _set_mode(self, state: ChatSession, mode: Literal["cmd", "chat"]) -> None:
        state.mode = mode
        self._save(state)
        await self._announce(state)

    async def _enter_chat(self, state: ChatSession) -> list[Reply]:
        if state.mode == "chat":
            return ["Already in chat mode."]
        await self._set_mode(state, "chat")
        reply = "Chat mode: every line goes to the agent. /exit leaves, /help lists the commands."
        if state.pending_kind == "confirm" and state.pending_action is not None:
            reply += f"\nWaiting for your confirmation: {state.pending_action.describe()} — /yes or /no."
        elif state.status == "waiting_user" and state.waiting_reason:
            reply += f"\nWaiting for you: {mask_pii(state.waiting_reason)}"
        return [reply]

    async def _exit_chat(self, state: ChatSession) -> list[Reply]:
        if state.mode != "chat":
            return ["Not in chat mode."]
        await self._set_mode(state, "cmd")
        return ["Left chat mode. /chat enters it again."]

    async def _yes(self, state: ChatSession) -> list[Reply]:
        return await self._answer(state, approved=True)

    async def _no(self, state: ChatSession) -> list[Reply]:
        return await self._answer(state, approved=False)

    async def _answer(self, state: ChatSession, *, approved: bool) -> list[Reply]:
        sid = state.session_id
        if self.is_running(sid):
            return ["Busy: a task is running. /stop first."]
        pending = state.pending_action
        if state.pending_kind != "confirm" or pending is None:
            return ["Nothing is waiting for confirmation."]
        # Taken synchronously before any await: a second /yes finds nothing, so the action runs once.
        state.pending_kind = "none"
        state.add_message("user", "/yes" if approved else "/no")
        prelude = [Event.make("policy_result", sid, approved=approved, tool=pending.tool, args=pending.args,
                              target=pending.target)]
        brain = self.brain
        task = self.turns.start(
            state, "approved" if approved else "rejected",
            lambda emit, stop: brain.resolve_pending(state, approved, emit, stop), prelude,
        )
        return [await asyncio.shield(task)]

    async def _stop_command(self, state: ChatSession) -> list[Reply]:
        sid = state.session_id
        if self.turns.request_stop(sid):
            state.add_message("system", "Stop requested.")
            await self.turns.publish(sid, "manual_stop", during="running", by="user")
            return ["Stopping after the current step…"]
        if state.status == "waiting_user" or state.pending_kind != "none":
            dropped = state.pending_action.tool if state.pending_action else state.pending_kind
            state.pending_action = None
            state.pending_kind = "none"
            state.status = "idle"
            state.waiting_reason = None
            state.last_outcome = "stopped"
            state.add_message("system", "Stopped by the user.")
            self._save(state)
            await self.turns.publish(sid, "manual_stop", during="waiting_user", by="user", dropped=dropped)
            await self._announce(state)
            return ["Stopped. Nothing is pending; the next message starts a new task."]
        return ["Nothing is running."]

    async def _message(self, state: ChatSession, text: str) -> list[Reply]:
        sid = state.session_id
        if self.is_running(sid):
            return ["Busy: a task is running. /stop first."]
        if state.pending_kind == "confirm" and state.pending_action is not None:
            return [f"Waiting for your confirmation: {state.pending_action.describe()}. "
                    "Answer /yes or /no (/stop drops it)."]
        state.add_message("user", text)
        brain = self.brain
        call: TurnCall
        turn: TurnKind
        if state.pending_kind == "manual" and is_done_message(text):
            state.pending_kind = "none"
            turn = "manual_done"
            call = lambda emit, stop: brain.resume_after_manual(state, text, emit, stop)  # noqa: E731
        else:
            # Anything else while waiting for a manual step is taken as new instructions for the same goal.
            continuing = state.current_goal is not None and state.last_outcome in _CONTINUING
            state.pending_kind = "none"
            if not continuing:
                state.current_goal = text
            turn = "feedback" if continuing else "new_goal"
            call = lambda emit, stop: brain.handle_message(state, text, emit, stop)  # noqa: E731
        task = self.turns.start(state, turn, call)
        return [await asyncio.shield(task)]

    async def close(self, grace_s: float = 10.0) -> None:
        """Stop running turns (between steps; cancel after ``grace_s``), end every subscription, release
        the sessions for other processes."""
        await self.turns.close(grace_s)
        self.bus.close()
        for claim in self._claims.values():
            claim.release()
        self._claims.clear()
        self._sessions.clear()
