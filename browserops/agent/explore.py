"""``prepare --goal``: the agent explores read-only and its actions become the steps of a plan.

The run is an :class:`~browserops.agent.run.AgentRun` with ``read_only=True`` over a :class:`ReadOnlyHost`
(acting and exporting tools are refused by the host itself, whatever happens above it). Every acting call the
model chooses goes to :class:`PlanRecorder` instead of the page: it becomes a plan :class:`~browserops.plan.steps.Step`
whose target is captured semantically from the live element (ARIA role + accessible name + frame, never a
number or a selector), and the model is told it was recorded and to go on as if it had happened. The first
step the policy gate calls destructive (submit, pay, delete, send…) is the plan's last: the exploration ends
there. The plan is then prepared like any other (diff, snapshots, confirm phrase) and run with ``run --confirm``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from browserops import policy
from browserops.agent.calls import ParsedCall
from browserops.agent.gate import INSPECT, Judgement
from browserops.agent.model_api import Model
from browserops.agent.oneshot import Ask, Manual, TaskResult, run_to_end
from browserops.agent.run import AgentRun, RunConfig
from browserops.agent.run.outcomes import Emit
from browserops.agent.toolhost import ToolHost
from browserops.agent.toolspec import ToolSpec, traits_in
from browserops.config import Settings
from browserops.contract import BrowserOpsError, ErrorCode, SideEffect, ToolResult, error, ok
from browserops.plan.steps import Action, Kind, SemanticTarget, Step
from browserops.policy import words as policy_words

ALLOWED = frozenset({SideEffect.READ_ONLY, SideEffect.LOCAL_WRITE})
CHECKABLE = frozenset({"checkbox", "radio", "switch", "menuitemcheckbox", "menuitemradio"})
_PAY = policy_words.WordSet([r"pay\w*", r"buy\w*", r"purchase", r"order\w*", r"check ?out", r"оплат\w*",
                             r"куп\w+", r"заказ\w*", r"bezahlen", r"kaufen", r"bestellen", r"payer", r"acheter",
                             r"commander", r"pagar", r"comprar"], ["支付", "付款", "购买", "下单", "结算", "结账"])
_SLUG = re.compile(r"[^a-z0-9]+")


class ReadOnlyHost:
    """A host that runs only read-only and local-write tools (``prepare``'s rule), refusing the rest."""

    def __init__(self, host: ToolHost) -> None:
        self.host = host
        self.specs = {s.name: s for s in host.tools()}

    def tools(self) -> list[ToolSpec]:
        return self.host.tools()

    async def call(self, name: str, args: Mapping[str, Any]) -> ToolResult:
        if traits_in(self.specs, name).side_effect not in ALLOWED:
            return error(ErrorCode.POLICY_REFUSED, f"{name} is not run while exploring for a plan (read-only).")
        return await self.host.call(name, args)

    async def health(self) -> bool:
        return await self.host.health()

    async def close(self) -> None:
        await self.host.close()


def _field(name: str) -> str | None:
    slug = _SLUG.sub("_", name.casefold()).strip("_")[:60]
    return slug if slug and slug[0].isalpha() else None


@dataclass
class PlanRecorder:
    """The planner of a read-only run: acting calls → plan steps."""

    host: ToolHost
    steps: list[Step] = field(default_factory=list)

    async def __call__(self, call: ParsedCall, judgement: Judgement) -> ToolResult:
        try:
            step = await self._step(call, judgement)
        except BrowserOpsError as exc:
            return error(exc.code, exc.message)
        self.steps.append(step)
        final = judgement.decision.verdict is policy.Verdict.CONFIRM
        note = ("It is the step that commits, so the plan ends here." if final else
                "Go on as if it had happened (the page does not change while exploring).")
        return ok({"planned": True, "step": len(self.steps), "final": final,
                   "note": f"Recorded as plan step {len(self.steps)} ({step.kind}); not executed: this is a "
                           f"read-only exploration. {note}"})

    async def _element(self, call: ParsedCall, judgement: Judgement) -> Mapping[str, Any]:
        if judgement.element is not None:
            return judgement.element
        target = call.args.get("index", call.args.get("id"))
        if target is None:
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"{call.name} names no element, so it cannot become a "
                                  "plan step. Act on a numbered element with browser_overlay_act.")
        found = await self.host.call(INSPECT, {"id": target})
        if found.get("status") != "ok":
            raise BrowserOpsError(ErrorCode.STALE_INDEX, str(found.get("error") or "The element is gone."))
        return dict(found.get("data") or {})

    async def _step(self, call: ParsedCall, judgement: Judgement) -> Step:
        args = call.args
        traits = traits_in({spec.name: spec for spec in self.host.tools()}, call.name)
        # A tool that takes an action word records as an act step, whichever way it names the element.
        verb = "act" if traits.activation == "by_action" else traits.plan_verb
        if verb not in ("act", "upload", "download"):
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"{call.name} cannot be part of a plan. Use "
                                  "browser_overlay_act (click, type, select) on numbered elements.")
        if args.get("submit"):
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, "In a plan, typing does not press Enter: type without "
                                  "submit, then click the button that sends the form.")
        element = await self._element(call, judgement)
        role, name = str(element.get("role") or ""), str(element.get("name") or "").strip()
        if not name:
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, "The element has no accessible name, so a plan could not "
                                  "find it again. Choose a labelled element.")
        frame = element.get("frame")
        target = SemanticTarget(role=role or "generic", names=[name[:200]],
                                frame=str(frame) if frame and frame != "main" else None)
        title = f"{call.name.removeprefix('browser_')} {role} {name}"[:200]
        if verb == "upload":
            return Step(kind=Kind.FILL, action=Action.UPLOAD, target=target, value=args.get("files"), title=title)
        if verb == "download":
            return Step(kind=Kind.EXPORT, action=Action.DOWNLOAD, target=target, title=title)
        action = str(args.get("action", "click"))
        if action == "type":
            return Step(kind=Kind.FILL, action=Action.TYPE, target=target, value=str(args.get("text") or ""),
                        field=_field(name), title=title)
        if action == "select":
            return Step(kind=Kind.FILL, action=Action.SELECT, target=target, value=str(args.get("text") or ""),
                        field=_field(name), title=title)
        if role in CHECKABLE:
            state = element.get("state") if isinstance(element.get("state"), Mapping) else {}
            assert isinstance(state, Mapping)
            wanted = True if role in ("radio", "menuitemradio") else state.get("checked") is not True
            return Step(kind=Kind.FILL, action=Action.CHECK, target=target, value=wanted, field=_field(name),
                        title=title, display=name[:200])
        decision = judgement.decision
        if decision.verdict is policy.Verdict.CONFIRM:
            pay = _PAY.find(policy_words.fold_for_words(" ".join([name, *decision.matched])))
            return Step(kind=Kind.PAYMENT if pay else Kind.SUBMIT, action=Action.CLICK, target=target, title=title)
        return Step(kind=Kind.ACT, action=Action.CLICK, target=target, title=title)


@dataclass(frozen=True)
class Explored:
    steps: list[Step]
    result: TaskResult


async def explore(host: ToolHost, model: Model, settings: Settings, *, goal: str, start_url: str, workspace: Path,
                  max_steps: int | None = None, emit: Emit | None = None, ask: Ask | None = None,
                  manual: Manual | None = None) -> Explored:
    """Explore read-only from ``start_url`` and return the plan steps the agent chose."""
    guarded = ReadOnlyHost(host)
    opened = await guarded.call("browser_navigate", {"url": start_url})
    if opened.get("status") != "ok":
        raise BrowserOpsError(ErrorCode(opened.get("code", ErrorCode.NAVIGATION_FAILED.value)),
                              str(opened.get("error")))
    recorder = PlanRecorder(guarded)
    run = AgentRun(guarded, model, RunConfig(goal=goal, workspace=workspace, settings=settings, read_only=True,
                                         max_steps=max_steps), planner=recorder, emit=emit)

    async def no_answer(question: str) -> str | None:
        return None

    async def no_hands(message: str) -> bool:
        return False

    result = await run_to_end(run, ask=ask or no_answer, manual=manual or no_hands)
    return Explored(recorder.steps, result)
