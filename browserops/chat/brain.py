"""``LoopBrain``: the agent loop behind the chat engine's :class:`~browserops.chat.api.Brain` seam.

One :class:`~browserops.agent.run.AgentRun` per session and goal, kept in memory between turns (its evidence
bundle stays open while the chat waits for the user):

- ``handle_message``: a new goal starts a new run (the previous one's bundle is finished); feedback — after a
  report, a question, an error or a hand-off — goes to the same run (:meth:`AgentRun.tell`) with
  ``state.current_goal`` as the anchor. Each message gets a fresh budget and at most
  ``chat_steps_per_message`` tool steps, then a report (done / worked / failed / next step + "continue?");
- ``resolve_pending``: ``/yes`` executes exactly the held action once (it must be the session's
  ``pending_action``), ``/no`` tells the model it was declined; then the run goes on;
- ``resume_after_manual``: the user finished the login/captcha/code: observe again and go on.

A process restart loses the in-memory run: feedback then starts a new run for ``current_goal``, and a pending
action of the lost run is not executed (its element numbers belonged to the previous browser).
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from browserops.agent.model_api import Model
from browserops.agent.run import AgentRun, RunConfig
from browserops.agent.run.outcomes import Emit, Pause
from browserops.agent.toolhost import ToolHost
from browserops.chat.api import Brain, ChatSession, Event, EventSink, TurnOutcome
from browserops.config import Settings
from browserops.contract import ErrorCode
from browserops.policy import PendingAction

if TYPE_CHECKING:
    from browserops.tools.context import ToolContext
    from browserops.tools.runner import ToolRunner

log = logging.getLogger(__name__)

CHAT_EVENTS = frozenset({"observation", "tool_call", "tool_result", "error"})


def _emitter(sid: str, sink: EventSink) -> Emit:
    """AgentRun events → chat events (a tool_call carries the model's progress line). Fatal errors are left to
    the engine, which reports the turn's error outcome itself."""

    async def emit(kind: str, data: dict[str, Any]) -> None:
        if kind not in CHAT_EVENTS or (kind == "error" and data.get("fatal")):
            return
        payload = {k: v for k, v in data.items() if v is not None}
        await sink(Event.make(kind, sid, **payload))  # type: ignore[arg-type]

    return emit


class LoopBrain:
    def __init__(self, settings: Settings, host: ToolHost, model: Model, workspace: Path, *,
                 steps_per_message: int | None = None) -> None:
        self.settings = settings
        self.host = host
        self.model = model
        self.workspace = workspace
        self.steps_per_message = steps_per_message or settings.chat_steps_per_message
        self.runs: dict[str, AgentRun] = {}

    # -- Brain ------------------------------------------------------------------------------------------------
    async def handle_message(self, state: ChatSession, text: str, emit: EventSink,
                             should_stop: Callable[[], bool]) -> TurnOutcome:
        sid = state.session_id
        run = self.runs.get(sid)
        if state.turn == "new_goal" or run is None or run.finished is not None:
            run = self._new_run(state, text if state.turn == "new_goal" else (state.current_goal or text), emit)
            if state.turn != "new_goal" and text != run.goal:
                run.add_feedback(text)  # the previous run is gone (finished, or lost with a restart)
        else:
            run.emit = _emitter(sid, emit)
            await run.tell(text)
        run.renew_budget()
        return self._outcome(state, run, await run.advance(self.steps_per_message, should_stop))

    async def resolve_pending(self, state: ChatSession, approved: bool, emit: EventSink,
                              should_stop: Callable[[], bool]) -> TurnOutcome:
        sid = state.session_id
        run = self.runs.get(sid)
        pending = state.pending_action
        held = run.held if run is not None else None
        if run is None or held is None or pending is None or held.tool != pending.tool or held.args != pending.raw_args:
            return self._error(state, "The action waiting for your confirmation belonged to an earlier run that is "
                                      "gone (the program restarted); nothing was executed. Send a message to go on.")
        run.emit = _emitter(sid, emit)
        run.renew_budget()
        await run.resolve_pending(approved)
        left = self.steps_per_message - (1 if approved else 0)
        return self._outcome(state, run, await run.advance(left, should_stop))

    async def resume_after_manual(self, state: ChatSession, text: str, emit: EventSink,
                                  should_stop: Callable[[], bool]) -> TurnOutcome:
        sid = state.session_id
        run = self.runs.get(sid)
        if run is None or run.finished is not None:
            run = self._new_run(state, state.current_goal or text, emit)
        else:
            run.emit = _emitter(sid, emit)
            if run.waiting is not None and run.waiting.kind == "handoff":
                await run.resume_manual(text)
            else:
                await run.tell(text)
        run.renew_budget()
        return self._outcome(state, run, await run.advance(self.steps_per_message, should_stop))

    # -- helpers ----------------------------------------------------------------------------------------------
    def _new_run(self, state: ChatSession, goal: str, emit: EventSink) -> AgentRun:
        old = self.runs.pop(state.session_id, None)
        if old is not None:
            old.close("A new goal replaced this one.")
        run = AgentRun(self.host, self.model,
                       RunConfig(goal=goal, workspace=self.workspace, settings=self.settings),
                       emit=_emitter(state.session_id, emit))
        self.runs[state.session_id] = run
        state.brain_state["request_id"] = run.request_id
        return run

    def _error(self, state: ChatSession, message: str, code: str = ErrorCode.INTERNAL.value) -> TurnOutcome:
        state.last_error = {"code": code, "error": message}
        return TurnOutcome(kind="error", message=message)

    def _outcome(self, state: ChatSession, run: AgentRun, pause: Pause) -> TurnOutcome:
        message = run.scrub(pause.message)
        state.brain_state.update(request_id=run.request_id, steps=len(run.history), last_pause=pause.kind)
        if pause.kind == "done":
            return TurnOutcome(kind="final", message=message)
        if pause.kind == "confirm" and pause.held is not None:
            held = pause.held
            pending = PendingAction.from_policy(held.pending, held.args, held.number)
            return TurnOutcome(kind="confirm", message=f"May I do this? {pending.describe()}", pending=pending)
        if pause.kind == "ask":
            return TurnOutcome(kind="ask", message=run.scrub(pause.question or pause.message))
        if pause.kind == "handoff":
            return TurnOutcome(kind="manual", message=message)
        if pause.kind in ("report", "limit"):
            return TurnOutcome(kind="report", message=message)
        if pause.kind == "stopped":
            return TurnOutcome(kind="stopped", message=message)
        return self._error(state, message, pause.code or ErrorCode.INTERNAL.value)

    async def aclose(self) -> None:
        """Finish the evidence bundles of runs still waiting for the user."""
        for run in self.runs.values():
            run.close("The chat ended before the goal was reached.")
        self.runs.clear()
        closer = getattr(self.model, "aclose", None)
        if closer is not None:
            await closer()


def make_brain(settings: Settings, tools: ToolRunner | ToolContext, *,
               env: Mapping[str, str] | None = None) -> Brain:
    """The one place front doors get a Brain from (``browserops chat``, ``browserops serve``): the agent loop
    (:class:`LoopBrain`) over the in-process tools of ``tools`` (the chat's runner, or a context to run the agent's
    profile on).

    It needs a model: without ``ANTHROPIC_API_KEY`` (or ``ANTHROPIC_BASE_URL`` for a compatible endpoint) it
    raises ``BROWSER_LLM_UNAVAILABLE`` before any browser is started.
    """
    from browserops.agent.llm import LLMClient
    from browserops.agent.toolhost import InProcessToolHost

    model = LLMClient.from_settings(settings, env=os.environ if env is None else env)
    host = InProcessToolHost(tools)
    return LoopBrain(settings, host, model, host.ctx.workspace)
