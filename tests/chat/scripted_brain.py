"""ScriptedPlanBrain: a deterministic, data-driven Brain for the chat tests — test-only, no LLM.

It is not the agent: it follows a fixed plan chosen by a keyword in the user's message, but it does real
work through the real catalogue (``call_tool`` over a real ``BrowserSession`` on the demo site), so the
engine, REPL and server are tested against real tool calls, real confirmations and a real manual login. The
LLM loop replaces it behind the same :class:`~browserops.chat.api.Brain` protocol.

Observation here reads the page directly with Playwright (test code may): title, URL, a screenshot and the
first links/buttons/inputs, standing in for the catalogue's listing/screenshot tools, which the loop uses.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from browserops.browser.page import reading
from browserops.chat.api import ChatSession, Event, EventSink, TurnOutcome
from browserops.policy import PendingAction
from browserops.privacy import mask_args
from browserops.tools.context import ToolContext
from tests.calls import call_tool

_ITEMS_JS = """els => els.filter(e => e.offsetParent !== null).slice(0, 12).map((e, i) => ({
  n: i + 1,
  role: e.getAttribute('role') || ({A: 'link', BUTTON: 'button', SELECT: 'combobox', TEXTAREA: 'textbox'}[e.tagName]
        || (e.tagName === 'INPUT' ? (e.type === 'submit' ? 'button' : 'textbox') : e.tagName.toLowerCase())),
  name: (e.getAttribute('aria-label') || e.innerText || e.value || e.getAttribute('placeholder') || '')
        .trim().slice(0, 60)
}))"""


@dataclass
class Step:
    tool: str
    args: dict[str, Any]
    destructive: bool = False  # the plan's policy verdict: this step waits for /yes
    why: str = ""


@dataclass
class Plan:
    steps: list[Step]
    final: str = "Done."
    # Hand over to the user when the page URL contains this (a login wall), until it no longer does.
    manual_when_url_contains: str | None = None
    manual_instruction: str = "Please log in in the browser window, then write 'done'."


@dataclass
class ScriptedPlanBrain:
    ctx: ToolContext
    plans: Mapping[str, Plan]
    steps_per_message: int = 10
    honour_stop: bool = True
    shots_dir: str = "artifacts/chat-shots"
    calls: list[str] = field(default_factory=list)
    _shots: int = 0

    # -- Brain protocol ----------------------------------------------------------------------------
    async def handle_message(
        self, state: ChatSession, text: str, emit: EventSink, should_stop: Callable[[], bool]
    ) -> TurnOutcome:
        self.calls.append(f"handle_message:{state.turn}")
        bs = state.brain_state
        if state.turn == "new_goal" or "plan" not in bs:
            # The plan whose keyword comes first in the message ("confirm the search" → confirm).
            found = sorted((text.lower().find(k), k) for k in self.plans if k in text.lower())
            key = found[0][1] if found else None
            if key is None:
                return TurnOutcome(kind="ask", message="I have no plan for that. Try: " + ", ".join(self.plans) + ".")
            bs.clear()
            bs.update(plan=key, next=0, done=[], failed=[])
        return await self._run(state, emit, should_stop)

    async def resolve_pending(
        self, state: ChatSession, approved: bool, emit: EventSink, should_stop: Callable[[], bool]
    ) -> TurnOutcome:
        self.calls.append(f"resolve_pending:{approved}")
        pending = state.pending_action
        assert pending is not None, "the engine calls resolve_pending only with a pending action"
        bs = state.brain_state
        bs["next"] += 1
        if not approved:
            bs["failed"].append(f"{pending.tool} (declined)")
            return TurnOutcome(kind="ask", message=f"I skipped {pending.describe()}. Say 'go on' for the rest.")
        await self._call(state, pending.tool, pending.raw_args, emit)
        return await self._run(state, emit, should_stop)

    async def resume_after_manual(
        self, state: ChatSession, text: str, emit: EventSink, should_stop: Callable[[], bool]
    ) -> TurnOutcome:
        self.calls.append("resume_after_manual")
        return await self._run(state, emit, should_stop)

    # -- the plan ----------------------------------------------------------------------------------
    async def _run(self, state: ChatSession, emit: EventSink, should_stop: Callable[[], bool]) -> TurnOutcome:
        bs = state.brain_state
        plan = self.plans[bs["plan"]]
        observed = await self._observe(state, emit)
        manual = self._manual(plan, observed)
        if manual is not None:
            return manual
        executed = 0
        while bs["next"] < len(plan.steps):
            if self.honour_stop and should_stop():
                return TurnOutcome(kind="stopped", message=f"Stopped after {executed} steps, as you asked.")
            if executed >= self.steps_per_message:
                step = plan.steps[bs["next"]]
                return TurnOutcome(kind="report", message=(
                    f"Report: I did {executed} steps ({len(bs['done'])} worked, {len(bs['failed'])} failed). "
                    f"Next I would run {step.tool} {mask_args(step.args)}. Shall I continue?"))
            step = plan.steps[bs["next"]]
            if step.destructive:
                pending = PendingAction.create(step.tool, step.args, reason=step.why or "it changes something")
                return TurnOutcome(kind="confirm", message=f"May I {step.why}?", pending=pending)
            await self._call(state, step.tool, step.args, emit)
            bs["next"] += 1
            executed += 1
            # Act, then look again (as the loop validates each step).
            manual = self._manual(plan, await self._observe(state, emit))
            if manual is not None:
                return manual
        return TurnOutcome(kind="final", message=f"{plan.final} ({len(bs['done'])} steps worked, "
                                                 f"{len(bs['failed'])} failed.)")

    def _manual(self, plan: Plan, observed: Mapping[str, Any]) -> TurnOutcome | None:
        marker = plan.manual_when_url_contains
        if marker and marker in str(observed.get("url", "")):
            return TurnOutcome(kind="manual", message=plan.manual_instruction)
        return None

    async def _call(self, state: ChatSession, tool: str, args: Mapping[str, Any], emit: EventSink) -> None:
        sid, bs = state.session_id, state.brain_state
        await emit(Event.make("tool_call", sid, tool=tool, args=mask_args(args)))
        result = await call_tool(tool, self.ctx, args)
        await emit(Event.make("tool_result", sid, tool=tool, status=result["status"], code=result.get("code"),
                              error=result.get("error")))
        (bs["done"] if result["status"] == "ok" else bs["failed"]).append(tool)

    async def _observe(self, state: ChatSession, emit: EventSink) -> dict[str, Any]:
        page = self.ctx.session.page
        self._shots += 1
        rel = f"{self.shots_dir}/{state.session_id}-{self._shots:03d}.png"
        path = self.ctx.workspace / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        # The product's own screenshot (retried once when Chromium refuses it under load), not a raw Playwright one.
        await reading.screenshot(page, path, timeout_ms=self.ctx.settings.tool_timeout_ms, session=self.ctx.session,
                                 redact=self.ctx.session)
        items = await page.locator("a, button, input:not([type=hidden]), select, textarea").evaluate_all(_ITEMS_JS)
        data = {"url": page.url, "title": await page.title(), "screenshot": rel, "items": items,
                "summary": f"{len(items)} numbered items"}
        await emit(Event.make("observation", state.session_id, **data))
        return data


def demo_plans(base: str) -> dict[str, Plan]:
    """The plans the chat tests use, on the demo site at ``base``."""

    def nav(path: str, **kw: Any) -> Step:
        return Step("browser_navigate", {"url": base + path}, **kw)

    return {
        "search": Plan([nav("/search?q=chat-demo")], final="Searched the catalogue for chat-demo."),
        "twelve": Plan([nav(f"/search?q=step-{i}") for i in range(1, 13)], final="All twelve searches done."),
        "confirm": Plan(
            [nav("/"), nav("/search?q=confirmed-once", destructive=True, why="run the search 'confirmed-once'"),
             nav("/search?q=after-confirm")],
            final="Searched after your confirmation.",
        ),
        "account": Plan([nav("/account")], final="You are logged in; your account page is open.",
                        manual_when_url_contains="/login"),
        "slow": Plan([nav("/slow?ms=400") for _ in range(6)], final="All slow pages opened."),
    }
