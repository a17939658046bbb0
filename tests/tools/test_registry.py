"""The catalogue itself: one definition per tool, the seed's names, side-effect classes, the contract for
bad arguments, and the CLI listing that reads the same registry."""

from __future__ import annotations

import asyncio

import orjson
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from browserops.browser.act.keys import normalise_key
from browserops.browser.launch.session import BrowserSession
from browserops.cli import cli
from browserops.config import Settings
from browserops.contract import SideEffect
from browserops.tools.context import ToolContext
from browserops.tools.registry import all_tools, get_tool
from tests.calls import call_tool
from tests.tools.helpers import check_contract, fails

EXPECTED = {
    "browser_navigate": SideEffect.READ_ONLY,
    "browser_back": SideEffect.READ_ONLY,
    "browser_forward": SideEffect.READ_ONLY,
    "browser_reload": SideEffect.READ_ONLY,
    "browser_wait": SideEffect.READ_ONLY,
    "browser_list_interactives": SideEffect.READ_ONLY,
    "browser_overlay_show": SideEffect.READ_ONLY,
    "browser_overlay_hide": SideEffect.READ_ONLY,
    "browser_find": SideEffect.READ_ONLY,
    "browser_focus_next": SideEffect.READ_ONLY,
    "browser_focus_prev": SideEffect.READ_ONLY,
    "browser_overlay_act": SideEffect.BROWSER_ACT,
    "browser_act_by_index": SideEffect.BROWSER_ACT,
    "browser_press": SideEffect.BROWSER_ACT,
    "browser_scroll": SideEffect.READ_ONLY,
    "browser_extract": SideEffect.READ_ONLY,
    "browser_snapshot": SideEffect.READ_ONLY,
    "browser_screenshot": SideEffect.LOCAL_WRITE,
    "browser_observe": SideEffect.LOCAL_WRITE,
    "browser_inspect": SideEffect.READ_ONLY,
}

SEED_ARGS = {
    "browser_wait": {"selector", "state", "network_idle", "ms"},
    "browser_list_interactives": {"scope", "limit", "offset"},
    "browser_overlay_show": {"scheme"},
    "browser_find": {"role", "text", "limit", "offset"},
    "browser_focus_next": {"role"},
    "browser_overlay_act": {"index", "action", "text", "limit", "offset"},
    "browser_press": {"key", "id"},
    "browser_scroll": {"to", "by_x", "by_y", "element_id", "behavior"},
    "browser_extract": {"mode"},
    "browser_screenshot": {"full_page"},
}


def test_catalogue_has_this_issues_tools_with_their_side_effects() -> None:
    tools = {t.name: t for t in all_tools()}
    for name, effect in EXPECTED.items():
        assert name in tools, name
        assert tools[name].side_effect is effect, name
    assert len(tools) == len(all_tools())  # names are unique


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_tool_is_one_complete_definition(name: str) -> None:
    tool = get_tool(name)
    assert tool is not None
    assert len(tool.description) >= 50 and "\n" not in tool.description
    schema = tool.input_schema()
    assert schema["type"] == "object" and schema.get("additionalProperties") is False
    for prop, spec in schema.get("properties", {}).items():
        assert spec.get("description"), f"{name}.{prop} has no description"
    assert SEED_ARGS.get(name, set()) <= set(schema.get("properties", {}))


@pytest.mark.parametrize("name", sorted(EXPECTED))
async def test_unknown_arguments_are_an_error_naming_the_field(tool_ctx: ToolContext, name: str) -> None:
    result = await fails(tool_ctx, name, "BROWSER_INVALID_ARGS", css_selector="#main", **_required(name))
    assert result["data"]["fields"] == ["css_selector"]
    assert "css_selector" in result["error"]


def _required(name: str) -> dict[str, object]:
    return {"browser_navigate": {"url": "about:blank"}, "browser_overlay_act": {"index": 1},
            "browser_act_by_index": {"id": "b1"}, "browser_press": {"key": "Enter"}}.get(name, {})


async def test_unknown_tool_is_an_error(tool_ctx: ToolContext) -> None:
    result = await fails(tool_ctx, "browser_click_css", "BROWSER_UNKNOWN_TOOL")
    assert "browser_overlay_act" in result["error"]


