"""What an agent run is and keeps: its state, its records and the primitives every kind of turn uses.

Three classes, each building on the one before: :class:`RunState` (here: state, records, telling the model a
result, ending the run), :class:`~browserops.agent.run.turns.RunTurns` (the turns that do not simply run a tool:
ask, done, hand-off, hold, confirm, plan) and :class:`~browserops.agent.run.loop.AgentRun` (the iteration and
the public interface). One object owns the state, so no free function reaches into another's attributes.
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from typing import Any

from browserops import policy
from browserops.agent.calls import ParsedCall
from browserops.agent.fence import Fence
from browserops.agent.gate import Judgement
from browserops.agent.model_api import Model
from browserops.agent.model_summaries import llm_summary
from browserops.agent.observe import Observer, chat_observation
from browserops.agent.records import RunRecorder, Scrubber
from browserops.agent.run.config import RunConfig
from browserops.agent.run.outcomes import Budget, Emit, HeldAction, Pause, PauseKind, StepSummary
from browserops.agent.run.step_records import StepRecorder, report_message
from browserops.agent.toolhost import ToolHost
from browserops.agent.toolspec import anthropic_tools, model_tools, traits_in
from browserops.agent.transcript import Transcript
from browserops.contract import ToolResult
from browserops.evidence.agent_events import PolicyInfo
from browserops.origins import origin_of
from browserops.privacy import mask_pii

# Read-only exploration: turns an acting call into a plan step, returns the result the model sees
# (``data.final`` ends the exploration).
Planner = Callable[[ParsedCall, Judgement], Awaitable[ToolResult]]


class RunState:
    """The state of one agent run, built from its :class:`RunConfig` and the collaborators it talks to."""

    def __init__(
        self,
        host: ToolHost,
        model: Model,
        config: RunConfig,
        *,
        recorder: RunRecorder | None = None,
        emit: Emit | None = None,
        confirmer: policy.Confirmer | None = None,
        planner: Planner | None = None,
    ) -> None:
        settings = config.settings
        self.config = config
        self.host = host
        self.model = model
        self.settings = settings
        self.goal = config.goal
        self.workspace = config.workspace
        self.read_only = config.read_only
        self.emit = emit
        self.confirmer = confirmer
        self.planner = planner
        self.vision = settings.vision if config.vision is None else config.vision
        self.specs = model_tools(host.tools())
        self.spec_map = {s.name: s for s in self.specs}
        self.tools_schema = anthropic_tools(self.specs)
        self.transcript = Transcript(vision=self.vision)
        # One random fence per run around everything the page says (agent/fence.py).
        self.fence = Fence.new()
        self.observer = Observer(host, vision=self.vision, fence=self.fence)
        # For the run's own rules (agent/run/rules.py): the origin the task started on, and page content the
        # model was shown (observations and tool results), newest last.
        self.start_origin = ""
        self.page_seen: list[str] = []
        self.scrub = Scrubber()
        if recorder is None and config.record:
            recorder = RunRecorder(config.workspace)
        self.recorder = recorder
        self.steps = StepRecorder(self.recorder, self.scrub, lambda name: traits_in(self.spec_map, name))
        self.budget = Budget(config.max_steps or settings.max_steps, settings.max_wall_time_s,
                             settings.max_llm_calls)
        self.system = ""
        self.held: HeldAction | None = None
        self.history: list[StepSummary] = []
        self.timings: list[dict[str, float]] = []
        self.finished: Pause | None = None
        self.last_progress = ""
        self.start_url = ""  # where the run began (its first observation): a done check compares the URL with it
        self._waiting: Pause | None = None  # an ask/handoff/confirm pause not yet answered
        self._ask_call: tuple[str | None, str] | None = None
        self._started = False
        self._call_errors = 0
        self._done_rejections = 0
        self._error_streak = 0
        self._force_observe = False

    # -- public ---------------------------------------------------------------------------------------------
    @property
    def request_id(self) -> str | None:
        return self.recorder.request_id if self.recorder else None

    def renew_budget(self) -> None:
        """A new user message in chat: fresh iteration, wall-time and LLM-call budgets."""
        self.budget.iterations = self.budget.llm_calls = 0
        self.budget.started = time.monotonic()

    def close(self, reason: str = "The run was abandoned before it finished.") -> None:
        """Finish the bundle ``incomplete`` unless the run already ended."""
        if self.finished is None and self.recorder is not None:
            view = self.observer.view
            self.recorder.finish("incomplete", message=mask_pii(reason), url=self.scrub(view.url),
                                 title=self.scrub(view.title))

    def note_page(self, text: str) -> None:
        """Remember page content the model is shown (bounded: the newest 100 pieces)."""
        self.page_seen = [*self.page_seen[-99:], text[:50_000]]

    def note_result(self, result: ToolResult) -> None:
        """Remember what a tool result shows of the page: its data and its error, which quotes element names,
        option lists and the browser's messages (the run rules count both as page content)."""
        data = result.get("data")
        if data:
            self.note_page(json.dumps(data, ensure_ascii=False, default=str))
        if result.get("status") != "ok" and result.get("error"):
            self.note_page(str(result.get("error")))

    def _tell(self, call_id: str | None, tool: str, result: ToolResult, note: str | None = None) -> None:
        self.note_result(result)
        summary = llm_summary(tool, result, budget=self.budget.remaining(time.monotonic()), note=note,
                              fence=self.fence)
        self.transcript.add_result(call_id, tool, summary)

    def _policy_info(self, decision: policy.Decision, outcome: str) -> PolicyInfo:
        return PolicyInfo(verdict=decision.verdict.value, category=decision.category, reason=decision.reason,
                          matched=list(decision.matched), outcome=outcome)

    def _report(self, ask_to_continue: bool) -> str:
        return report_message(self.history, self.observer.view, self.last_progress, self.scrub,
                              ask_to_continue=ask_to_continue)

    async def _end(self, kind: PauseKind, message: str, *, code: str | None = None, verified: bool = False,
                   signals: dict[str, Any] | None = None) -> Pause:
        pause = Pause(kind, message, steps=len(self.history), code=code, verified=verified, signals=signals or {})
        self.finished = pause
        if self.recorder is not None:
            view = self.observer.view
            self.recorder.finish("complete" if kind == "done" else "incomplete", message=self.scrub(message),
                                 url=self.scrub(view.url), title=self.scrub(view.title))
        if kind == "error":
            await self._emit("error", {"code": code, "error": self.scrub(message)[:500], "fatal": True})
        return pause

    async def _emit(self, kind: str, data: dict[str, Any]) -> None:
        if self.emit is not None:
            await self.emit(kind, data)

    async def _observe(self, *, force: bool, why: str, step: int) -> Any:
        outcome = await self.observer.observe(force=force, why=why)
        if outcome.refreshed:
            self.note_page(outcome.view.haystack())
            self.start_origin = self.start_origin or origin_of(outcome.view.url)
        if outcome.refreshed and outcome.view.observation is not None:
            self.transcript.add_observation(outcome.view.observation)
            await self._emit("observation", chat_observation(outcome.view, self.workspace, self.scrub))
        elif outcome.error:
            self.note_page(outcome.error)
            await self._emit("error", {"code": outcome.code, "error": self.scrub(outcome.error), "fatal": False})
        self.steps.observed(step, outcome)
        return outcome
