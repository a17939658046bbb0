"""The seam between the chat engine and the agent loop (docs/design.md §10.2).

The engine (``chat_engine.py``) owns sessions, modes, confirmation and manual hand-off, status transitions and
the event bus; a :class:`Brain` (the agent loop) owns the decisions. Both front doors — the REPL and the HTTP
server — drive the same engine, so the loop is written once against this module.

Contract for a Brain (what the engine relies on):

* ``emit`` every event the user should see while working, already masked (:func:`privacy.mask_args`): an
  ``observation`` after looking at the page, a ``tool_call`` *before* each tool call and a ``tool_result``
  after it, an ``error`` for a recoverable failure. Build them with :meth:`Event.make`; the bus assigns
  ``seq``. Emitting a ``tool_call`` after ``/stop`` or past the per-message step limit raises
  :class:`TurnInterrupted` inside ``emit`` — the tool is then not called, and the engine ends the turn.
* check ``should_stop()`` between steps and return ``TurnOutcome(kind="stopped")`` when it is true.
* return ``kind="confirm"`` with ``pending=PendingAction.create(...)`` for a destructive action instead of
  executing it; ``resolve_pending(approved=True)`` must then execute exactly ``state.pending_action`` (its
  ``raw_args``) once; ``approved=False`` must not execute it.
* return ``kind="manual"`` to hand over to the user (login, captcha, 2FA); ``resume_after_manual`` is called
  when the user says they are done; it observes again and goes on.
* return ``kind="report"`` after the step limit (what was done, what worked, what did not, the proposed next
  step, and the question whether to continue); the next chat message arrives through ``handle_message``
  with ``state.turn == "feedback"`` and ``state.current_goal`` as the anchor.
* ``state.brain_state`` is the brain's own JSON-able scratch space, persisted with the session.

Events the engine emits itself: ``status``, ``policy_request`` (from a ``confirm`` outcome),
``policy_result`` (``/yes``/``/no``), ``final`` (``final``/``report``/``stopped`` outcomes),
``agent_message``/``agent_question`` (every outcome) and ``manual_stop`` (``/stop``).

Observation data convention (the chat page and ``/screenshot/latest`` read it): ``{"url", "title",
"summary"?, "screenshot"?: workspace-relative PNG path, "items"?: [{"n", "role", "name"}, ...]}``.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.policy import PendingAction
from browserops.privacy import mask_pii

EventType = Literal[
    "observation",
    "tool_call",
    "tool_result",
    "policy_request",
    "policy_result",
    "error",
    "final",
    "status",
    "agent_message",
    "agent_question",
    "manual_stop",
]
Mode = Literal["cmd", "chat"]
PendingKind = Literal["none", "confirm", "manual"]
Status = Literal["idle", "running", "waiting_user", "error"]
OutcomeKind = Literal["final", "confirm", "manual", "ask", "report", "stopped", "error"]
# How the engine routed the input that started the current turn (set before the Brain is called).
TurnKind = Literal["new_goal", "feedback", "manual_done", "approved", "rejected"]

SESSION_ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
HISTORY_LIMIT = 200
MESSAGE_LIMIT = 2000


def now() -> datetime:
    return datetime.now(UTC)


def check_session_id(session_id: str) -> str:
    """Session ids become file names, so only a safe alphabet is accepted."""
    if not SESSION_ID_PATTERN.match(session_id):
        raise BrowserOpsError(
            ErrorCode.INVALID_ARGS,
            f"Invalid session id {session_id[:80]!r}: use 1-64 letters, digits, '-' or '_' (e.g. 'default').",
        )
    return session_id


class Event(BaseModel):
    """One thing that happened in a session. ``data`` is already masked: no typed text, no secrets."""

    model_config = ConfigDict(frozen=True)

    type: EventType
    session_id: str
    seq: int = 0
    at: datetime = Field(default_factory=now)
    data: dict[str, Any] = Field(default_factory=dict)

    @classmethod
    def make(cls, type: EventType, session_id: str, **data: Any) -> Event:
        """A new event; ``seq`` is assigned when it is published."""
        return cls(type=type, session_id=session_id, data=data)

    def to_json(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


EventSink = Callable[[Event], Awaitable[None]]


class TurnOutcome(BaseModel):
    """How a turn of the Brain ended."""

    kind: OutcomeKind
    message: str
    pending: PendingAction | None = None


class ChatMessage(BaseModel):
    role: Literal["user", "agent", "system"]
    text: str
    at: datetime = Field(default_factory=now)


class ChatSession(BaseModel):
    """Per-``session_id`` chat state, persisted in the workspace so a restarted process resumes it."""

    session_id: str
    mode: Mode = "cmd"
    current_goal: str | None = None
    pending_action: PendingAction | None = None
    pending_kind: PendingKind = "none"
    status: Status = "idle"
    turn: TurnKind | None = None
    # The question or instruction the user is asked to answer while status is waiting_user.
    waiting_reason: str | None = None
    last_outcome: OutcomeKind | None = None
    last_error: dict[str, Any] | None = None
    last_observation: dict[str, Any] | None = None
    history: list[ChatMessage] = Field(default_factory=list)
    brain_state: dict[str, Any] = Field(default_factory=dict)
    created_at: datetime = Field(default_factory=now)
    updated_at: datetime = Field(default_factory=now)

    def add_message(self, role: Literal["user", "agent", "system"], text: str) -> None:
        self.history.append(ChatMessage(role=role, text=text[:MESSAGE_LIMIT]))
        del self.history[:-HISTORY_LIMIT]

    def public_view(self) -> dict[str, Any]:
        """What front doors may show: masked goal and history, the pending action without raw args."""
        out = self.model_dump(mode="json", exclude={"brain_state", "history", "current_goal"})
        out["current_goal"] = mask_pii(self.current_goal) if self.current_goal else None
        out["history"] = [
            {"role": m.role, "text": mask_pii(m.text), "at": m.at.isoformat()} for m in self.history[-50:]
        ]
        if self.pending_action is not None:
            out["pending_action"]["description"] = self.pending_action.describe()
        return out


class Brain(Protocol):
    """The agent loop, seen from the engine. Every method runs one turn of up to N tool steps."""

    async def handle_message(
        self, state: ChatSession, text: str, emit: EventSink, should_stop: Callable[[], bool]
    ) -> TurnOutcome:
        """A new goal (``state.turn == "new_goal"``) or feedback/"go on" (``"feedback"``)."""
        ...

    async def resolve_pending(
        self, state: ChatSession, approved: bool, emit: EventSink, should_stop: Callable[[], bool]
    ) -> TurnOutcome:
        """``/yes``: execute exactly ``state.pending_action`` once, then go on. ``/no``: drop it, decide again."""
        ...

    async def resume_after_manual(
        self, state: ChatSession, text: str, emit: EventSink, should_stop: Callable[[], bool]
    ) -> TurnOutcome:
        """The user finished the manual part (login, captcha, 2FA): observe again and go on."""
        ...


class TurnInterrupted(BaseException):
    """Raised inside ``emit`` when a Brain announces a tool call it may no longer make (stop or step limit).

    A BaseException, so a Brain's ``except Exception`` around a step does not swallow it: let it propagate.
    """

    def __init__(self, outcome: TurnOutcome) -> None:
        super().__init__(outcome.message)
        self.outcome = outcome
