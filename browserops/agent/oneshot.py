"""One agent task from start to end, for front doors that answer questions through callbacks (the CLI).

:func:`run_to_end` drives an :class:`~browserops.agent.run.AgentRun` until it ends: an ``assistant_ask``
goes to ``ask`` (``None`` = nobody can answer), a manual hand-off goes to ``manual`` (False = nobody can do
it). Destructive actions never reach here: the run was given a :class:`~browserops.policy.Confirmer`.
The bundle is always finished, also when the caller is interrupted.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from browserops.agent.run import AgentRun
from browserops.agent.run.outcomes import Pause
from browserops.contract import BrowserOpsError, ErrorCode

Ask = Callable[[str], Awaitable[str | None]]
Manual = Callable[[str], Awaitable[bool]]


@dataclass(frozen=True)
class TaskResult:
    pause: Pause
    request_id: str | None
    bundle: Path | None
    steps: int
    iterations: int

    @property
    def ok(self) -> bool:
        return self.pause.kind == "done"

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": "ok" if self.ok else "error",
            "outcome": self.pause.kind,
            "message": self.pause.message,
            "verified": self.pause.verified,
            "code": self.pause.code,
            "requestId": self.request_id,
            "bundle": str(self.bundle) if self.bundle else None,
            "steps": self.steps,
            "iterations": self.iterations,
            "signals": {k: v for k, v in self.pause.signals.items() if k != "title"} if self.pause.signals else {},
        }

    def error(self) -> BrowserOpsError:
        """The error a front door reports when the run did not reach its goal."""
        code = {
            "limit": ErrorCode.LIMIT_REACHED, "ask": ErrorCode.NEEDS_USER, "handoff": ErrorCode.NEEDS_USER,
            "stopped": ErrorCode.NEEDS_USER, "confirm": ErrorCode.NEEDS_USER,
        }.get(self.pause.kind)
        if code is None:
            known = {c.value: c for c in ErrorCode}
            code = known.get(self.pause.code or "", ErrorCode.INTERNAL)
        return BrowserOpsError(code, self.pause.message, details={"outcome": self.pause.kind,
                                                                  "requestId": self.request_id,
                                                                  "bundle": str(self.bundle) if self.bundle else None})


def result_of(run: AgentRun, pause: Pause) -> TaskResult:
    recorder = run.recorder
    return TaskResult(pause, recorder.request_id if recorder else None, recorder.path if recorder else None,
                      len(run.history), run.budget.iterations)


async def run_to_end(run: AgentRun, *, ask: Ask, manual: Manual) -> TaskResult:
    pause: Pause | None = None
    try:
        while True:
            pause = await run.advance()
            if pause.kind == "ask":
                answer = await ask(pause.question or pause.message)
                if answer is None:
                    pause = Pause("ask", f"The agent asked a question nobody could answer: {pause.message}",
                                  question=pause.question)
                    break
                await run.answer(answer)
                continue
            if pause.kind == "handoff":
                if not await manual(pause.message):
                    break
                await run.resume_manual()
                continue
            break
    finally:
        if pause is None or not pause.terminal:
            run.close("The run ended before the goal was reached" + (f" ({pause.kind})." if pause else "."))
    return result_of(run, pause)
