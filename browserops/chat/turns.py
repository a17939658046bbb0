"""Running one Brain turn: status transitions, the guarded ``emit``, and turning the outcome into state and events.

The engine decides *which* turn to run (``chat_engine.py``); this module runs it. ``emit`` enforces two rules
even for a Brain that forgets them: no tool call after ``/stop``, and no more than ``steps_per_message`` tool
calls per turn (both raise :class:`TurnInterrupted` before the tool runs). Typed text in ``tool_call`` args is
masked again, defensively.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from browserops.chat.api import (
    ChatSession,
    Event,
    EventSink,
    EventType,
    TurnInterrupted,
    TurnKind,
    TurnOutcome,
    now,
)
from browserops.chat.events import EventBus
from browserops.chat.store import ChatStore
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.listing_rows import listing_items
from browserops.privacy import mask_args, mask_pii

log = logging.getLogger(__name__)

TurnCall = Callable[[EventSink, Callable[[], bool]], Awaitable[TurnOutcome]]
_QUESTION_KINDS = frozenset({"confirm", "manual", "ask", "report"})
_OBSERVATION_ITEMS = 20


def _observation_view(data: Mapping[str, Any]) -> dict[str, Any]:
    """The part of an observation kept in the session: page, screenshot path and the top numbered items."""
    items = []
    for item in listing_items(data)[:_OBSERVATION_ITEMS]:
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


class TurnSupervisor:
    """At most one running turn per session, with its stop flag."""

    def __init__(self, store: ChatStore, bus: EventBus, steps_per_message: int) -> None:
        self.store = store
        self.bus = bus
        self.steps_per_message = steps_per_message
        self._tasks: dict[str, asyncio.Task[TurnOutcome]] = {}
        self._stop: dict[str, bool] = {}

    def is_running(self, session_id: str) -> bool:
        task = self._tasks.get(session_id)
        return task is not None and not task.done()

    def task(self, session_id: str) -> asyncio.Task[TurnOutcome] | None:
        return self._tasks.get(session_id)

    def request_stop(self, session_id: str) -> bool:
        """Ask the running turn to stop between steps. False when nothing runs."""
        if not self.is_running(session_id):
            return False
        self._stop[session_id] = True
        return True

    def save(self, state: ChatSession) -> None:
        state.updated_at = now()
        self.store.save(state)

    async def publish(self, session_id: str, type: EventType, **data: Any) -> Event:
        return await self.bus.publish(Event.make(type, session_id, **data))

    async def announce(self, state: ChatSession) -> None:
        await self.publish(state.session_id, "status", status=state.status, pending_kind=state.pending_kind,
                           mode=state.mode)

    def start(
        self, state: ChatSession, turn: TurnKind, call: TurnCall, prelude: list[Event] | None = None
    ) -> asyncio.Task[TurnOutcome]:
        # Marked running synchronously, so a concurrent submit sees the task before anything is awaited.
        sid = state.session_id
        state.turn = turn
        state.status = "running"
        state.waiting_reason = None
        self._stop[sid] = False
        task = asyncio.create_task(self._run(state, call, prelude or []), name=f"chat-turn-{sid}")
        self._tasks[sid] = task
        return task

    async def _run(self, state: ChatSession, call: TurnCall, prelude: list[Event]) -> TurnOutcome:
        sid = state.session_id
        steps = 0
        self.save(state)
        for event in prelude:
            await self.bus.publish(event)
        await self.announce(state)

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
            self.save(state)
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
        self.save(state)

        message = mask_pii(outcome.message)
        if kind == "confirm" and outcome.pending is not None:
            pending = outcome.pending
            await self.publish(sid, "policy_request", tool=pending.tool, args=pending.args, target=pending.target,
                                reason=pending.reason, description=pending.describe())
        if kind in ("final", "report", "stopped"):
            await self.publish(sid, "final", kind=kind, message=message, steps=steps)
        if kind == "error":
            code = (state.last_error or {}).get("code")
            await self.publish(sid, "error", code=code, error=message, fatal=True)
        if kind in _QUESTION_KINDS:
            extra: dict[str, Any] = {}
            if outcome.pending is not None and kind == "confirm":
                extra["pending"] = {"tool": outcome.pending.tool, "args": outcome.pending.args,
                                    "target": outcome.pending.target, "description": outcome.pending.describe()}
            await self.publish(sid, "agent_question", text=message, kind=kind, **extra)
        else:
            await self.publish(sid, "agent_message", text=message, kind=kind)
        await self.announce(state)
        return outcome

    async def close(self, grace_s: float) -> None:
        """Stop running turns between steps; cancel those still running after ``grace_s``."""
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
