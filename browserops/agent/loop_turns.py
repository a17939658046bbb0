"""The turns of an agent run that do not simply run a tool: a question for the user, ``assistant_done``
checked against the page, a hand-off, a destructive call held or confirmed, and a call turned into a plan step
(read-only exploration). Each takes the run (:class:`~browserops.agent.run_core.RunCore`) and leaves it
waiting, ended or going on.
"""

from __future__ import annotations

from browserops import policy
from browserops.agent.calls import ParsedCall
from browserops.agent.gate import Judgement
from browserops.agent.run_core import RunCore
from browserops.agent.run_rules import without_instructions
from browserops.agent.run_types import HeldAction, Pause, StepSummary
from browserops.agent.toolspec import ASK, DONE
from browserops.agent.validate import DoneCheck, check_done
from browserops.contract import ErrorCode, SideEffect, error
from browserops.evidence.agent_events import DoneInfo, LlmInfo
from browserops.policy_words import SECRET, fold_for_words
from browserops.privacy import mask_args, mask_pii

MAX_DONE_REJECTIONS = 2  # done calls the page does not confirm before one is accepted as unverified
# Side-effect classes a read-only exploration records as plan steps instead of running.
PLANNED_CLASSES = frozenset({SideEffect.BROWSER_ACT, SideEffect.EXPORT})


def ask(run: RunCore, call: ParsedCall, llm: LlmInfo) -> Pause:
    question = str(call.args.get("question", ""))
    run.steps.asked(iteration=run.budget.iterations, llm=llm, question=question, page=run.observer.view,
                    progress=run.last_progress)
    if SECRET.find(fold_for_words(question)):
        # Passwords and one-time codes are never asked for: the user types them into the page.
        run.transcript.add_result(call.call_id, ASK, {
            "tool": ASK, "last_action": "error", "error_class": ErrorCode.POLICY_REFUSED.value,
            "error": "Not asked: passwords and one-time codes are never asked for. The user was told to type it "
                     "into the field themselves; wait for them to say they are done."}, is_error=True)
        pause = Pause("handoff", "The next step needs a password or a one-time code. Please type it into the "
                      "browser yourself (the agent never sees it), then say 'done'.")
        run._waiting = pause
        return pause
    run._ask_call = (call.call_id, question)
    pause = Pause("ask", mask_pii(question), question=question)
    run._waiting = pause
    return pause


async def finish(run: RunCore, call: ParsedCall, llm: LlmInfo) -> Pause | None:
    """``assistant_done``: accepted when the page shows what the reason claims (after two rejections, the third
    is accepted as unverified)."""
    reason = str(call.args.get("reason", ""))
    view = run.observer.view
    extract = await run.host.call("browser_extract", {"mode": "text", "max_chars": 8000})
    text = str((extract.get("data") or {}).get("text") or "") if extract.get("status") == "ok" else ""
    # What the page says to the assistant is no evidence of anything (agent/run_rules.py).
    check = check_done(reason, without_instructions(view.haystack() + "\n" + text.casefold()), goal=run.goal,
                       url=view.url, start_url=run.start_url)
    accept = check.verified or run._done_rejections >= MAX_DONE_REJECTIONS
    info = DoneInfo(accepted=accept, verified=check.verified, matched=check.matched,
                    reason=run.scrub.prose(reason), url=run.scrub(view.url), title=run.scrub(view.title))
    run.steps.done(iteration=run.budget.iterations, llm=llm, info=info, page=view, progress=run.last_progress)
    if not accept:
        run._done_rejections += 1
        run.transcript.add_result(call.call_id, DONE, {
            "tool": DONE, "last_action": "error", "error_class": "NOT_CONFIRMED_BY_PAGE",
            "error": _not_confirmed(check)}, is_error=True)
        return None
    signals = {"url": view.url, "title": view.title, "matched": check.matched, "evidence": check.evidence}
    note = "" if check.verified else " (not confirmed by the page)"
    return await run._end("done", mask_pii(reason) + note, verified=check.verified, signals=signals)


def _not_confirmed(check: DoneCheck) -> str:
    """What the model is told when the page does not confirm its done reason."""
    if check.states and not check.state_shown:
        return (f"Not finished: the page does not show the outcome claimed ({', '.join(check.states)}) for what the "
                "goal names; showing its identifiers or amounts is not showing that it happened. Check the page "
                "(browser_extract), continue working, or call assistant_done again naming the state the page shows.")
    words = ", ".join(repr(w) for w in check.words[:6]) or "(no telling words)"
    return (f"Not finished: the page does not show evidence of what the goal asks for (of {words}, too few appear "
            "in its title, URL, headings, messages or text; no confirmation text, no asked-for value, no URL change "
            "carrying it). Check the page (browser_extract), continue working, or call assistant_done again naming "
            "what the page visibly shows.")


