"""The turns of an agent run that do not simply run a tool: a question for the user, ``assistant_done``
checked against the page, a hand-off, a destructive call held or confirmed, and a call turned into a plan step
(read-only exploration). Each is a method of the run (:class:`RunTurns`, which the loop's
:class:`~browserops.agent.run.loop.AgentRun` extends) and leaves it waiting, ended or going on.
"""

from __future__ import annotations

from browserops import policy
from browserops.agent.calls import ParsedCall
from browserops.agent.gate import Judgement
from browserops.agent.run.outcomes import HeldAction, Pause, StepSummary
from browserops.agent.run.rules import without_instructions
from browserops.agent.run.state import RunState
from browserops.agent.toolspec import ASK, DONE
from browserops.agent.validate import browser_came_back, check_done, not_confirmed_message
from browserops.contract import ErrorCode, SideEffect, error
from browserops.evidence.agent_events import DoneInfo, LlmInfo
from browserops.privacy import mask_args, mask_pii
from browserops.words import SECRET, fold_for_words

MAX_DONE_REJECTIONS = 2  # done calls the page does not confirm before one is accepted as unverified
# Side-effect classes a read-only exploration records as plan steps instead of running.
PLANNED_CLASSES = frozenset({SideEffect.BROWSER_ACT, SideEffect.EXPORT})


