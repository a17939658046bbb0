"""Turning what one loop iteration did into a masked step event, and the short texts a person reads.

:class:`StepRecorder` writes one :class:`~browserops.evidence.StepEvent` per iteration (executed, held,
refused, asked, done, or a rejected reply) with the fields of docs/design.md §6.3 under ``agent``, attaches the
observation and error screenshots, and scrubs typed text out of everything page- or model-written.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from browserops.agent.model_summaries import one_line
from browserops.agent.observe import ObserveOutcome, PageView
from browserops.agent.records import RunRecorder, Scrubber, step_event
from browserops.agent.run.outcomes import StepSummary
from browserops.contract import SideEffect, ToolTraits
from browserops.evidence import StepEvent, StepTarget
from browserops.evidence.agent_events import (
    AgentStep,
    AskInfo,
    BannersInfo,
    DoneInfo,
    ElementRef,
    EnumerateInfo,
    FindInfo,
    LlmInfo,
    PolicyInfo,
    TextRef,
    WaitInfo,
)
from browserops.policy import UNKNOWN, TargetInfo
from browserops.privacy import describe_text, mask_args

log = logging.getLogger(__name__)

LADDER = (
    "browser_close_banners (a banner may cover the element)",
    "browser_scroll (bring the element into view)",
    "list again: browser_list_interactives + browser_overlay_show (numbers may be stale)",
    "browser_find(role, text) to locate the control, then browser_overlay_act by its number",
    "browser_overlay_act again with the fresh number",
    "browser_press (Tab/Enter/arrows) on the focused element; browser_act_by_index only as a last resort",
)


def fallback_note(streak: int) -> str:
    """The fallback ladder (docs/design.md §8.3) after an error; the rung moves up with each error in a row."""
    rung = LADDER[min(streak, len(LADDER)) - 1]
    return (f"The call failed (error {streak} in a row). A screenshot was taken. Next rung of the fallback ladder: "
            f"{rung}. Ladder: close banners -> scroll -> list again -> find -> overlay_act -> press.")


def outcome_line(tool: str, args: Mapping[str, Any], result: Mapping[str, Any]) -> str:
    """``browser_overlay_act click #7`` — what a step did, without typed text."""
    parts = [tool.removeprefix("browser_")]
    if isinstance(args.get("action"), str):
        parts.append(str(args["action"]))
    for key in ("index", "id"):
        if args.get(key) is not None:
            parts.append(f"#{args[key]}")
    if result.get("status") != "ok":
        parts.append(f"failed ({result.get('code')})")
    return " ".join(parts)


def report_message(history: Sequence[StepSummary], view: PageView, last_progress: str, scrub: Scrubber, *,
                   ask_to_continue: bool) -> str:
    """Done / worked / failed / next step (docs/design.md §8.7), for a report or a limit."""
    worked = [h for h in history if h.ok]
    failed = [h for h in history if not h.ok]
    lines = [f"I made {len(history)} step{'s' if len(history) != 1 else ''}: {len(worked)} worked, "
             f"{len(failed)} failed."]
    if worked:
        lines.append("Done: " + "; ".join(h.what for h in worked[-5:]) + ".")
    if failed:
        lines.append("Did not work: " + "; ".join(f"{h.what}" for h in failed[-3:]) + ".")
    if view.url or view.title:
        lines.append(f"Now on: {one_line(scrub(view.title), 80)!r} {scrub(view.url)}.")
    if last_progress:
        lines.append(f"Next I would: {one_line(last_progress, 160)}")
    if ask_to_continue:
        lines.append("Shall I continue? Reply 'go on', or tell me what to change.")
    return " ".join(lines)


def _ref(item: Mapping[str, Any]) -> ElementRef:
    return ElementRef(role=str(item.get("role") or ""), name=str(item.get("name") or ""))


