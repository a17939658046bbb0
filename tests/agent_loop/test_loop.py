"""The agent loop with a scripted model in real Chromium on the demo site (issue 6, "Done when")."""

from __future__ import annotations

import orjson
import pytest

from browserops.agent.model_api import ModelTurn, ToolCall, text_turn, tool_turn
from browserops.agent.scripted import ModelRequest
from browserops.config import Settings
from browserops.contract import BrowserOpsError
from browserops.demo_site import DemoSite
from browserops.evidence import read_events, verify_bundle
from browserops.evidence.bundle import read_info
from browserops.policy import CallbackConfirmer, RefuseConfirmer
from browserops.tools.context import ToolContext
from tests.agent_loop.conftest import RunFactory, open_page
from tests.agent_loop.helpers import act, act_text, last_result_text, tool_results


def done(reason: str) -> ModelTurn:
    return tool_turn("assistant_done", {"reason": reason}, "Checking the page and finishing.")


async def test_search_task_finishes_with_done_confirmed_by_the_page(
    make_run: RunFactory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/")  # the home page greets with a cookie banner
    run = make_run([
        act("searchbox", "Search", "type", text="stapler", submit=True, progress="Typing the query."),
        done("The results page lists the Red stapler and the Mini stapler."),
    ])
    pause = await run.advance()

    assert pause.kind == "done" and pause.verified, pause
    assert "/search?q=stapler" in pause.signals["url"] and "stapler" in pause.signals["matched"]
    assert demo_site.state.searches == ["stapler"]
    first = run.model.requests[0]
    # The model saw the page with the banner already closed, numbers and the screenshot with them.
    assert "Accept all" not in first.messages[-1]["content"][0]["text"]
    assert any(b.get("type") == "image" for b in first.messages[-1]["content"])
    assert first.system.startswith("You are a browser assistant") and "find a stapler" in first.system

    assert run.recorder is not None
    report = verify_bundle(run.recorder.path)
    assert report.ok and report.status == "complete"
    events, problems = read_events(run.recorder.path)
    assert not problems
    kinds = [(e.kind, e.tool) for e in events]
    assert kinds == [("agent_start", None), ("agent", "browser_overlay_act"), ("agent", "assistant_done"),
                     ("agent_end", None)]
    act_event = events[1]
    assert act_event.agent is not None and act_event.agent.policy is not None
    assert act_event.agent.policy.verdict == "allow" and act_event.target and act_event.target.role == "searchbox"
    assert act_event.agent.enumerate and act_event.agent.enumerate.did_refresh
    assert act_event.agent.wait and act_event.agent.wait.type == "settled"
    assert act_event.screenshots and all((run.recorder.path / s).is_file() for s in act_event.screenshots)
    assert events[0].screenshots  # the first observation, numbers drawn
    assert "Red stapler" not in (run.recorder.path / "events.jsonl").read_text()  # no page content
    summary = (run.recorder.path / "summary.md").read_text()
    assert "## Agent run" in summary and "Outcome: The results page lists" in summary
    assert "browser_overlay_act" in summary


async def test_text_fallback_call_is_parsed_and_executed(
    make_run: RunFactory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/search")
    run = make_run([
        act("searchbox", "Search", "type", text="paper"),
        act_text("button", "Search", progress="Pressing the Search button."),
        text_turn('All done.\nmode: done\nreason: "The results show Printer paper A4."'),
    ])
    pause = await run.advance()
    assert pause.kind == "done" and pause.verified
    assert demo_site.state.searches == ["", "paper"] or demo_site.state.searches == ["paper"]
    assert run.recorder is not None
    events, _ = read_events(run.recorder.path)
    sources = [e.agent.llm.source for e in events if e.agent and e.agent.llm]
    assert sources == ["tool_use", "text", "mode"]
    # A text-fallback call has no tool_use id, so its result came back as plain text.
    assert "Result of browser_overlay_act" in str(run.model.requests[2].messages[-1])


async def test_two_calls_in_one_reply_are_rejected_and_the_retry_runs(
    make_run: RunFactory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/search")

    def two_calls(request: ModelRequest) -> ModelTurn:
        return ModelTurn(text="Type and search.", stop_reason="tool_use", tool_calls=(
            ToolCall("toolu_a", "browser_overlay_act", {"index": 2, "action": "type", "text": "marker"}),
            ToolCall("toolu_b", "browser_navigate", {"url": demo_site.base_url + "/search?q=twice"}),
        ))

    def retry(request: ModelRequest) -> ModelTurn:
        errors = [b for b in tool_results(request) if b.get("is_error")]
        assert [b["tool_use_id"] for b in errors] == ["toolu_a", "toolu_b"]
        assert "only one per turn" in errors[0]["content"][0]["text"]
        return act("searchbox", "Search", "type", text="marker", submit=True)(request)

    run = make_run([two_calls, retry, done("The results list the Whiteboard marker set.")])
    pause = await run.advance()
    assert pause.kind == "done"
    assert demo_site.state.searches == ["marker"]  # nothing of the rejected reply ran
    assert run.recorder is not None
    events, _ = read_events(run.recorder.path)
    rejected = [e for e in events if e.agent and e.agent.llm and e.agent.llm.call_error]
    assert len(rejected) == 1 and rejected[0].agent is not None
    assert rejected[0].agent.llm is not None and rejected[0].agent.llm.call_error == "multiple_calls"


async def test_ask_pauses_and_resumes_with_the_answer(
    make_run: RunFactory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/search")

    def type_answer(request: ModelRequest) -> ModelTurn:
        answer = last_result_text(request)
        assert '"user_answer": "notebook"' in answer
        return act("searchbox", "Search", "type", text="notebook", submit=True)(request)

    run = make_run([
        tool_turn("assistant_ask", {"question": "Which product should I look for?"}, "I need the product."),
        type_answer,
        done("The results show the Spiral notebook."),
    ], goal="look up the product I want")
    pause = await run.advance()
    assert pause.kind == "ask" and pause.question == "Which product should I look for?"
    assert demo_site.state.searches == []
    assert await run.advance() is pause  # still waiting: nothing runs until the answer comes
    await run.answer("notebook")
    pause = await run.advance()
    assert pause.kind == "done"
    assert demo_site.state.searches == ["notebook"]


async def test_done_is_refused_until_the_page_shows_it(
    make_run: RunFactory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/search")

    def after_refusal(request: ModelRequest) -> ModelTurn:
        assert "Not finished: the page does not show" in last_result_text(request)
        return act("searchbox", "Search", "type", text="pen", submit=True)(request)

    run = make_run([done("The order confirmation number appears."), after_refusal,
                    done("The results show Ballpoint pens.")])
    pause = await run.advance()
    assert pause.kind == "done" and pause.verified and demo_site.state.searches == ["pen"]
    assert run.recorder is not None
    events, _ = read_events(run.recorder.path)
    checks = [e.agent.done for e in events if e.agent and e.agent.done]
    assert [(c.accepted, c.verified) for c in checks] == [(False, False), (True, True)]


async def test_a_tool_error_takes_a_screenshot_and_offers_the_fallback_ladder(
    make_run: RunFactory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/search")

    def second_error(request: ModelRequest) -> ModelTurn:
        text = last_result_text(request)
        assert "BROWSER_STALE_INDEX" in text and "Next rung of the fallback ladder: browser_close_banners" in text
        return tool_turn("browser_switch_tab", {"index": 7}, "Trying another tab.")

    def recover(request: ModelRequest) -> ModelTurn:
        text = last_result_text(request)
        assert "BROWSER_TAB_NOT_FOUND" in text and "Next rung of the fallback ladder: browser_scroll" in text
        return act("searchbox", "Search", "type", text="tape", submit=True)(request)

    run = make_run([
        tool_turn("browser_overlay_act", {"index": 99, "action": "click"}, "Clicking number 99."),
        second_error,
        recover,
        done("The results page for tape shows No results."),
    ])
    pause = await run.advance()
    assert pause.kind == "done"
    assert run.recorder is not None
    events, _ = read_events(run.recorder.path)
    failed = [e for e in events if e.status == "error"]
    assert [e.code for e in failed] == ["BROWSER_STALE_INDEX", "BROWSER_TAB_NOT_FOUND"]
    info = read_info(run.recorder.path)
    assert info is not None
    for event in failed:
        shots = [s for s in event.screenshots if "_error_" in s]
        # A screenshot identical to the one before it is stored once: its name leads to that file (sameAs).
        assert shots and (run.recorder.path / info.same_as.get(shots[0], shots[0])).read_bytes().startswith(b"\x89PNG")


async def test_the_iteration_limit_stops_with_a_summary(
    make_run: RunFactory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/large?n=500")  # room to scroll; 5000 only cost listings
    scroll = tool_turn("browser_scroll", {"by_y": 300}, "Scrolling down to look for it.")
    run = make_run([scroll] * 6, goal="find the last section", max_steps=3)
    pause = await run.advance()
    assert pause.kind == "limit" and pause.code == "BROWSER_LIMIT_REACHED"
    assert "the iteration limit (3)" in pause.message and "I made 3 steps: 3 worked, 0 failed" in pause.message
    assert "Next I would: Scrolling down" in pause.message
    assert len(run.model.requests) == 3
    assert run.recorder is not None
    report = verify_bundle(run.recorder.path)
    assert report.intact and report.status == "incomplete"


async def test_a_destructive_click_is_held_and_not_executed_when_refused(
    make_run: RunFactory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expenses")

    def after_no(request: ModelRequest) -> ModelTurn:
        assert "BROWSER_POLICY_REFUSED" in last_result_text(request)
        return done("The Expenses table still lists every expense.")

    run = make_run([act("button", "Delete", progress="Deleting the first expense."), after_no],
                   goal="delete my first expense")
    pause = await run.advance()
    assert pause.kind == "confirm" and pause.held is not None
    assert pause.held.tool == "browser_overlay_act" and "destructive" in pause.held.describe()
    assert demo_site.state.deletions == []
    assert await run.resolve_pending(approved=False) is None
    pause = await run.advance()
    assert pause.kind == "done"
    assert demo_site.state.deletions == []
    assert run.recorder is not None
    events, _ = read_events(run.recorder.path)
    outcomes = [e.agent.policy.outcome for e in events if e.agent and e.agent.policy]
    assert outcomes == ["held", "refused"]


async def test_without_a_terminal_the_gate_refuses_and_the_model_chooses_otherwise(
    make_run: RunFactory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expenses")
    confirmer = RefuseConfirmer()

    def after_refusal(request: ModelRequest) -> ModelTurn:
        text = last_result_text(request)
        assert "BROWSER_POLICY_REFUSED" in text and "not interactive" in text
        return done("Deleting needs the user: the Expenses table is unchanged.")

    run = make_run([act("button", "Delete"), after_refusal], goal="delete my first expense", confirmer=confirmer)
    pause = await run.advance()
    assert pause.kind == "done" and len(confirmer.refused) == 1
    assert demo_site.state.deletions == []


async def test_an_approved_action_runs_exactly_once(
    make_run: RunFactory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/injection")
    run = make_run([act("button", "Pay now"), done("The page says Payment sent.")], goal="pay the invoice")
    pause = await run.advance()
    assert pause.kind == "confirm" and demo_site.state.payments == []
    result = await run.resolve_pending(approved=True)
    assert result is not None and result["status"] == "ok"
    assert len(demo_site.state.payments) == 1
    with pytest.raises(BrowserOpsError, match="No action is waiting"):
        await run.resolve_pending(approved=True)
    pause = await run.advance()
    assert pause.kind == "done" and len(demo_site.state.payments) == 1


async def test_a_callback_confirmer_approves_inline(
    make_run: RunFactory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/injection")
    confirmer = CallbackConfirmer(lambda pending: pending.tool == "browser_overlay_act")
    run = make_run([act("button", "Pay now"), done("The page says Payment sent.")], confirmer=confirmer)
    assert (await run.advance()).kind == "done"
    assert len(confirmer.asked) == 1 and len(demo_site.state.payments) == 1


async def test_fixed_pause_stays_available_as_a_setting(
    make_run: RunFactory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/search")
    settings = Settings(step_pause_ms=600)
    run = make_run([tool_turn("browser_scroll", {"by_y": 100}),
                    done("The Search page lists the Red stapler and the Spiral notebook.")],
                   settings=settings)
    assert (await run.advance()).kind == "done"
    assert run.recorder is not None
    events, _ = read_events(run.recorder.path)
    wait = events[1].agent.wait if events[1].agent else None
    assert wait is not None and wait.type == "ms" and wait.value == 600 and (wait.waited_ms or 0) >= 600
    raw = orjson.loads((run.recorder.path / "events.jsonl").read_bytes().splitlines()[1])
    assert raw["agent"]["timingsMs"]["validate"] >= 600
