"""One reply → exactly one call: structured, text fallback and mode shapes, and the errors the model gets."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from browserops.agent.calls import CallError, CallErrorKind, parse_turn
from browserops.agent.model_api import ModelTurn, ToolCall, text_turn, tool_turn
from browserops.agent.toolspec import ToolSpec, catalogue_specs, model_tools
from browserops.contract import SideEffect, ToolTraits
from browserops.tools.definitions import ToolArgs, ToolDef

TOOLS = {s.name: s for s in model_tools(catalogue_specs())}


def parse(text: str) -> Any:
    return parse_turn(text_turn(text), TOOLS)


def error_of(turn: ModelTurn | str) -> CallError:
    turn = text_turn(turn) if isinstance(turn, str) else turn
    with pytest.raises(CallError) as info:
        parse_turn(turn, TOOLS)
    return info.value


# -- structured ------------------------------------------------------------------------------------------------
def test_structured_call_wins_and_its_text_is_the_progress_line() -> None:
    turn = tool_turn("browser_navigate", {"url": "http://x.test/"}, "Opening the shop.\n"
                     "function_call: name=browser_back", call_id="toolu_1")
    call = parse_turn(turn, TOOLS)
    assert (call.name, call.args, call.source, call.call_id) == (
        "browser_navigate", {"url": "http://x.test/"}, "tool_use", "toolu_1")
    assert call.progress == "Opening the shop."


def test_two_structured_calls_are_refused_naming_both() -> None:
    turn = ModelTurn(text="x", tool_calls=(ToolCall("a", "browser_back", {}), ToolCall("b", "browser_reload", {})))
    err = error_of(turn)
    assert err.kind is CallErrorKind.MULTIPLE_CALLS
    assert "2 tool calls (browser_back, browser_reload)" in err.message and "exactly one" in err.message


def test_unknown_tool_suggests_the_close_one() -> None:
    err = error_of(tool_turn("browser_naviagte", {"url": "x"}))
    assert err.kind is CallErrorKind.UNKNOWN_TOOL
    assert "Did you mean browser_navigate?" in err.message and "assistant_done" in err.message


def test_invalid_args_name_the_field_and_the_signature() -> None:
    err = error_of(tool_turn("browser_navigate", {"adress": "x"}))
    assert err.kind is CallErrorKind.INVALID_ARGS
    assert "url: Field required" in err.message and "adress" in err.message
    assert "browser_navigate(url)" in err.message


def test_local_tools_are_validated_too() -> None:
    assert error_of(tool_turn("assistant_done", {"reason": ""})).kind is CallErrorKind.INVALID_ARGS
    assert parse_turn(tool_turn("assistant_ask", {"question": "Which card?"}), TOOLS).args == {
        "question": "Which card?"}


# -- text fallback ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    'Searching.\nfunction_call: name=browser_navigate args={"url": "http://x.test/?q=Поиск"}',
    'Searching.\n```\nfunction_call: name=browser_navigate args={"url": "http://x.test/?q=Поиск"}\n```',
    "Searching.\n- FUNCTION_CALL:  name='browser_navigate'  args={'url': 'http://x.test/?q=Поиск'}",
    'Searching.\nfunction_call: name="browser_navigate", args={\n  "url": "http://x.test/?q=Поиск"\n}',
    'Searching.\nfunction_call: name=browser_navigate arguments={"url": "http://x.test/?q=Поиск"} thanks',
])
def test_text_fallback_variants(text: str) -> None:
    call = parse(text)
    assert (call.name, call.args, call.source, call.call_id) == (
        "browser_navigate", {"url": "http://x.test/?q=Поиск"}, "text", None)
    assert call.progress == "Searching."


def test_text_call_without_args_means_no_args() -> None:
    assert parse("Back.\nfunction_call: name=browser_back").args == {}


def test_text_call_with_broken_args_says_what_is_wrong() -> None:
    err = error_of('function_call: name=browser_navigate args={"url": "x"')
    assert err.kind is CallErrorKind.MALFORMED and "not closed" in err.message


def test_text_call_without_a_name() -> None:
    err = error_of("function_call: args={}")
    assert err.kind is CallErrorKind.MALFORMED and "no tool name" in err.message


def test_text_args_must_be_an_object() -> None:
    assert error_of("function_call: name=browser_back args={1: 2}").kind is CallErrorKind.INVALID_ARGS


def test_python_literals_are_read_never_evaluated() -> None:
    err = error_of("function_call: name=browser_navigate args={'url': __import__('os').getcwd()}")
    assert err.kind is CallErrorKind.MALFORMED


def test_two_text_calls_are_refused() -> None:
    err = error_of("function_call: name=browser_back\nfunction_call: name=browser_forward")
    assert err.kind is CallErrorKind.MULTIPLE_CALLS and "browser_back, browser_forward" in err.message


def test_no_call_at_all_explains_the_contract() -> None:
    err = error_of("I think the page is loading.")
    assert err.kind is CallErrorKind.NO_CALL
    assert "function_call: name=<tool>" in err.message and "assistant_done" in err.message


# -- mode shape ------------------------------------------------------------------------------------------------
def test_mode_act_lines() -> None:
    call = parse('Opening.\nmode: act\ntool: browser_navigate\nargs: {"url": "http://x.test/"}')
    assert (call.name, call.args, call.source, call.progress) == (
        "browser_navigate", {"url": "http://x.test/"}, "mode", "Opening.")


def test_mode_act_lines_with_multiline_args_and_progress_field() -> None:
    call = parse('mode: act\nprogress: Going to the shop\ntool: browser_navigate\nargs: {\n "url": "http://x/"\n}')
    assert call.args == {"url": "http://x/"} and call.progress == "Going to the shop"


def test_mode_ask_and_done_lines() -> None:
    ask = parse("Need a detail.\nmode: ask\nquestion: Which invoice should I pay?")
    assert (ask.name, ask.args) == ("assistant_ask", {"question": "Which invoice should I pay?"})
    done = parse("mode: done\nreason: The results page lists 3 staplers.")
    assert (done.name, done.args) == ("assistant_done", {"reason": "The results page lists 3 staplers."})


@pytest.mark.parametrize("obj,name,args", [
    ({"mode": "act", "tool": "browser_back", "args": {}}, "browser_back", {}),
    ({"mode": "ask", "question": "Which one?"}, "assistant_ask", {"question": "Which one?"}),
    ({"mode": "done", "reason": "Shown"}, "assistant_done", {"reason": "Shown"}),
])
def test_mode_json_objects(obj: dict[str, Any], name: str, args: dict[str, Any]) -> None:
    call = parse(f"Step.\n```json\n{json.dumps(obj, indent=2)}\n```")
    assert (call.name, call.args, call.source) == (name, args, "mode")


def test_mode_without_required_field() -> None:
    assert error_of("mode: ask").kind is CallErrorKind.INVALID_ARGS
    assert error_of("mode: act\nargs: {}").kind is CallErrorKind.MALFORMED


def test_mode_and_function_call_together_are_two_calls() -> None:
    err = error_of("mode: done\nreason: ok\n\nfunction_call: name=browser_back")
    assert err.kind is CallErrorKind.MULTIPLE_CALLS


def test_works_for_any_registered_tool() -> None:
    class Args(ToolArgs):
        index: int
        action: str = "click"

    async def handler(ctx: Any, args: Args) -> dict[str, Any]:
        return {}

    extra = ToolDef(name="browser_overlay_act", args=Args, description="d", handler="tests.agent.test_calls:handler",
                    traits=ToolTraits(side_effect=SideEffect.BROWSER_ACT))
    tools = {s.name: s for s in model_tools(catalogue_specs([extra]))}
    call = parse_turn(text_turn('function_call: name=browser_overlay_act args={"index": 3}'), tools)
    assert call.args == {"index": 3}
    with pytest.raises(CallError) as info:
        parse_turn(text_turn('function_call: name=browser_overlay_act args={"index": "three"}'), tools)
    assert "index" in info.value.message


# -- properties ------------------------------------------------------------------------------------------------
def _spec_free_tools() -> dict[str, ToolSpec]:
    return TOOLS


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=600))
def test_arbitrary_text_never_crashes(text: str) -> None:
    try:
        call = parse_turn(text_turn(text), _spec_free_tools())
    except CallError as exc:
        assert exc.message
    else:
        assert call.name in TOOLS


_fragments = st.sampled_from([
    "function_call:", "name=", "args=", "{", "}", '"', "'", "mode: act", "mode: ask", "mode: done", "tool: ",
    "question: ", "reason: ", "\n", "```", "browser_back", "browser_navigate", '{"url": "x"}', "{'a': [1, {",
    "\\", "None", "True", ":", ",", " ",
])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(_fragments, st.text(max_size=8)), max_size=40))
def test_call_like_garbage_never_crashes(parts: list[str]) -> None:
    try:
        parse_turn(text_turn("".join(parts)), TOOLS)
    except CallError as exc:
        assert exc.kind in CallErrorKind


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=10,
)
# One line of prose: no control or line-separator characters (str.splitlines breaks on \x1e, \u2028, ...).
_prose = st.text(alphabet=st.characters(blacklist_characters="{}`", blacklist_categories=("Cs", "Cc", "Zl", "Zp")),
                 max_size=60).filter(lambda s: "function_call" not in s.lower() and "mode" not in s.lower())


@settings(max_examples=300, deadline=None)
@given(_prose, st.dictionaries(st.text(max_size=10), _json_values, max_size=4))
def test_function_call_round_trip(progress: str, args: dict[str, Any]) -> None:
    # schema-only: any args pass
    tools = {"t": ToolSpec("t", "", {"type": "object"}, ToolTraits(side_effect=SideEffect.READ_ONLY))}
    text = f"{progress}\nfunction_call: name=t args={json.dumps(args, ensure_ascii=False)}"
    call = parse_turn(text_turn(text), tools)
    assert (call.name, call.args) == ("t", args)
    assert call.progress == progress.strip().strip("`*#>- ").strip()[:200]


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(max_size=10), _json_values, max_size=4), st.booleans())
def test_mode_act_round_trip(args: dict[str, Any], as_json: bool) -> None:
    tools = {"t": ToolSpec("t", "", {"type": "object"}, ToolTraits(side_effect=SideEffect.READ_ONLY))}
    if as_json:
        text = json.dumps({"mode": "act", "tool": "t", "args": args})
    else:
        text = f"mode: act\ntool: t\nargs: {json.dumps(args)}"
    call = parse_turn(text_turn(text), tools)
    assert (call.name, call.args, call.source) == ("t", args, "mode")


@pytest.mark.parametrize("text", [
    "mode: act\nargs: {" * 4000,
    'function_call: name=x args={"a": "' * 3000,
    "\n{'a': [" * 5000,
    "mode: act\ntool: x\nargs: {'a\n" * 4000,
])
def test_hostile_long_replies_do_bounded_work(text: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from browserops.agent import calls

    scans: list[int] = []
    original = calls._balanced

    def counting(t: str, start: int) -> str | None:
        scans.append(start)
        return original(t, start)

    monkeypatch.setattr(calls, "_balanced", counting)
    with pytest.raises(CallError):
        parse_turn(text_turn(text), TOOLS)
    # each scan is over at most MAX_TEXT characters; their number does not grow with the reply
    assert len(scans) <= calls.MAX_FOUND * (calls.MAX_BLOCK_LINES + 1) + 20


def test_mode_lines_accept_quoted_values() -> None:
    call = parse('mode: ask\nquestion: "Which card should I use?"')
    assert call.args == {"question": "Which card should I use?"}
    assert parse("mode: act\ntool: `browser_back`").name == "browser_back"


def test_args_object_on_the_next_line() -> None:
    call = parse('mode: act\ntool: browser_navigate\nargs:\n{"url": "http://x/"}')
    assert call.args == {"url": "http://x/"}
    # the object is the call's args, not a second (mode) call: the complaint is about the args
    err = error_of('function_call: name=browser_navigate args=\n{"url": "http://x/", "mode": "act"}')
    assert err.kind is CallErrorKind.INVALID_ARGS and "mode: Extra inputs" in err.message