class OpenStep:
    """An executed step's event, filled in as the step goes."""

    def __init__(self, owner: StepRecorder, event: StepEvent, number: int) -> None:
        self.owner = owner
        self.event = event
        self.number = number

    def error_screenshot(self, path: str | None) -> None:
        if not path:
            return
        try:
            png = Path(path).read_bytes()
        except OSError:
            return
        self.owner.attach(self.number, "error", png, self.event.tool or "error")

    def end(self, result: Mapping[str, Any], *, wait: WaitInfo, observed: ObserveOutcome | None,
            timings: dict[str, float], page: PageView) -> None:
        agent = self.event.agent
        assert agent is not None
        data = result.get("data") if isinstance(result.get("data"), Mapping) else {}
        assert isinstance(data, Mapping)
        agent.wait = wait
        agent.timings_ms = dict(timings)
        banners = data.get("banners_auto_closed")
        if isinstance(banners, Mapping):
            agent.banners = BannersInfo(auto_close_started=bool(banners.get("ran")), found_count=int(
                banners.get("found") or 0), closed_count=int(banners.get("closed") or 0),
                spent_ms=float(banners.get("spent_ms") or 0))
        if isinstance(data.get("matches"), list):  # a search (browser_find): what it matched
            matches = [m for m in data.get("matches") or [] if isinstance(m, Mapping)]
            agent.find = FindInfo(criteria=mask_args({k: v for k, v in (self.event.args or {}).items()}),
                                  count=data.get("count") if isinstance(data.get("count"), int) else None,
                                  top3=[_ref(m) for m in matches[:3]])
        focused = data.get("focused")
        if isinstance(focused, Mapping):
            agent.focused = _ref(focused)
        local = self.owner.traits(self.event.tool or "").side_effect
        for key in ("saved_to", "filename", "path"):
            # A file that came or went through the page; not a screenshot of it (local-write).
            if isinstance(data.get(key), str) and local is not SideEffect.LOCAL_WRITE:
                agent.transfer = Path(str(data[key])).name
                break
        if observed is not None:
            agent.enumerate = self.owner.enumerate_info(observed)
        self.owner.close(self, result, page)