def test_cli_lists_the_registry() -> None:
    runner = CliRunner()
    text = runner.invoke(cli, ["tools", "list"], catch_exceptions=False)
    assert text.exit_code == 0
    lines = text.stdout.strip().splitlines()
    named = [name for t in all_tools() for name in (t.name, *t.aliases)]  # an alias on the line after its tool
    assert [line.split()[0] for line in lines] == named
    assert "Another name of browser_act_by_index" in next(line for line in lines
                                                           if line.startswith("browser_act_by_id "))
    assert "browser-act" in next(line for line in lines if line.startswith("browser_press "))
    for args in (["tools", "list", "--json"], ["--json", "tools", "list"]):
        out = runner.invoke(cli, args, catch_exceptions=False)
        data = orjson.loads(out.stdout)
        assert [r["name"] for r in data["tools"]] == [t.name for t in all_tools()] and data["count"] == len(all_tools())
        assert {r["name"]: r.get("aliases") for r in data["tools"]}["browser_act_by_index"] == ["browser_act_by_id"]
        assert {r["name"]: r["side_effect"] for r in data["tools"]}["browser_screenshot"] == "local-write"
        assert all(r["summary"].endswith((".", ")")) for r in data["tools"])
    full = orjson.loads(runner.invoke(cli, ["tools", "list", "--json", "--schema"]).stdout)
    act = next(r for r in full["tools"] if r["name"] == "browser_overlay_act")
    assert "index" in act["input_schema"]["properties"] and act["description"].startswith("Act on")
    helped = runner.invoke(cli, ["tools", "list", "--help"])
    assert "Examples:" in helped.stdout


@pytest.mark.parametrize(
    ("given_key", "expected"),
    [("enter", "Enter"), ("ESC", "Escape"), ("ctrl+a", "Control+a"), ("Shift+Tab", "Shift+Tab"), ("k", "k"),
     ("Control++", "Control++"), ("arrowdown", "ArrowDown"), ("cmd+shift+z", "Meta+Shift+z"), (" ", " "),
     ("space", "Space"), ("F5", "F5"), ("Shift", "Shift"), ("Я", "Я"), ("\n", "Enter"), ("\r", "Enter")],
)
def test_key_names(given_key: str, expected: str) -> None:
    assert normalise_key(given_key) == expected


@given(st.text(max_size=20))
def test_key_parser_accepts_or_refuses_cleanly_and_is_idempotent(raw: str) -> None:
    try:
        key = normalise_key(raw)
    except ValueError as exc:
        assert str(exc)
        return
    assert normalise_key(key) == key


_json = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


@settings(max_examples=150, deadline=None)
@given(name=st.sampled_from(sorted(EXPECTED)), data=st.data())
def test_any_arguments_give_the_contract_never_an_exception(name: str, data: st.DataObject, tmp_path_factory:
                                                            pytest.TempPathFactory) -> None:
    tool = get_tool(name)
    assert tool is not None
    props = [*tool.input_schema().get("properties", {}), "bogus"]
    args = data.draw(st.dictionaries(st.sampled_from(props), _json, max_size=4))
    # A session that was never started: past validation every handler meets BROWSER_CRASHED, so this
    # exercises validation and the contract without a browser.
    ctx = ToolContext(session=BrowserSession(), settings=Settings(), workspace=tmp_path_factory.getbasetemp())
    result = asyncio.run(call_tool(name, ctx, args))
    check_contract(result)
    assert result["status"] == "error"
    if result["code"] == "BROWSER_INVALID_ARGS" and "fields" in result.get("data", {}):
        assert all(isinstance(f, str) for f in result["data"]["fields"])
    else:
        assert result["code"] in ("BROWSER_CRASHED", "BROWSER_INVALID_ARGS", "BROWSER_STALE_INDEX"), result


def test_each_tools_handler_is_the_function_its_definition_names() -> None:
    """A reader follows a definition's ``handler`` (module:function) to the code that runs it, and an action word's
    ``call`` to its browser call: no table in between (the function is named as the tool, less ``browser_``)."""
    import inspect
    import typing

    from browserops.tools.definitions.acting import ACTION_WORDS
    from browserops.tools.references import resolve
    from browserops.tools.registry import bound_tools

    for tool in bound_tools():
        module, _, function = tool.definition.handler.partition(":")
        assert module.startswith("browserops.tools.") and function == tool.name.removeprefix("browser_"), tool.name
        assert tool.handler is resolve(tool.definition.handler) and inspect.iscoroutinefunction(tool.handler)
        hints = typing.get_type_hints(tool.handler)
        assert hints["args"] is tool.definition.args, tool.name
    for word in ACTION_WORDS.values():
        assert callable(resolve(word.call)) and (word.options_call is None or callable(resolve(word.options_call)))