class RunTurns(RunState):
    """The run's turns other than running a tool; see the module's docstring."""

    def _ask(self, call: ParsedCall, llm: LlmInfo) -> Pause:
        question = str(call.args.get("question", ""))
        self.steps.asked(iteration=self.budget.iterations, llm=llm, question=question, page=self.observer.view,
                         progress=self.last_progress)
        if SECRET.find(fold_for_words(question)):
            # Passwords and one-time codes are never asked for: the user types them into the page.
            self.transcript.add_result(call.call_id, ASK, {
                "tool": ASK, "last_action": "error", "error_class": ErrorCode.POLICY_REFUSED.value,
                "error": "Not asked: passwords and one-time codes are never asked for. The user was told to type it "
                         "into the field themselves; wait for them to say they are done."}, is_error=True)
            pause = Pause("handoff", "The next step needs a password or a one-time code. Please type it into the "
                          "browser yourself (the agent never sees it), then say 'done'.")
            self._waiting = pause
            return pause
        self._ask_call = (call.call_id, question)
        pause = Pause("ask", mask_pii(question), question=question)
        self._waiting = pause
        return pause

    async def _finish(self, call: ParsedCall, llm: LlmInfo) -> Pause | None:
        """``assistant_done``: accepted when the page shows what the reason claims (after two rejections, the third
        is accepted as unverified)."""
        reason = str(call.args.get("reason", ""))
        view = self.observer.view
        extract = await self.host.call("browser_extract", {"mode": "text", "max_chars": 8000})
        if browser_came_back(extract):
            # The browser died under the check and came back on a blank page: the last observation shows a page
            # that is gone, so nothing can be checked against it. The model is told, and sees the page anew.
            self.transcript.add_result(call.call_id, DONE, {
                "tool": DONE, "last_action": "error", "error_class": ErrorCode.CRASHED.value,
                "error": "Not finished: the browser crashed while running browser_extract to check the result and "
                         "was restarted; previous pages and numbers are gone. Open the page again and finish once "
                         "it shows the result."}, is_error=True)
            await self._observe(force=True, why="the browser was restarted", step=self.steps.count)
            return None
        text = str((extract.get("data") or {}).get("text") or "") if extract.get("status") == "ok" else ""
        # What the page says to the assistant is no evidence of anything (agent/run/rules.py).
        check = check_done(reason, without_instructions(view.haystack() + "\n" + text.casefold()), goal=self.goal,
                           url=view.url, start_url=self.start_url)
        accept = check.verified or self._done_rejections >= MAX_DONE_REJECTIONS
        info = DoneInfo(accepted=accept, verified=check.verified, matched=check.matched,
                        reason=self.scrub.prose(reason), url=self.scrub(view.url), title=self.scrub(view.title))
        self.steps.done(iteration=self.budget.iterations, llm=llm, info=info, page=view, progress=self.last_progress)
        if not accept:
            self._done_rejections += 1
            self.transcript.add_result(call.call_id, DONE, {
                "tool": DONE, "last_action": "error", "error_class": "NOT_CONFIRMED_BY_PAGE",
                "error": not_confirmed_message(check)}, is_error=True)
            return None
        signals = {"url": view.url, "title": view.title, "matched": check.matched, "evidence": check.evidence}
        note = "" if check.verified else " (not confirmed by the page)"
        return await self._end("done", mask_pii(reason) + note, verified=check.verified, signals=signals)

    def _hand_off(self, call: ParsedCall, judgement: Judgement, llm: LlmInfo) -> Pause:
        decision = judgement.decision
        what = "a captcha" if "captcha" in decision.reason else "a password or one-time code"
        where = f" (element {judgement.number})" if judgement.number else ""
        message = f"This step needs {what}{where}, which you do yourself: please do it in the browser, then say 'done'."
        self.transcript.add_result(call.call_id, call.name, {
            "tool": call.name, "last_action": "error", "error_class": "HANDED_TO_USER",
            "error": f"Not run: {decision.reason}. The user was asked to do it themselves; wait for them."},
            is_error=True)
        self.steps.refused(iteration=self.budget.iterations, tool=call.name, args=call.args,
                           result={"status": "error", "code": None, "error": "handed to the user"},
                           policy=self._policy_info(decision, "handoff"), page=self.observer.view, llm=llm,
                           number=judgement.number)
        pause = Pause("handoff", message)
        self._waiting = pause
        return pause

    async def _hold(self, call: ParsedCall, judgement: Judgement, llm: LlmInfo) -> Pause:
        """A destructive call with nobody to ask now (chat, MCP): held, NOT executed, until resolve_pending."""
        decision = judgement.decision
        pending = policy.PendingAction.of(call.name, call.args, decision, judgement.target)
        held = HeldAction(call.name, dict(call.args), call.call_id, pending, decision, judgement.target,
                          judgement.number, self.budget.iterations)
        self.held = held
        self.steps.held(iteration=self.budget.iterations, tool=call.name, args=call.args, page=self.observer.view,
                        policy=self._policy_info(decision, "held"), llm=llm, number=judgement.number,
                        progress=self.last_progress, target=judgement.target)
        await self._emit("policy", {"tool": call.name, "args": mask_args(call.args), "description": pending.question()})
        pause = Pause("confirm", f"May I do this? {pending.question()}", held=held)
        self._waiting = pause
        return pause

    async def _confirm_now(self, call: ParsedCall, judgement: Judgement, llm: LlmInfo,
                           confirmer: policy.Confirmer) -> bool:
        """Ask the confirmer (a TTY prompt, or a refusal when nobody is there). False: refused, the model is told."""
        decision = judgement.decision
        pending = policy.PendingAction.of(call.name, call.args, decision, judgement.target)
        if await policy.authorize(pending, confirmer) is policy.Outcome.CONFIRMED:
            return True
        refusal = policy.refusal_error(pending, interactive=confirmer.interactive)
        result = error(refusal.code, refusal.message)
        self._tell(call.call_id, call.name, result, note="The user did not confirm this action. Choose another way to "
                   "reach the goal, or ask the user what to do.")
        self.steps.refused(iteration=self.budget.iterations, tool=call.name, args=call.args, result=result,
                           policy=self._policy_info(decision, "refused"), page=self.observer.view, llm=llm,
                           number=judgement.number)
        self.history.append(StepSummary(self.budget.iterations, call.name, False, "refused by the policy gate",
                                        refusal.code.value))
        await self._emit("tool_result", {"tool": call.name, "status": "error", "code": refusal.code.value,
                                         "error": self.scrub(refusal.message)[:300]})
        return False

    async def _plan_instead(self, call: ParsedCall, judgement: Judgement, llm: LlmInfo) -> Pause | None:
        """Read-only exploration: the call becomes a plan step (the planner decides), never runs. A step that commits
        (the gate's ``confirm``) is the plan's last: the exploration ends there."""
        if self.planner is None:
            result = error(ErrorCode.CAPABILITY_DISABLED, f"{call.name} was not run: this is a read-only exploration. "
                           "Navigate, list, find and read only.")
            outcome = "refused"
        else:
            result = await self.planner(call, judgement)
            outcome = "planned" if result.get("status") == "ok" else "refused"
        note = (result.get("data") or {}).get("note")
        self._tell(call.call_id, call.name, result, note=str(note) if note else None)
        self.steps.refused(iteration=self.budget.iterations, tool=call.name, args=call.args, result=result,
                           policy=self._policy_info(judgement.decision, outcome), page=self.observer.view, llm=llm,
                           number=judgement.number)
        if outcome == "planned":
            self.history.append(StepSummary(self.budget.iterations, call.name, True, f"planned {call.name}"))
        if (result.get("data") or {}).get("final"):
            return await self._end("done", "The plan is ready: it ends at the step that commits.", verified=True)
        return None
