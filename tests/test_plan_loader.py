"""Plan and step file loaders against arbitrary and mutated input: valid, or BROWSER_PLAN_INVALID — never a crash."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.plan import (
    BrowserPlan,
    StepFile,
    confirm_phrase,
    load_plan,
    load_steps,
    parse_plan,
    parse_steps,
)
from browserops.plan.model.phrase import canonical_json
from tests.plan_samples import STEP_FILE_YAML, expense_plan

PLAN = expense_plan()
PLAN_DATA: dict[str, Any] = orjson.loads(PLAN.to_json())
STEPS_DATA: dict[str, Any] = yaml.safe_load(STEP_FILE_YAML)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=12), children, max_size=4),
    max_leaves=20,
)


def expect_valid_or_invalid(parse: Any, *args: Any) -> Any:
    """Run a parser; the only acceptable failure is PLAN_INVALID with a message that names the source."""
    try:
        return parse(*args)
    except BrowserOpsError as exc:
        assert exc.code is ErrorCode.PLAN_INVALID, exc
        assert exc.message.startswith("src: ") and len(exc.message) > len("src: ") + 5
        return None


@given(st.binary(max_size=400))
@settings(max_examples=300, deadline=None)
def test_arbitrary_bytes(raw: bytes) -> None:
    expect_valid_or_invalid(parse_plan, raw, "src")
    expect_valid_or_invalid(parse_steps, raw, "yaml", "src")
    expect_valid_or_invalid(parse_steps, raw, "json", "src")


@given(st.text(max_size=400))
@settings(max_examples=300, deadline=None)
def test_arbitrary_text(text: str) -> None:
    expect_valid_or_invalid(parse_steps, text, "yaml", "src")
    expect_valid_or_invalid(parse_plan, text, "src")


@given(json_values)
@settings(max_examples=300, deadline=None)
def test_arbitrary_json_documents(value: Any) -> None:
    raw = json.dumps(value)  # stdlib: it writes integers beyond 64 bits, orjson refuses
    expect_valid_or_invalid(parse_plan, raw, "src")
    expect_valid_or_invalid(parse_steps, raw, "json", "src")


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out += _paths(value, (*prefix, i))
    return out


def _mutate(original: Any, source: st.DataObject) -> Any:
    draw = source.draw
    data = copy.deepcopy(original)
    path = draw(st.sampled_from(_paths(data)[1:]))
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    key = path[-1]
    how = draw(st.sampled_from(["delete", "replace", "retype", "duplicate", "unknown-key", "string"]))
    if how == "delete":
        del parent[key]
    elif how == "replace":
        parent[key] = draw(json_values)
    elif how == "retype":
        value = parent[key]
        parent[key] = [value] if not isinstance(value, list) else (value[0] if value else None)
    elif how == "duplicate" and isinstance(parent, list):
        parent.insert(key, copy.deepcopy(parent[key]))
    elif how == "unknown-key" and isinstance(parent[key], dict):
        parent[key][draw(st.text(min_size=1, max_size=10))] = draw(json_values)
    elif how == "string" and isinstance(parent[key], str):
        parent[key] = draw(st.text(max_size=20))
    else:
        parent[key] = None
    return data


@given(st.data())
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_mutated_plans_are_valid_or_rejected_and_never_keep_the_phrase(data: st.DataObject) -> None:
    mutated = _mutate(PLAN_DATA, data)
    plan = expect_valid_or_invalid(parse_plan, json.dumps(mutated), "src")
    if plan is not None:
        assert isinstance(plan, BrowserPlan)
        if canonical_json(plan) != canonical_json(PLAN):
            assert confirm_phrase(plan) != confirm_phrase(PLAN)


@given(st.data())
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_mutated_step_files_are_valid_or_rejected(data: st.DataObject) -> None:
    mutated = _mutate(STEPS_DATA, data)
    result = expect_valid_or_invalid(parse_steps, yaml.safe_dump(mutated, allow_unicode=True), "yaml", "src")
    assert result is None or isinstance(result, StepFile)


@given(st.data())
@settings(max_examples=300, deadline=None)
def test_text_edits_of_a_step_file(data: st.DataObject) -> None:
    text = STEP_FILE_YAML
    pos = data.draw(st.integers(0, len(text) - 1))
    edit = data.draw(st.sampled_from(["delete", "insert", "swap"]))
    if edit == "delete":
        text = text[:pos] + text[pos + 1:]
    elif edit == "insert":
        piece = data.draw(st.sampled_from([":", "-", " ", "\n", "{", "[", "'", "&a ", "*a", "!!"]))
        text = text[:pos] + piece + text[pos:]
    else:
        text = text[:pos] + text[pos:][::-1]
    expect_valid_or_invalid(parse_steps, text, "yaml", "src")


# --------------------------------------------------------------------------- specific cases


def test_snake_case_keys_are_accepted_too() -> None:
    snake = STEP_FILE_YAML.replace("startUrl", "start_url").replace("urlContains", "url_contains")
    assert snake != STEP_FILE_YAML and parse_steps(snake) == parse_steps(STEP_FILE_YAML)


def test_step_file_parses_and_derives() -> None:
    steps = parse_steps(STEP_FILE_YAML)
    assert steps.title == "File a taxi expense" and steps.start_url == "/expense"
    assert [s.kind for s in steps.steps] == ["navigate", "fill", "fill", "submit"]
    assert steps.steps[2].action == "select" and steps.steps[3].action == "click"
    assert steps.steps[3].expect is not None and steps.steps[3].expect.url_contains == "/expense/confirmation/"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("steps: []\ntitle: x\n", "steps: List should have at least 1 item"),
        ("title: x\nsteps:\n  - kind: fill\n    target: {role: textbox, names: [A]}\n",
         "step 1: fill step with action type needs a 'value'"),
        ("title: x\nsteps:\n  - kind: navigate\n    url: /\n  - kind: submit\n    target: {role: 'a b', names: [x]}\n",
         "step 2 › target.role"),
        ("- just\n- a list\n", "must be a mapping"),
        ("a: &x [1]\nb: *x\n", "aliases"),
        ("title: [unclosed\n", "not valid YAML"),
        ("title: x\nsteps:\n  - kind: fill\n    target: {role: textbox, names: [A]}\n    value: 10.50\n",
         "quoted text"),
    ],
)
def test_step_file_errors_name_the_problem(text: str, fragment: str) -> None:
    with pytest.raises(BrowserOpsError) as info:
        parse_steps(text, "yaml", "my.yaml")
    assert info.value.code is ErrorCode.PLAN_INVALID
    assert info.value.message.startswith("my.yaml: ")
    assert fragment in info.value.message


def test_billion_laughs_is_refused_quickly() -> None:
    lines = ["a0: &a0 [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]" for i in range(1, 10)]
    with pytest.raises(BrowserOpsError) as info:
        parse_steps("\n".join(lines))
    assert "aliases" in info.value.message


def test_files_on_disk(tmp_path: Path) -> None:
    (tmp_path / "plan.json").write_bytes(PLAN.to_json())
    assert load_plan(tmp_path / "plan.json") == PLAN
    (tmp_path / "s.yml").write_text(STEP_FILE_YAML, encoding="utf-8")
    (tmp_path / "s.json").write_bytes(orjson.dumps(STEPS_DATA))
    assert load_steps(tmp_path / "s.yml") == load_steps(tmp_path / "s.json")
    with pytest.raises(BrowserOpsError) as info:
        load_plan(tmp_path / "missing.json")
    assert info.value.code is ErrorCode.PLAN_NOT_FOUND
    with pytest.raises(BrowserOpsError) as info:
        load_plan(tmp_path)
    assert info.value.code is ErrorCode.PLAN_INVALID
    (tmp_path / "big.json").write_bytes(b" " * (3 * 1024 * 1024))
    with pytest.raises(BrowserOpsError) as info:
        load_plan(tmp_path / "big.json")
    assert "larger than" in info.value.message


def test_the_step_file_example_in_cli_contract_is_valid() -> None:
    text = (Path(__file__).resolve().parents[1] / "cli_contract.md").read_text(encoding="utf-8")
    block = text.split("**Step file**", 1)[1].split("```yaml\n", 1)[1].split("```", 1)[0]
    steps = parse_steps(block, "yaml", "cli_contract.md")
    assert [s.kind for s in steps.steps] == ["navigate", "fill", "fill", "fill", "fill", "submit", "export", "submit",
                                             "press"]
    assert steps.steps[3].value == ["conference", "q4"]
    delete, escape = steps.steps[7:]
    assert delete.target is not None and delete.target.within is not None and delete.dialog is not None
    assert delete.dialog.answer == "accept" and escape.key == "Escape" and not escape.activates
    assert steps.steps[4].sensitive and steps.steps[4].value is None
