"""The Python↔JavaScript bridge, checked on the source: every typed call names a function its script
defines (with the argument list its kind passes), and page JavaScript runs through one runner only."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from browserops.browser.scripts import LIB_PARTS, SCRIPT_PARTS, source

PACKAGE = Path(__file__).resolve().parents[1] / "browserops"
JS = PACKAGE / "browser" / "js"


def _declared_calls() -> list[tuple[str, str, str, str]]:
    """(python module, call kind, script, function) for every PageCall/ElementCall built in browserops."""
    out = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in ("PageCall", "ElementCall")):
                script, function = node.args[0], node.args[1]
                assert isinstance(script, ast.Constant) and isinstance(function, ast.Constant), (
                    f"{path}: a call names its script and function as literals")
                out.append((path.name, node.func.id, str(script.value), str(function.value)))
    return out


def _functions(script: str) -> dict[str, list[str]]:
    text = source(script)  # the script as it runs: a script kept in parts, all of them
    return {m.group(1): [p.strip() for p in m.group(2).split(",") if p.strip()]
            for m in re.finditer(r"^(?:async )?function (\w+)\(([^)]*)\)", text, re.MULTILINE)}


def test_every_typed_call_names_a_function_of_its_script() -> None:
    calls = _declared_calls()
    assert len(calls) >= 25  # the wrappers in browser/js/*.py, and the few built where they are used
    problems = []
    for module, kind, script, function in calls:
        params = _functions(script).get(function)
        if params is None:
            problems.append(f"{module}: {script}.js has no function {function}")
        elif kind == "ElementCall" and (not params or params[0] != "el" or len(params) > 2):
            problems.append(f"{module}: {script}.js {function}({', '.join(params)}) is no (el, args) function")
        elif kind == "PageCall" and (len(params) > 1 or params[:1] == ["el"]):
            problems.append(f"{module}: {script}.js {function}({', '.join(params)}) is no (args) function")
    assert problems == []


def test_the_missing_function_check_can_fail() -> None:
    assert "describe" in _functions("element") and "no_such_function" not in _functions("element")


def test_element_js_has_no_operation_switch() -> None:
    assert "args.op" not in (JS / "element.js").read_text(encoding="utf-8")
    assert not any("args.op" in p.read_text(encoding="utf-8") for p in JS.glob("*.js"))


def test_page_javascript_runs_only_through_the_runner() -> None:
    """Only browser/scripts.py calls Playwright's evaluate; nothing else hands it JavaScript text."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        if path == PACKAGE / "browser" / "scripts.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("evaluate", "evaluate_handle", "evaluate_all", "add_init_script")):
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert offenders == []


def test_no_page_script_is_over_500_lines_and_every_file_is_loaded() -> None:
    """Split by concern (the shared helpers lib_*.js, the listing's two parts): none is a dumping ground, and every
    file is part of a script or of the helpers."""
    sizes = {p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in JS.glob("*.js")}
    assert {name: n for name, n in sizes.items() if n > 500} == {}
    parts = {f"{part}.js" for parts in SCRIPT_PARTS.values() for part in parts} | {f"{p}.js" for p in LIB_PARTS}
    assert parts <= set(sizes) and "lib.js" not in sizes
