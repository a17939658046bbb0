"""The agent loop: observe → model → policy → act → validate → (banners) → observe again, one call per turn.

:class:`AgentRun` is step-wise and resumable, so one engine serves the one-shot CLI, chat and MCP
``browser_task``::

    run = AgentRun(host, model, RunConfig(goal="find a stapler", workspace=ws, settings=settings), emit=on_event)
    pause = await run.advance()                 # until done / ask / confirm / handoff / limit / error
    if pause.kind == "ask":
        await run.answer("the red one"); pause = await run.advance()
    if pause.kind == "confirm":                 # the held action was NOT executed
        await run.resolve_pending(approved=True); pause = await run.advance()
    run.close("abandoned")                      # finishes the evidence bundle if the run did not end

Each iteration: the model gets the latest observation (numbered elements, page summary, the screenshot with
the numbers drawn) and returns one progress line + exactly one call (:func:`~browserops.agent.calls.parse_turn`;
call errors are explained to it and retried, bounded). The policy gate (:mod:`browserops.agent.gate`) reads the
target live and classifies the call: allowed calls run; destructive ones go to the ``confirmer`` (CLI) or are
held for :meth:`resolve_pending` (chat, MCP); password/one-time-code/captcha steps are handed to the user.
After acting the loop waits for DOM quiet (not a blind pause; ``settings.step_pause_ms`` adds the fixed one),
the host's post-action hook has closed banners, and the page is observed again only if it changed. A tool error
gets an error screenshot and the fallback ladder (docs/design.md §8.3) in the result the model sees.
``assistant_done`` ends the run only when the page shows what the reason claims (bounded: after two
rejections the third is accepted as unverified). Limits: iterations, wall time, LLM calls.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from browserops import policy
from browserops.agent.calls import CallError, ParsedCall, parse_turn
from browserops.agent.gate import judge
from browserops.agent.model_api import ModelTurn
from browserops.agent.prompt import PromptContext, build_system_prompt
from browserops.agent.run.outcomes import Pause, StepSummary
from browserops.agent.run.rules import stricter
from browserops.agent.run.step_records import fallback_note, outcome_line
from browserops.agent.run.turns import PLANNED_CLASSES, RunTurns
from browserops.agent.toolspec import ASK, DONE, traits_in
from browserops.agent.transcript import Transcript
from browserops.agent.validate import observe_reason, settle
from browserops.contract import BrowserOpsError, ErrorCode, ToolResult, error
from browserops.evidence.agent_events import AskInfo, LlmInfo, PolicyInfo, TextRef, WaitInfo
from browserops.privacy import describe_text, mask_args

log = logging.getLogger(__name__)

MAX_CALL_ERRORS = 3  # consecutive replies without one valid call before the run gives up


def _never() -> bool:
    return False


class AgentRun(RunTurns):
    """One agent task, step by step: see the module's docstring. Its state and records live in
    :class:`~browserops.agent.run.state.RunState`, its non-tool turns in
    :class:`~browserops.agent.run.turns.RunTurns`."""

    async def advance(self, max_steps: int | None = None, should_stop: Callable[[], bool] = _never) -> Pause:
        """Run iterations until a pause. ``max_steps`` bounds the tool steps of this call (chat's report)."""
        if self.finished is not None:
            return self.finished
        if self._waiting is not None:
            return self._waiting
        try:
            if not self._started:
                await self._start()
            elif self._force_observe:
                self._force_observe = False
                await self._observe(force=True, why="the user finished a manual step", step=self.steps.count)
            executed = 0
            while True:
                if should_stop():
                    return Pause("stopped", f"Stopped after {executed} step{'s' if executed != 1 else ''}, as "
                                 "you asked.", steps=executed)
                over = self.budget.exceeded(time.monotonic())
                if over:
                    return await self._end("limit", f"I stopped at {over}. " + self._report(False),
                                           code=ErrorCode.LIMIT_REACHED.value)
                if max_steps is not None and executed >= max_steps:
                    return Pause("report", self._report(True), steps=executed)
                pause, ran = await self._iteration()
                executed += ran
                if pause is not None:
                    return pause
        except BrowserOpsError as exc:
            return await self._end("error", exc.message, code=exc.code.value)

    async def answer(self, text: str) -> None:
        """The user's answer to the pending ``assistant_ask``; call :meth:`advance` next."""
        if self._ask_call is None:
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, "The agent is not waiting for an answer.")
        call_id, question = self._ask_call
        self._ask_call = None
        self._waiting = None
        self.scrub.add(text)  # answers are often typed into the page later
        self.transcript.add_result(call_id, ASK, {"tool": ASK, "last_action": "ok", "user_answer": text})
        ask = AskInfo(question=TextRef(**describe_text(question)), user_reply=TextRef(**describe_text(text)))
        self.steps.note(kind="agent_answer", tool=ASK, iteration=self.budget.iterations, ask=ask,
                        page=self.observer.view)

    async def resume_manual(self, text: str = "done") -> None:
        """The user says the manual part (login, captcha, code) is done: look again and go on."""
        if self._waiting is None or self._waiting.kind != "handoff":
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, "The agent is not waiting for a manual step.")
        self._waiting = None
        self._force_observe = True
        self.transcript.add_user(f"The user says the manual step is finished ({text[:200]!r}). The page is "
                                 "observed again below; continue with the goal.")

    @property
    def waiting(self) -> Pause | None:
        """The ask/handoff/confirm pause that waits for the user, if any."""
        return self._waiting

    def add_feedback(self, text: str) -> None:
        """A chat message after a report: new instructions for the same goal."""
        self.transcript.add_user(f"Message from the user: {text}\n(The goal stays: {self.goal})")

    async def tell(self, text: str) -> None:
        """A user message, whatever the run waits for: the answer to a question, or feedback (which also ends
        a manual hand-off: the page is observed again). A pending confirmation must be resolved instead."""
        waiting = self._waiting
        if waiting is not None and waiting.kind == "confirm":
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, "An action waits for confirmation: answer yes or no.")
        if waiting is not None and waiting.kind == "ask":
            await self.answer(text)
            return
        if waiting is not None and waiting.kind == "handoff":
            self._waiting = None
            self._force_observe = True
        self.add_feedback(text)

    async def resolve_pending(self, approved: bool) -> ToolResult | None:
        """``/yes``: execute exactly the held call, once. ``/no``: drop it and tell the model. Then :meth:`advance`."""
        held = self.held
        if held is None:
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, "No action is waiting for confirmation.")
        self.held = None  # taken before anything is awaited: the action can run once only
        self._waiting = None
        policy_info = self._policy_info(held.decision, "confirmed" if approved else "refused")
        if approved:
            return await self._execute(held.tool, held.args, held.call_id, held.number, policy_info, 0.0,
                                       target=held.target)
        refusal = policy.refusal_error(held.pending, interactive=True)
        result = error(refusal.code, refusal.message)
        self._tell(held.call_id, held.tool, result, note="The user declined this action. Choose another way to "
                   "reach the goal, or ask the user what to do.")
        self.steps.refused(iteration=held.iteration, tool=held.tool, args=held.args, policy=policy_info,
                           result=result, page=self.observer.view, number=held.number)
        self.history.append(StepSummary(held.iteration, held.tool, False, "declined by the user",
                                        ErrorCode.POLICY_REFUSED.value))
        return None

    # -- the iteration --------------------------------------------------------------------------------------
    async def _start(self) -> None:
        self._started = True
        self.budget.started = time.monotonic()
        outcome = await self._observe(force=True, why="start", step=0)
        view = outcome.view
        self.start_url = view.url
        if self.recorder is not None:
            self.recorder.start(self.goal, url=self.scrub(view.url), title=self.scrub(view.title),
                                read_only=self.read_only, screenshots=self.steps.take_loose())
        self.system = build_system_prompt(self.goal, PromptContext(
            tools=self.specs, url=view.url, title=view.title, vision=self.vision,
            max_steps=self.budget.max_iterations, read_only=self.read_only, fence=self.fence))
        # The observation was added before the task text; put the task first, then the page again.
        self.transcript = Transcript(vision=self.vision)
        self.transcript.add_user(f"Task: {self.goal}")
        if view.observation is not None:
            self.transcript.add_observation(view.observation)

    async def _iteration(self) -> tuple[Pause | None, int]:
        started = time.monotonic()
        turn: ModelTurn = await self.model.complete(self.system, self.transcript.messages(), self.tools_schema)
        model_ms = round((time.monotonic() - started) * 1000, 1)
        self.budget.iterations += 1
        self.budget.llm_calls += max(1, turn.attempts)
        self.transcript.add_turn(turn)
        llm = LlmInfo(calls=max(1, turn.attempts), ms=model_ms)
        try:
            call = parse_turn(turn, self.spec_map)
        except CallError as exc:
            return await self._call_error(turn, exc, llm), 0
        self._call_errors = 0
        llm.source = call.source
        self.scrub.add_args(call.args)
        self.last_progress = self.scrub.prose(call.progress)
        await self._emit("progress", {"iteration": self.budget.iterations, "text": self.last_progress,
                                      "tool": call.name})
        if call.name == DONE:
            return await self._finish(call, llm), 0
        if call.name == ASK:
            return self._ask(call, llm), 0
        return await self._tool(call, llm, model_ms)

    async def _call_error(self, turn: ModelTurn, exc: CallError, llm: LlmInfo) -> Pause | None:
        self._call_errors += 1
        self.transcript.add_call_error(turn, exc.message)
        llm.call_error = exc.kind.value
        self.steps.call_error(iteration=self.budget.iterations, llm=llm, message=exc.message, page=self.observer.view)
        await self._emit("error", {"code": ErrorCode.INVALID_ARGS.value, "error": exc.message[:300], "fatal": False,
                                   "kind": exc.kind.value})
        if self._call_errors >= MAX_CALL_ERRORS:
            return await self._end("error", f"The model did not produce one valid tool call {MAX_CALL_ERRORS} times "
                                   f"in a row (last: {exc.kind.value}). Try again or choose another model.",
                                   code=ErrorCode.LLM_FAILED.value)
        return None

    async def _tool(self, call: ParsedCall, llm: LlmInfo, model_ms: float) -> tuple[Pause | None, int]:
        started = time.monotonic()
        traits = traits_in(self.spec_map, call.name)
        judgement = await judge(self.host, call.name, call.args, traits)
        judgement = stricter(judgement, call.name, call.args, traits, goal=self.goal, start_origin=self.start_origin,
                             page_seen="\n".join(self.page_seen), typed=self.scrub.values)
        gate_ms = round((time.monotonic() - started) * 1000, 1)
        decision = judgement.decision
        if judgement.stale is not None:
            # The element is gone: the call would fail the same way, so nobody is asked to confirm it.
            await self._execute(call.name, call.args, call.call_id, None, self._policy_info(decision, "refused"),
                                gate_ms, llm=llm, model_ms=model_ms, failed=judgement.stale)
            return None, 0
        if decision.verdict is policy.Verdict.HANDOFF:
            return self._hand_off(call, judgement, llm), 0
        if self.read_only and traits.side_effect in PLANNED_CLASSES:
            return await self._plan_instead(call, judgement, llm), 0
        outcome = "allowed"
        if decision.verdict is policy.Verdict.CONFIRM:
            if self.confirmer is None:
                return await self._hold(call, judgement, llm), 0
            if not await self._confirm_now(call, judgement, llm, self.confirmer):
                return None, 0
            outcome = "confirmed"
        await self._execute(call.name, call.args, call.call_id, judgement.number,
                            self._policy_info(decision, outcome), gate_ms, llm=llm, model_ms=model_ms,
                            target=judgement.target)
        return None, 1

    async def _execute(self, tool: str, args: Mapping[str, Any], call_id: str | None, number: int | None,
                       policy_info: PolicyInfo, gate_ms: float, *, llm: LlmInfo | None = None,
                       model_ms: float = 0.0, target: policy.TargetInfo | None = None,
                       failed: ToolResult | None = None) -> ToolResult:
        """Run one call (or, with ``failed``, record one that could not run) and validate, observe, record."""
        iteration = self.budget.iterations
        if failed is None:
            try:
                await self._emit("tool_call", {"tool": tool, "args": mask_args(args), "iteration": iteration,
                                               "progress": self.last_progress or None})
            except BaseException:
                # Interrupted before the call (chat /stop or its step limit): the model learns it did not run.
                self.transcript.add_result(call_id, tool, {"tool": tool, "last_action": "error",
                                                           "error": "Not run: interrupted before this step."},
                                           is_error=True)
                raise
        step = self.steps.begin(iteration=iteration, tool=tool, args=args, llm=llm, policy=policy_info,
                                progress=self.last_progress, number=number, target=target)
        started = time.monotonic()
        result = failed if failed is not None else await self.host.call(tool, args)
        act_ms = round((time.monotonic() - started) * 1000, 1)
        self.scrub.add_result(args, result)
        await self._emit("tool_result", {"tool": tool, "status": result.get("status"), "code": result.get("code"),
                                         "error": self.scrub(str(result.get("error") or ""))[:300] or None,
                                         "iteration": iteration})
        started = time.monotonic()
        traits = traits_in(self.spec_map, tool)
        wait = await settle(self.host, self.settings, traits) if failed is None else WaitInfo(type="none")
        validate_ms = round((time.monotonic() - started) * 1000, 1)
        ok = result.get("status") == "ok"
        if not ok:
            shot = await self.host.call("browser_screenshot", {})
            path = (shot.get("data") or {}).get("path") if shot.get("status") == "ok" else None
            step.error_screenshot(path)
        need = observe_reason(traits, result)
        started = time.monotonic()
        observed = None
        if need.needed:
            observed = await self._observe(force=need.force, why=need.why, step=step.number)
        observe_ms = round((time.monotonic() - started) * 1000, 1)
        refreshed = observed is not None and observed.refreshed
        self._after_result(call_id, tool, result, refreshed)
        self.history.append(StepSummary(iteration, tool, ok, outcome_line(tool, args, result),
                                        None if ok else str(result.get("code"))))
        started = time.monotonic()
        timings = {"model": model_ms, "gate": gate_ms, "act": act_ms, "validate": validate_ms, "observe": observe_ms}
        step.end(result, wait=wait, observed=observed, timings=timings, page=self.observer.view)
        timings["record"] = round((time.monotonic() - started) * 1000, 1)
        self.timings.append(timings)
        return result

    def _after_result(self, call_id: str | None, tool: str, result: ToolResult, refreshed: bool) -> None:
        seen = " The page changed: the latest observation has its fresh numbers." if refreshed else ""
        if result.get("status") == "ok":
            self._error_streak = 0
            self._tell(call_id, tool, result, note=seen.strip() or None)
        else:
            self._error_streak += 1
            self._tell(call_id, tool, result, note=fallback_note(self._error_streak) + seen)
