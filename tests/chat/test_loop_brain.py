"""The chat "Done when" again, with the real agent loop (LoopBrain) and a scripted model on the demo site: the
10-step report and its continuation by a chat message, /yes exactly once, /no, a manual login hand-off then
"готово", /stop, and the brain's events."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path

import pytest

from browserops.agent.model_api import ModelTurn, tool_turn
from browserops.agent.scripted import ModelRequest, ScriptedModel, ScriptItem
from browserops.agent.toolhost import InProcessToolHost
from browserops.chat.api import TurnOutcome
from browserops.chat.brain import LoopBrain
from browserops.chat.engine import ChatEngine
from browserops.demo_site import DemoSite
from browserops.evidence import read_events, verify_bundle
from browserops.tools.context import ToolContext
from tests.agent_loop.conftest import open_page
from tests.agent_loop.helpers import act, last_result_text

SID = "default"
Factory = Callable[[Iterable[ScriptItem]], ChatEngine]


@pytest.fixture
async def make_engine(workspace: Path, tool_ctx: ToolContext) -> AsyncIterator[Factory]:
    made: list[tuple[ChatEngine, LoopBrain]] = []

    def make(script: Iterable[ScriptItem]) -> ChatEngine:
        brain = LoopBrain(tool_ctx.settings, InProcessToolHost(tool_ctx), ScriptedModel(script), workspace,
                          steps_per_message=10)
        engine = ChatEngine(workspace, brain, steps_per_message=10)
        made.append((engine, brain))
        return engine

    yield make
    for engine, brain in made:
        await engine.close()
        await brain.aclose()


def brain_of(engine: ChatEngine) -> LoopBrain:
    assert isinstance(engine.brain, LoopBrain)
    return engine.brain


async def say(engine: ChatEngine, line: str) -> TurnOutcome:
    replies = await engine.submit(SID, line)
    [outcome] = [r for r in replies if isinstance(r, TurnOutcome)]
    return outcome


def event_types(engine: ChatEngine) -> list[str]:
    return [e.type for e in engine.bus.recent(SID)]


def done(reason: str) -> ModelTurn:
    return tool_turn("assistant_done", {"reason": reason}, "Finishing.")


async def test_ten_steps_then_a_report_and_a_chat_message_continues(
    make_engine: Factory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/large?n=500")  # room to scroll; 5000 only cost listings
    scroll = tool_turn("browser_scroll", {"by_y": 150}, "Scrolling on to the next section.")

    def after_feedback(request: ModelRequest) -> ModelTurn:
        assert "Message from the user: go on, then stop at the end" in str(request.messages[-1])
        return scroll

    engine = make_engine([scroll] * 10 + [after_feedback, scroll, done("The Large page is shown to its end.")])
    await engine.submit(SID, "/chat")
    report = await say(engine, "scroll through the large page")
    assert report.kind == "report"
    assert "I made 10 steps: 10 worked, 0 failed" in report.message and "Shall I continue?" in report.message
    state = engine.session(SID)
    assert state.status == "waiting_user" and state.current_goal == "scroll through the large page"
    assert event_types(engine).count("tool_call") == 10

    final = await say(engine, "go on, then stop at the end")
    assert final.kind == "final" and "Large page" in final.message
    assert event_types(engine).count("tool_call") == 12
    assert engine.session(SID).status == "idle"
    run = brain_of(engine).runs[SID]
    assert run.recorder is not None and verify_bundle(run.recorder.path).ok  # one bundle for the whole goal


async def test_yes_executes_the_pending_action_exactly_once(
    make_engine: Factory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/injection")
    engine = make_engine([act("button", "Pay now", progress="Paying the invoice."),
                          done("The page says Payment sent for INV-6666.")])
    await engine.submit(SID, "/chat")
    question = await say(engine, "pay the invoice on this page")
    assert question.kind == "confirm" and question.pending is not None
    assert question.pending.tool == "browser_overlay_act" and question.pending.target is not None
    assert question.pending.target["name"] == "Pay now"
    assert engine.session(SID).pending_kind == "confirm" and demo_site.state.payments == []
    [request] = [e for e in engine.bus.recent(SID) if e.type == "policy_request"]
    assert "Pay now" in request.data["description"]

    final = await say(engine, "/yes")
    assert final.kind == "final" and len(demo_site.state.payments) == 1
    assert await engine.submit(SID, "/yes") == ["Nothing is waiting for confirmation."]
    assert len(demo_site.state.payments) == 1
    calls = [e for e in engine.bus.recent(SID) if e.type == "tool_call"]
    assert [c.data["tool"] for c in calls] == ["browser_overlay_act"]
    assert calls[0].data["progress"] == "Paying the invoice."


async def test_no_drops_the_pending_action_and_the_agent_decides_again(
    make_engine: Factory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/injection")

    def after_no(request: ModelRequest) -> ModelTurn:
        assert "BROWSER_POLICY_REFUSED" in last_result_text(request)
        return tool_turn("assistant_ask", {"question": "You declined paying. Shall I do something else?"})

    engine = make_engine([act("button", "Pay now"), after_no])
    await engine.submit(SID, "/chat")
    assert (await say(engine, "pay the invoice on this page")).kind == "confirm"
    asked = await say(engine, "/no")
    assert asked.kind == "ask" and "declined" in asked.message
    assert demo_site.state.payments == [] and engine.session(SID).pending_action is None
    assert event_types(engine).count("tool_call") == 0


async def test_manual_login_hand_off_then_done_continues_logged_in(
    make_engine: Factory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/")

    def after_login(request: ModelRequest) -> ModelTurn:
        assert "manual step is finished" in str(request.messages[-1])
        return done("The Account page shows Signed in as alice.")

    engine = make_engine([
        tool_turn("browser_navigate", {"url": demo_site.base_url + "/account"}, "Opening the account page."),
        act("textbox", "Password", "type", text="hunter2", progress="Filling in the password."),
        after_login,
    ])
    await engine.submit(SID, "/chat")
    manual = await say(engine, "open my account page")
    assert manual.kind == "manual" and "password" in manual.message
    assert engine.session(SID).pending_kind == "manual" and demo_site.state.logins == []

    # The user logs in by hand in the browser window.
    page = tool_ctx.session.page
    await page.fill("#username", "alice")
    await page.fill("#password", "demo")
    await page.click("button[type=submit]")
    await page.wait_for_url("**/account")
    assert demo_site.state.logins == ["alice"]

    final = await say(engine, "готово")
    assert final.kind == "final" and "Signed in as" in final.message
    observation = engine.session(SID).last_observation
    assert observation is not None and observation["url"].endswith("/account")
    log = (Path(tool_ctx.workspace) / ".browserops" / "chat" / f"{SID}.events.jsonl").read_text()
    assert "hunter2" not in log
    run = brain_of(engine).runs[SID]
    assert run.recorder is not None
    events, _ = read_events(run.recorder.path)
    assert [e.agent.policy.outcome for e in events if e.agent and e.agent.policy and e.tool and
            e.tool != "browser_navigate"] == ["handoff"]
    assert "hunter2" not in (run.recorder.path / "events.jsonl").read_text()


async def test_stop_interrupts_the_running_task(
    make_engine: Factory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/")
    slow = [tool_turn("browser_navigate", {"url": f"{demo_site.base_url}/slow?ms=400&n={i}"}, "Next slow page.")
            for i in range(8)]
    engine = make_engine([*slow, done("All slow pages were opened.")])
    await engine.submit(SID, "/chat")
    async with engine.bus.subscribe(SID, types={"tool_result"}) as results:
        task = asyncio.create_task(say(engine, "open the slow pages one by one"))
        await asyncio.wait_for(results.get(), 30)
        assert await engine.submit(SID, "/stop") == ["Stopping after the current step…"]
        outcome = await asyncio.wait_for(task, 30)
    assert outcome.kind == "stopped"
    assert 1 <= event_types(engine).count("tool_call") <= 2
    assert engine.session(SID).status == "idle"
    # The next message is a new goal: the stopped run's bundle is finished, incomplete.
    stopped = brain_of(engine).runs[SID]
    engine_model = brain_of(engine).model
    assert isinstance(engine_model, ScriptedModel)
    engine_model.extend([done("The demo home page is shown.")])
    await open_page(tool_ctx, demo_site.base_url + "/")
    assert (await say(engine, "show the home page")).kind == "final"
    assert stopped.recorder is not None and verify_bundle(stopped.recorder.path).status == "incomplete"


async def test_observation_events_carry_the_page_and_the_numbered_screenshot(
    make_engine: Factory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/search")
    engine = make_engine([act("searchbox", "Search", "type", text="ruler", submit=True),
                          done("The results page for the search says No results.")])
    await engine.submit(SID, "/chat")
    assert (await say(engine, "look for a ruler")).kind == "final"
    observations = [e for e in engine.bus.recent(SID) if e.type == "observation"]
    assert len(observations) == 2
    first = observations[0].data
    assert first["url"].endswith("/search") and first["title"] == "Search results"
    assert (tool_ctx.workspace / first["screenshot"]).read_bytes().startswith(b"\x89PNG")
    assert {"n": 2, "role": "searchbox", "name": "Search"} in first["items"]
    # Typed text is scrubbed from what the chat records (the URL echoes the query).
    assert "ruler" not in observations[1].data["url"] and "[typed]" in observations[1].data["url"]


async def test_make_brain_is_the_loop_over_the_real_anthropic_client(
    workspace: Path, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    from browserops.agent.llm import LLMClient
    from browserops.chat.brain import make_brain
    from tests.agent.fake_messages_server import FakeMessagesServer
    from tests.agent_loop.helpers import wire_responder

    await open_page(tool_ctx, demo_site.base_url + "/search")
    with FakeMessagesServer() as fake:
        fake.responder = wire_responder([act("searchbox", "Search", "type", text="pen", submit=True),
                                         done("The results list Ballpoint pens.")])
        brain = make_brain(tool_ctx.settings, tool_ctx, env={"ANTHROPIC_BASE_URL": fake.base_url})
        assert isinstance(brain, LoopBrain) and isinstance(brain.model, LLMClient)
        engine = ChatEngine(workspace, brain, steps_per_message=10)
        try:
            await engine.submit(SID, "/chat")
            assert (await say(engine, "find pens")).kind == "final"
        finally:
            await engine.close()
            await brain.aclose()
    assert demo_site.state.searches == ["pen"] and len(fake.requests) == 2