class StepRecorder:
    def __init__(self, recorder: RunRecorder | None, scrub: Scrubber,
                 traits: Callable[[str], ToolTraits] = lambda _name: UNKNOWN) -> None:
        self.recorder = recorder
        self.scrub = scrub
        self.traits = traits  # a tool's traits by name (the run's tool list), for the event's side-effect class
        self.count = 0
        self._open: OpenStep | None = None
        self._loose: list[str] = []  # screenshots taken between steps; the next event lists them

    def _next(self) -> int:
        self.count += 1
        return self.count

    def attach(self, step: int, phase: str, png: bytes, label: str) -> None:
        if self.recorder is None:
            return
        path = self.recorder.screenshot(step, phase, png, label)
        if not path:
            return
        if self._open is not None and self._open.number == step:
            self._open.event.screenshots.append(path)
        else:
            self._loose.append(path)

    def take_loose(self) -> list[str]:
        loose, self._loose = self._loose, []
        return loose

    def enumerate_info(self, outcome: ObserveOutcome) -> EnumerateInfo:
        view = outcome.view
        return EnumerateInfo(did_refresh=outcome.refreshed, items_count=view.total if outcome.refreshed else None,
                             summary_top5=[_ref(i) for i in view.items[:5]] if outcome.refreshed else [],
                             overlay_active=view.overlay_active if outcome.refreshed else None, why=outcome.why)

    def observed(self, step: int, outcome: ObserveOutcome) -> None:
        if outcome.refreshed and outcome.view.png:
            in_step = self._open is not None and self._open.number == step
            self.attach(step, "after" if in_step else "before", outcome.view.png, "observe")

    def _event(self, *, iteration: int, tool: str | None, args: Mapping[str, Any], llm: LlmInfo | None = None,
               policy: PolicyInfo | None = None, progress: str = "", number: int | None = None,
               target: TargetInfo | None = None, **agent_fields: Any) -> StepEvent:
        agent = AgentStep(iteration=iteration, progress=progress or None, llm=llm, policy=policy, **agent_fields)
        side = self.traits(tool).side_effect.value if tool and not tool.startswith("assistant_") else None
        # A call the gate hands to the user (a password, one-time-code or card-security field): its text is a secret.
        secret = policy is not None and policy.verdict == "handoff"
        event = step_event(step=self._next(), tool=tool, args=args, side_effect=side, agent=agent, secret=secret)
        if number is not None or target is not None:
            event.target = StepTarget(role=target.role if target else None, name=target.name if target else None,
                                       number=number)
        return event

    def _write(self, event: StepEvent, page: PageView) -> None:
        event.page = None
        if self.recorder is None:
            return
        event.screenshots = self.take_loose() + event.screenshots
        event.end(None, page_url=self.scrub(page.url), page_title=self.scrub(page.title))
        if event.error:
            event.error = self.scrub(event.error)
        self.recorder.step(event)

    def begin(self, *, iteration: int, tool: str, args: Mapping[str, Any], llm: LlmInfo | None,
              policy: PolicyInfo, progress: str, number: int | None, target: TargetInfo | None = None) -> OpenStep:
        event = self._event(iteration=iteration, tool=tool, args=args, llm=llm, policy=policy, progress=progress,
                            number=number, target=target)
        self._open = OpenStep(self, event, event.step)
        return self._open

    def close(self, step: OpenStep, result: Mapping[str, Any], page: PageView) -> None:
        event = step.event
        event.status = "ok" if result.get("status") == "ok" else "error"
        if result.get("code"):
            event.code = str(result["code"])
        if result.get("error"):
            event.error = self.scrub(str(result["error"]))[:2000]
        self._open = None
        self._write(event, page)

    def _simple(self, event: StepEvent, status: str, page: PageView, *, note: str | None = None,
                result: Mapping[str, Any] | None = None) -> None:
        event.status = status  # type: ignore[assignment]
        if result is not None:
            if result.get("code"):
                event.code = str(result["code"])
            if result.get("error"):
                event.error = self.scrub(str(result["error"]))[:2000]
        if note:
            event.note = self.scrub(note)[:500]
        self._write(event, page)

    def held(self, *, iteration: int, tool: str, args: Mapping[str, Any], page: PageView, policy: PolicyInfo,
             llm: LlmInfo, number: int | None, progress: str, target: TargetInfo | None = None) -> None:
        event = self._event(iteration=iteration, tool=tool, args=args, llm=llm, policy=policy, progress=progress,
                            number=number, target=target)
        self._simple(event, "skipped", page, note="held for the user's confirmation; not executed")

    def refused(self, *, iteration: int, tool: str, args: Mapping[str, Any], result: Mapping[str, Any],
                policy: PolicyInfo, page: PageView, llm: LlmInfo | None = None, number: int | None = None) -> None:
        event = self._event(iteration=iteration, tool=tool, args=args, llm=llm, policy=policy, number=number)
        status = "ok" if result.get("status") == "ok" else "skipped"
        self._simple(event, status, page, note=f"not executed: {policy.outcome}", result=result)

    def call_error(self, *, iteration: int, llm: LlmInfo, message: str, page: PageView) -> None:
        event = self._event(iteration=iteration, tool=None, args={}, llm=llm)
        self._simple(event, "error", page, result={"code": "BROWSER_INVALID_ARGS", "error": message})

    def asked(self, *, iteration: int, llm: LlmInfo, question: str, page: PageView, progress: str) -> None:
        ask = AskInfo(question=TextRef(**describe_text(question)))
        event = self._event(iteration=iteration, tool="assistant_ask", args={"question": question}, llm=llm,
                            progress=progress, ask=ask)
        self._simple(event, "ok", page)

    def done(self, *, iteration: int, llm: LlmInfo, info: DoneInfo, page: PageView, progress: str) -> None:
        event = self._event(iteration=iteration, tool="assistant_done", args={}, llm=llm, progress=progress, done=info)
        self._simple(event, "ok" if info.accepted else "skipped", page,
                     note=None if info.accepted else "done not accepted: the page does not show it yet")

    def note(self, *, kind: str, tool: str, iteration: int, page: PageView, ask: AskInfo | None = None) -> None:
        event = self._event(iteration=iteration, tool=tool, args={}, ask=ask)
        event.kind = kind
        self._simple(event, "ok", page)
