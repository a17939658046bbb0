"""The values an :class:`~browserops.agent.run.AgentRun` hands back: why it paused, what it holds, what it did."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from browserops import policy

PauseKind = Literal["done", "ask", "confirm", "handoff", "report", "limit", "stopped", "error"]
# Kinds after which the run is over (its bundle is finished); the others wait for the user and continue.
TERMINAL: frozenset[str] = frozenset({"done", "limit", "error"})

# emit(type, data): "observation", "progress", "tool_call", "tool_result", "policy", "error". Data is masked.
Emit = Callable[[str, dict[str, Any]], Awaitable[None]]


@dataclass(frozen=True)
class HeldAction:
    """A destructive call the gate held for the user's yes/no. ``args`` are the raw arguments (memory only)."""

    tool: str
    args: dict[str, Any]
    call_id: str | None
    pending: policy.PendingAction  # masked, for display
    decision: policy.Decision
    target: policy.TargetInfo | None = None  # what the gate saw (page text: memory only)
    number: int | None = None
    iteration: int = 0

    def describe(self) -> str:
        return self.pending.question()


@dataclass(frozen=True)
class Pause:
    """Why :meth:`AgentRun.advance` returned.

    - ``done``: the model finished and the page agreed (``verified``), or it insisted after being told to check;
    - ``ask``: ``question`` for the user, answer with :meth:`AgentRun.answer`;
    - ``confirm``: ``held`` waits for :meth:`AgentRun.resolve_pending` (nothing was executed);
    - ``handoff``: the user must act in the browser (login, password, one-time code, captcha), then
      :meth:`AgentRun.resume_manual`;
    - ``report``: the step budget of this advance is used up (chat: report and ask whether to go on);
    - ``limit``: a run limit (iterations, wall time, LLM calls) was reached;
    - ``stopped``: ``should_stop()`` said so; ``error``: an unrecoverable error with its ``code``.
    """

    kind: PauseKind
    message: str
    steps: int = 0
    question: str | None = None
    held: HeldAction | None = None
    code: str | None = None
    verified: bool = False
    signals: dict[str, Any] = field(default_factory=dict)

    @property
    def terminal(self) -> bool:
        return self.kind in TERMINAL


@dataclass
class StepSummary:
    """One executed (or refused) step, for reports: tool, ok or not, a short masked description."""

    iteration: int
    tool: str
    ok: bool
    what: str
    code: str | None = None


@dataclass
class Budget:
    """Run limits: iterations (model turns), wall time, LLM calls (HTTP attempts). Chat renews it per message."""

    max_iterations: int
    max_wall_s: float
    max_llm_calls: int
    iterations: int = 0
    llm_calls: int = 0
    started: float = 0.0

    def exceeded(self, now: float) -> str | None:
        if self.iterations >= self.max_iterations:
            return f"the iteration limit ({self.max_iterations})"
        if now - self.started >= self.max_wall_s:
            return f"the wall-time limit ({self.max_wall_s:g} s)"
        if self.llm_calls >= self.max_llm_calls:
            return f"the LLM call limit ({self.max_llm_calls})"
        return None

    def remaining(self, now: float) -> dict[str, Any]:
        return {"steps": max(0, self.max_iterations - self.iterations),
                "time_s": round(max(0.0, self.max_wall_s - (now - self.started)), 1),
                "llm_calls": max(0, self.max_llm_calls - self.llm_calls)}