def hand_off(run: RunCore, call: ParsedCall, judgement: Judgement, llm: LlmInfo) -> Pause:
    decision = judgement.decision
    what = "a captcha" if "captcha" in decision.reason else "a password or one-time code"
    where = f" (element {judgement.number})" if judgement.number else ""
    message = f"This step needs {what}{where}, which you do yourself: please do it in the browser, then say 'done'."
    run.transcript.add_result(call.call_id, call.name, {
        "tool": call.name, "last_action": "error", "error_class": "HANDED_TO_USER",
        "error": f"Not run: {decision.reason}. The user was asked to do it themselves; wait for them."},
        is_error=True)
    run.steps.refused(iteration=run.budget.iterations, tool=call.name, args=call.args,
                      result={"status": "error", "code": None, "error": "handed to the user"},
                      policy=run._policy_info(decision, "handoff"), page=run.observer.view, llm=llm,
                      number=judgement.number)
    pause = Pause("handoff", message)
    run._waiting = pause
    return pause


async def hold(run: RunCore, call: ParsedCall, judgement: Judgement, llm: LlmInfo) -> Pause:
    """A destructive call with nobody to ask now (chat, MCP): held, NOT executed, until resolve_pending."""
    decision = judgement.decision
    pending = policy.PendingAction.of(call.name, call.args, decision, judgement.target)
    held = HeldAction(call.name, dict(call.args), call.call_id, pending, decision, judgement.target, judgement.number,
                      run.budget.iterations)
    run.held = held
    run.steps.held(iteration=run.budget.iterations, tool=call.name, args=call.args, page=run.observer.view,
                   policy=run._policy_info(decision, "held"), llm=llm, number=judgement.number,
                   progress=run.last_progress, target=judgement.target)
    await run._emit("policy", {"tool": call.name, "args": mask_args(call.args), "description": pending.question()})
    pause = Pause("confirm", f"May I do this? {pending.question()}", held=held)
    run._waiting = pause
    return pause


async def confirm_now(run: RunCore, call: ParsedCall, judgement: Judgement, llm: LlmInfo,
                      confirmer: policy.Confirmer) -> bool:
    """Ask the confirmer (a TTY prompt, or a refusal when nobody is there). False: refused, the model is told."""
    decision = judgement.decision
    pending = policy.PendingAction.of(call.name, call.args, decision, judgement.target)
    if await policy.authorize(pending, confirmer) is policy.Outcome.CONFIRMED:
        return True
    refusal = policy.refusal_error(pending, interactive=confirmer.interactive)
    result = error(refusal.code, refusal.message)
    run._tell(call.call_id, call.name, result, note="The user did not confirm this action. Choose another way to "
              "reach the goal, or ask the user what to do.")
    run.steps.refused(iteration=run.budget.iterations, tool=call.name, args=call.args, result=result,
                      policy=run._policy_info(decision, "refused"), page=run.observer.view, llm=llm,
                      number=judgement.number)
    run.history.append(StepSummary(run.budget.iterations, call.name, False, "refused by the policy gate",
                                   refusal.code.value))
    await run._emit("tool_result", {"tool": call.name, "status": "error", "code": refusal.code.value,
                                    "error": run.scrub(refusal.message)[:300]})
    return False


async def plan_instead(run: RunCore, call: ParsedCall, judgement: Judgement, llm: LlmInfo) -> Pause | None:
    """Read-only exploration: the call becomes a plan step (the planner decides), never runs. A step that commits
    (the gate's ``confirm``) is the plan's last: the exploration ends there."""
    if run.planner is None:
        result = error(ErrorCode.CAPABILITY_DISABLED, f"{call.name} was not run: this is a read-only exploration. "
                       "Navigate, list, find and read only.")
        outcome = "refused"
    else:
        result = await run.planner(call, judgement)
        outcome = "planned" if result.get("status") == "ok" else "refused"
    note = (result.get("data") or {}).get("note")
    run._tell(call.call_id, call.name, result, note=str(note) if note else None)
    run.steps.refused(iteration=run.budget.iterations, tool=call.name, args=call.args, result=result,
                      policy=run._policy_info(judgement.decision, outcome), page=run.observer.view, llm=llm,
                      number=judgement.number)
    if outcome == "planned":
        run.history.append(StepSummary(run.budget.iterations, call.name, True, f"planned {call.name}"))
    if (result.get("data") or {}).get("final"):
        return await run._end("done", "The plan is ready: it ends at the step that commits.", verified=True)
    return None
