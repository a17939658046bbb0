"""The chat engine's state machine through its API, with the scripted-plan Brain doing real tool calls on the
demo site: modes, the 10-step report and continuation, /yes exactly once, /no, manual login, /stop."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest

from browserops.browser.launch.session import BrowserSession
from browserops.chat.api import ChatSession, Event, EventSink, TurnOutcome
from browserops.chat.engine import ChatEngine
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from tests.chat.scripted_brain import Plan, ScriptedPlanBrain

SID = "default"


def types(engine: ChatEngine, after: int = 0) -> list[str]:
    return [e.type for e in engine.bus.recent(SID, after)]


def outcome_of(replies: list[str | TurnOutcome]) -> TurnOutcome:
    [outcome] = [r for r in replies if isinstance(r, TurnOutcome)]
    return outcome


async def chat(engine: ChatEngine, *lines: str) -> list[str | TurnOutcome]:
    out: list[str | TurnOutcome] = []
    for line in lines:
        out.extend(await engine.submit(SID, line))
    return out


async def test_mode_switching(engine: ChatEngine) -> None:
    [hint] = await engine.submit(SID, "search for chat-demo")
    assert isinstance(hint, str) and "/chat" in hint
    assert engine.session(SID).current_goal is None

    await engine.submit(SID, "/chat")
    assert engine.session(SID).mode == "chat"
    for keeps in ("/status", "/help", "/chat", "/no", "/yes", "/stop"):
        await engine.submit(SID, keeps)
        assert engine.session(SID).mode == "chat", keeps
    await engine.submit(SID, "/exit")
    assert engine.session(SID).mode == "cmd"
    await engine.submit(SID, "/chat")
    [left] = await engine.submit(SID, "/navigate somewhere")
    assert "Left chat mode" in str(left) and engine.session(SID).mode == "cmd"
    status_events = [e.data["mode"] for e in engine.bus.recent(SID) if e.type == "status"]
    assert status_events == ["chat", "cmd", "chat", "cmd"]


async def test_one_task_event_sequence(engine: ChatEngine, demo_site: DemoSite) -> None:
    await engine.submit(SID, "/chat")
    start = engine.bus.last_seq(SID)
    outcome = outcome_of(await engine.submit(SID, "search for chat-demo please"))
    assert outcome.kind == "final" and "chat-demo" in outcome.message
    assert demo_site.state.searches == ["chat-demo"]
    events = engine.bus.recent(SID, start)
    assert [e.type for e in events] == [
        "status", "observation", "tool_call", "tool_result", "observation", "final", "agent_message", "status"]
    assert [e.data["status"] for e in events if e.type == "status"] == ["running", "idle"]
    assert [e.seq for e in events] == list(range(start + 1, start + 1 + len(events)))
    state = engine.session(SID)
    assert state.status == "idle" and state.current_goal == "search for chat-demo please"
    assert state.last_observation and state.last_observation["screenshot"].endswith(".png")


async def test_ten_step_report_then_chat_message_continues(
    engine: ChatEngine, demo_site: DemoSite, brain: ScriptedPlanBrain
) -> None:
    await engine.submit(SID, "/chat")
    first = outcome_of(await engine.submit(SID, "do the twelve steps"))
    assert first.kind == "report" and "Shall I continue?" in first.message
    assert types(engine).count("tool_call") == 10
    state = engine.session(SID)
    assert (state.status, state.pending_kind) == ("waiting_user", "none")
    assert demo_site.state.searches == [f"step-{i}" for i in range(1, 11)]

    mark = engine.bus.last_seq(SID)
    second = outcome_of(await engine.submit(SID, "go on"))
    assert second.kind == "final"
    assert types(engine, mark).count("tool_call") == 2
    assert demo_site.state.searches == [f"step-{i}" for i in range(1, 13)]
    assert engine.session(SID).current_goal == "do the twelve steps"  # the anchor survives "go on"
    assert brain.calls == ["handle_message:new_goal", "handle_message:feedback"]


async def test_engine_caps_steps_even_if_the_brain_does_not(
    workspace: Path, tool_ctx: ToolContext, plans: dict[str, Plan], demo_site: DemoSite
) -> None:
    greedy = ScriptedPlanBrain(tool_ctx, plans, steps_per_message=50)
    engine = ChatEngine(workspace, greedy, steps_per_message=10)
    await engine.submit(SID, "/chat")
    outcome = outcome_of(await engine.submit(SID, "twelve"))
    await engine.close()
    assert outcome.kind == "report" and "10 steps" in outcome.message
    assert types(engine).count("tool_call") == 10 and len(demo_site.state.searches) == 10


async def test_yes_executes_the_pending_action_exactly_once(engine: ChatEngine, demo_site: DemoSite) -> None:
    await engine.submit(SID, "/chat")
    asked = outcome_of(await engine.submit(SID, "confirm the search"))
    assert asked.kind == "confirm" and asked.pending is not None
    state = engine.session(SID)
    assert (state.status, state.pending_kind) == ("waiting_user", "confirm")
    assert demo_site.state.searches == []  # nothing destructive ran before /yes
    [request] = [e for e in engine.bus.recent(SID) if e.type == "policy_request"]
    assert request.data["tool"] == "browser_navigate" and "confirmed-once" in request.data["args"]["url"]

    [reminder] = await engine.submit(SID, "just do it")
    assert "/yes or /no" in str(reminder) and demo_site.state.searches == []

    results = await asyncio.gather(engine.submit(SID, "/yes"), engine.submit(SID, "/yes"))
    outcomes = [r for replies in results for r in replies if isinstance(r, TurnOutcome)]
    texts = [r for replies in results for r in replies if isinstance(r, str)]
    assert len(outcomes) == 1 and outcomes[0].kind == "final"
    assert texts == ["Busy: a task is running. /stop first."]
    assert demo_site.state.searches == ["confirmed-once", "after-confirm"]
    [result] = [e for e in engine.bus.recent(SID) if e.type == "policy_result"]
    assert result.data["approved"] is True
    assert await engine.submit(SID, "/yes") == ["Nothing is waiting for confirmation."]
    assert demo_site.state.searches.count("confirmed-once") == 1


async def test_no_drops_the_pending_action(engine: ChatEngine, demo_site: DemoSite) -> None:
    await chat(engine, "/chat", "confirm the search")
    outcome = outcome_of(await engine.submit(SID, "/no"))
    assert outcome.kind == "ask" and "skipped" in outcome.message
    state = engine.session(SID)
    assert state.pending_action is None and state.pending_kind == "none"
    [result] = [e for e in engine.bus.recent(SID) if e.type == "policy_result"]
    assert result.data["approved"] is False
    assert outcome_of(await engine.submit(SID, "go on")).kind == "final"
    assert demo_site.state.searches == ["after-confirm"]


async def test_manual_login_then_done_continues_logged_in(
    engine: ChatEngine, demo_site: DemoSite, session: BrowserSession
) -> None:
    await engine.submit(SID, "/chat")
    handoff = outcome_of(await engine.submit(SID, "open my account"))
    assert handoff.kind == "manual" and "log in" in handoff.message
    state = engine.session(SID)
    assert (state.status, state.pending_kind) == ("waiting_user", "manual")

    # Saying "done" before doing it: the agent looks again and hands over again.
    assert outcome_of(await engine.submit(SID, "готово")).kind == "manual"

    # The user logs in by hand in the browser window.
    page = session.page
    await page.fill("#username", "alice")
    await page.fill("#password", "demo")
    await page.click("button[type=submit]")
    await page.wait_for_url("**/account")

    done = outcome_of(await engine.submit(SID, "Готово!"))
    assert done.kind == "final" and "logged in" in done.message
    state = engine.session(SID)
    assert state.pending_kind == "none" and state.status == "idle"
    assert state.last_observation and state.last_observation["url"].endswith("/account")
    assert demo_site.state.logins == ["alice"]


async def test_stop_interrupts_between_steps(engine: ChatEngine) -> None:
    await engine.submit(SID, "/chat")
    async with engine.bus.subscribe(SID, types={"tool_result"}) as results:
        task = asyncio.create_task(engine.submit(SID, "open the slow pages"))
        await asyncio.wait_for(results.get(), 20)
        assert await engine.submit(SID, "another task") == ["Busy: a task is running. /stop first."]
        assert await engine.submit(SID, "/stop") == ["Stopping after the current step…"]
        outcome = outcome_of(await asyncio.wait_for(task, 20))
    assert outcome.kind == "stopped"
    assert 1 <= types(engine).count("tool_call") <= 2
    [stop] = [e for e in engine.bus.recent(SID) if e.type == "manual_stop"]
    assert stop.data["during"] == "running"
    assert engine.session(SID).status == "idle"


async def test_engine_enforces_stop_for_a_brain_that_ignores_it(
    workspace: Path, tool_ctx: ToolContext, plans: dict[str, Plan]
) -> None:
    stubborn = ScriptedPlanBrain(tool_ctx, plans, honour_stop=False)
    engine = ChatEngine(workspace, stubborn)
    await engine.submit(SID, "/chat")
    async with engine.bus.subscribe(SID, types={"tool_result"}) as results:
        task = asyncio.create_task(engine.submit(SID, "slow"))
        await asyncio.wait_for(results.get(), 20)
        await engine.submit(SID, "/stop")
        outcome = outcome_of(await asyncio.wait_for(task, 20))
    await engine.close()
    assert outcome.kind == "stopped" and types(engine).count("tool_call") <= 2


async def test_stop_while_waiting_drops_the_pending_action(engine: ChatEngine, demo_site: DemoSite) -> None:
    await chat(engine, "/chat", "confirm the search")
    [reply] = await engine.submit(SID, "/stop")
    assert "Stopped" in str(reply)
    state = engine.session(SID)
    assert (state.status, state.pending_kind, state.pending_action) == ("idle", "none", None)
    assert await engine.submit(SID, "/yes") == ["Nothing is waiting for confirmation."]
    assert "confirmed-once" not in demo_site.state.searches
    assert await engine.submit(SID, "/stop") == ["Nothing is running."]


async def test_viewer_cannot_start_or_confirm(engine: ChatEngine, demo_site: DemoSite) -> None:
    await chat(engine, "/chat", "confirm the search")
    for line in ("/yes", "/no", "/stop", "/chat", "/exit", "search", "go on"):
        with pytest.raises(BrowserOpsError) as err:
            await engine.submit(SID, line, role="viewer")
        assert err.value.code is ErrorCode.UNAUTHORIZED, line
    [status] = await engine.submit(SID, "/status", role="viewer")
    assert "waiting for /yes or /no" in str(status)
    assert engine.session(SID).pending_kind == "confirm" and demo_site.state.searches == []


async def test_state_survives_a_restart(
    workspace: Path, tool_ctx: ToolContext, plans: dict[str, Plan], demo_site: DemoSite
) -> None:
    first = ChatEngine(workspace, ScriptedPlanBrain(tool_ctx, plans))
    await first.submit(SID, "/chat")
    await first.submit(SID, "confirm the search")
    seq_before = first.bus.last_seq(SID)
    await first.close()

    second = ChatEngine(workspace, ScriptedPlanBrain(tool_ctx, plans))
    state = second.session(SID)
    assert (state.mode, state.status, state.pending_kind) == ("chat", "waiting_user", "confirm")
    assert state.pending_action is not None and "confirmed-once" in state.pending_action.raw_args["url"]
    assert second.bus.last_seq(SID) == seq_before
    assert outcome_of(await second.submit(SID, "/yes")).kind == "final"
    assert demo_site.state.searches == ["confirmed-once", "after-confirm"]
    assert [e.seq for e in second.bus.recent(SID)] == sorted({e.seq for e in second.bus.recent(SID)})
    assert second.bus.recent(SID)[-1].seq > seq_before
    await second.close()


async def test_a_turn_cut_off_by_a_dead_process_is_reported(workspace: Path, brain: ScriptedPlanBrain) -> None:
    engine = ChatEngine(workspace, brain)
    engine.store.save(ChatSession(session_id=SID, mode="chat", status="running", current_goal="x"))
    state = ChatEngine(workspace, brain).session(SID)
    assert state.status == "error" and state.last_error is not None
    assert state.history[-1].role == "system"


class _LeakyBrain:
    """Emits a tool_call with raw typed text, to prove the engine masks it anyway."""

    async def handle_message(self, state: ChatSession, text: str, emit: EventSink,
                             should_stop: Callable[[], bool]) -> TurnOutcome:
        await emit(Event.make("tool_call", state.session_id, tool="browser_type", args={"text": "hunter2"}))
        raise BrowserOpsError(ErrorCode.ACTION_FAILED, "Typing failed: the field is gone.")

    async def resolve_pending(self, state: ChatSession, approved: bool, emit: EventSink,
                              should_stop: Callable[[], bool]) -> TurnOutcome:
        return TurnOutcome(kind="final", message="ok")

    async def resume_after_manual(self, state: ChatSession, text: str, emit: EventSink,
                                  should_stop: Callable[[], bool]) -> TurnOutcome:
        return TurnOutcome(kind="final", message="ok")


async def test_typed_text_never_reaches_events_and_errors_become_status(workspace: Path) -> None:
    engine = ChatEngine(workspace, _LeakyBrain())
    await engine.submit(SID, "/chat")
    outcome = outcome_of(await engine.submit(SID, "type my password"))
    assert outcome.kind == "error"
    log_text = engine.store.events_path(SID).read_text()
    assert "hunter2" not in log_text and "textDigest" in log_text
    state = engine.session(SID)
    assert state.status == "error" and state.last_error and state.last_error["code"] == "BROWSER_ACTION_FAILED"
    [error] = [e for e in engine.bus.recent(SID) if e.type == "error"]
    assert error.data["code"] == "BROWSER_ACTION_FAILED"
    # An error keeps the goal: the next message is feedback for it.
    await engine.submit(SID, "try again")
    assert engine.session(SID).current_goal == "type my password"


async def test_one_process_at_a_time_per_session(workspace: Path, brain: ScriptedPlanBrain) -> None:
    first, second = ChatEngine(workspace, brain), ChatEngine(workspace, brain)
    await first.submit(SID, "/chat")
    with pytest.raises(BrowserOpsError) as err:
        await second.submit(SID, "/status")
    assert err.value.code is ErrorCode.SESSION_IN_USE
    assert await second.submit("other", "/chat")  # other sessions are free
    await first.close()
    assert engine_mode(second) == "chat"  # released: the second process takes over with the saved state
    await second.close()


def engine_mode(engine: ChatEngine) -> str:
    return engine.session(SID).mode
