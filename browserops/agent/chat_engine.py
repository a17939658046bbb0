"""One session engine behind both front doors (REPL and HTTP server), seed 002 §2–§10.

Per ``session_id`` it keeps a :class:`ChatSession` (mode, current goal, the one pending action and its kind,
status, short history), persisted atomically after every change so a restarted process resumes it. It turns
input lines into REPL semantics — slash commands, chat mode, ``/yes``/``/no`` for a pending confirmation,
"done" after a manual hand-off, ``/stop`` between steps — runs at most one Brain turn per session, and
publishes every event on its :class:`EventBus`.

Chat mode: ``/chat`` enters it; every non-slash line then goes to the agent. The chat-control commands
(``/yes``, ``/no``, ``/stop``, ``/status``, ``/help``, ``/chat``) keep it; ``/exit`` or any other slash command
leaves it (seed 002 §2).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any, Literal

from filelock import FileLock

from browserops.agent.chat_api import (
    Brain,
    ChatSession,
    Event,
    EventSink,
    EventType,
    TurnInterrupted,
    TurnKind,
    TurnOutcome,
    check_session_id,
    now,
)
from browserops.agent.chat_events import EventBus
from browserops.agent.chat_store import ChatStore
from browserops.agent.chat_words import is_done_message
from browserops.errors import BrowserOpsError, ErrorCode
from browserops.privacy import mask_args, mask_pii

log = logging.getLogger(__name__)

Reply = str | TurnOutcome
Role = Literal["owner", "viewer"]
TurnCall = Callable[[EventSink, Callable[[], bool]], Awaitable[TurnOutcome]]

STAYS_IN_CHAT = frozenset({"/chat", "/yes", "/no", "/stop", "/status", "/help"})
VIEWER_COMMANDS = frozenset({"/status", "/help"})
_QUESTION_KINDS = frozenset({"confirm", "manual", "ask", "report"})
_CONTINUING = frozenset({"report", "ask", "manual", "error", "confirm"})
_OBSERVATION_ITEMS = 20

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


def _observation_view(data: Mapping[str, Any]) -> dict[str, Any]:
    """The part of an observation kept in the session: page, screenshot path and the top numbered items."""
    items = []
    for item in list(data.get("items") or [])[:_OBSERVATION_ITEMS]:
        if isinstance(item, Mapping):
            items.append({
                "n": item.get("n"),
                "role": str(item.get("role") or "")[:40],
                "name": mask_pii(str(item.get("name") or ""))[:120],
            })
    return {
        "url": mask_pii(str(data.get("url") or "")),
        "title": mask_pii(str(data.get("title") or ""))[:200],
        "summary": mask_pii(str(data.get("summary") or ""))[:500],
        "screenshot": data.get("screenshot") if isinstance(data.get("screenshot"), str) else None,
        "items": items,
    }


class ChatEngine:
    def __init__(self, workspace: Path, brain: Brain, *, steps_per_message: int = 10, replay: int = 500) -> None:
        self.workspace = workspace
        self.brain = brain
        self.steps_per_message = steps_per_message
        self.store = ChatStore(workspace)
        self.bus = EventBus(replay=replay, store=self.store)
        self._sessions: dict[str, ChatSession] = {}
        self._tasks: dict[str, asyncio.Task[TurnOutcome]] = {}
        self._stop: dict[str, bool] = {}
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
        task = self._tasks.get(session_id)
        return task is not None and not task.done()

    async def wait_idle(self, session_id: str) -> TurnOutcome | None:
        """Wait for the running turn (if any) and return its outcome."""
        task = self._tasks.get(session_id)
        if task is None:
            return None
        return await asyncio.shield(task)

    def _save(self, state: ChatSession) -> None:
        state.updated_at = now()
        self.store.save(state)

    async def _publish(self, session_id: str, type: EventType, **data: Any) -> Event:
        return await self.bus.publish(Event.make(type, session_id, **data))

    async def _announce(self, state: ChatSession) -> None:
        await self._publish(state.session_id, "status", status=state.status, pending_kind=state.pending_kind,
                            mode=state.mode)

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
        """Ask the running turn to stop between steps (Ctrl+C in the REPL). False when nothing runs."""
        if not self.is_running(session_id):
            return False
        self._stop[session_id] = True
        return True

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
        task = self._start_turn(
            state, "approved" if approved else "rejected",
            lambda emit, stop: brain.resolve_pending(state, approved, emit, stop), prelude,
        )
        return [await asyncio.shield(task)]

    async def _stop_command(self, state: ChatSession) -> list[Reply]:
        sid = state.session_id
        if self.is_running(sid):
            self._stop[sid] = True
            state.add_message("system", "Stop requested.")
            await self._publish(sid, "manual_stop", during="running", by="user")
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
            await self._publish(sid, "manual_stop", during="waiting_user", by="user", dropped=dropped)
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
        task = self._start_turn(state, turn, call)
        return [await asyncio.shield(task)]

    # -- turns -------------------------------------------------------------------------------------
    def _start_turn(
        self, state: ChatSession, turn: TurnKind, call: TurnCall, prelude: list[Event] | None = None
    ) -> asyncio.Task[TurnOutcome]:
        # Marked running synchronously, so a concurrent submit sees the task before anything is awaited.
        sid = state.session_id
        state.turn = turn
        state.status = "running"
        state.waiting_reason = None
        self._stop[sid] = False
        task = asyncio.create_task(self._run_turn(state, call, prelude or []), name=f"chat-turn-{sid}")
        self._tasks[sid] = task
        return task

    async def _run_turn(self, state: ChatSession, call: TurnCall, prelude: list[Event]) -> TurnOutcome:
        sid = state.session_id
        steps = 0
        self._save(state)
        for event in prelude:
            await self.bus.publish(event)
        await self._announce(state)

        async def emit(event: Event) -> None:
            nonlocal steps
            update: dict[str, Any] = {}
            if event.session_id != sid:
                update["session_id"] = sid
            if event.type == "tool_call":
                if self._stop.get(sid):
                    raise TurnInterrupted(TurnOutcome(kind="stopped", message=f"Stopped by you after {steps} "
                                                      f"step{'s' if steps != 1 else ''}."))
                if steps >= self.steps_per_message:
                    raise TurnInterrupted(TurnOutcome(
                        kind="report",
                        message=f"I used the {self.steps_per_message} steps allowed for one message. "
                                "Shall I continue? Reply 'go on', or tell me what to change.",
                    ))
                steps += 1
                # Defensive: a Brain should already mask, but typed text must never reach an event.
                if isinstance(event.data.get("args"), Mapping):
                    update["data"] = {**event.data, "args": mask_args(event.data["args"]), "step": steps}
                else:
                    update["data"] = {**event.data, "step": steps}
            elif event.type == "observation":
                state.last_observation = _observation_view(event.data)
            await self.bus.publish(event.model_copy(update=update) if update else event)

        def should_stop() -> bool:
            return self._stop.get(sid, False)

        try:
            outcome = await call(emit, should_stop)
        except TurnInterrupted as exc:
            outcome = exc.outcome
        except BrowserOpsError as exc:
            state.last_error = exc.to_dict()
            outcome = TurnOutcome(kind="error", message=exc.message)
        except asyncio.CancelledError:
            state.status = "error"
            state.last_outcome = "error"
            state.last_error = {"code": ErrorCode.INTERNAL.value, "error": "The task was cancelled."}
            self._save(state)
            raise
        except Exception as exc:
            log.exception("chat turn of %s failed", sid)
            state.last_error = {"code": ErrorCode.INTERNAL.value, "error": f"{type(exc).__name__}: {exc}"}
            outcome = TurnOutcome(kind="error", message=f"Internal error ({type(exc).__name__}); see the log.")
        finally:
            self._stop[sid] = False
        return await self._finish(state, outcome, steps)

    async def _finish(self, state: ChatSession, outcome: TurnOutcome, steps: int) -> TurnOutcome:
        sid = state.session_id
        if outcome.kind == "confirm" and outcome.pending is None:
            state.last_error = {"code": ErrorCode.INTERNAL.value, "error": "confirm outcome without an action"}
            outcome = TurnOutcome(kind="error", message="The agent asked for a confirmation without naming the "
                                                        "action; nothing was executed.")
        kind = outcome.kind
        state.pending_action = outcome.pending if kind == "confirm" else None
        state.pending_kind = "confirm" if kind == "confirm" else "manual" if kind == "manual" else "none"
        state.status = "idle" if kind in ("final", "stopped") else "error" if kind == "error" else "waiting_user"
        state.waiting_reason = outcome.message if state.status == "waiting_user" else None
        state.last_outcome = kind
        if kind != "error":
            state.last_error = None
        state.turn = None
        state.add_message("agent", outcome.message)
        self._save(state)

        message = mask_pii(outcome.message)
        if kind == "confirm" and outcome.pending is not None:
            pending = outcome.pending
            await self._publish(sid, "policy_request", tool=pending.tool, args=pending.args, target=pending.target,
                                reason=pending.reason, description=pending.describe())
        if kind in ("final", "report", "stopped"):
            await self._publish(sid, "final", kind=kind, message=message, steps=steps)
        if kind == "error":
            code = (state.last_error or {}).get("code")
            await self._publish(sid, "error", code=code, error=message, fatal=True)
        if kind in _QUESTION_KINDS:
            extra: dict[str, Any] = {}
            if outcome.pending is not None and kind == "confirm":
                extra["pending"] = {"tool": outcome.pending.tool, "args": outcome.pending.args,
                                    "target": outcome.pending.target, "description": outcome.pending.describe()}
            await self._publish(sid, "agent_question", text=message, kind=kind, **extra)
        else:
            await self._publish(sid, "agent_message", text=message, kind=kind)
        await self._announce(state)
        return outcome

    async def close(self, grace_s: float = 10.0) -> None:
        """Stop running turns (between steps; cancel after ``grace_s``) and end every subscription."""
        running = [t for t in self._tasks.values() if not t.done()]
        for sid in list(self._tasks):
            self.request_stop(sid)
        if running:
            _done, left = await asyncio.wait(running, timeout=grace_s)
            for task in left:
                task.cancel()
            for task in left:
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self.bus.close()
        for claim in self._claims.values():
            claim.release()
        self._claims.clear()
        self._sessions.clear()
