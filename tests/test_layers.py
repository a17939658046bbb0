"""The architecture's rules, checked on the source: who may import what, and who may print."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "browserops"


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


def _modules() -> list[Path]:
    return list(PACKAGE.rglob("*.py"))


def test_only_browser_imports_playwright() -> None:
    offenders = [p for p in _modules() if "playwright" in _imports(p) and "browser" not in p.relative_to(PACKAGE).parts]
    assert offenders == []


def test_only_agent_imports_the_llm_sdk() -> None:
    offenders = [p for p in _modules() if "anthropic" in _imports(p) and "agent" not in p.relative_to(PACKAGE).parts]
    assert offenders == []


def test_nothing_below_the_cli_prints() -> None:
    offenders = []
    for path in _modules():
        if "cli" in path.relative_to(PACKAGE).parts:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
                offenders.append(f"{path}:{node.lineno}")
    assert offenders == []


# The layers that name side-effect classes, results and traits without driving a browser.
BROWSERLESS = ("browserops.contract", "browserops.policy", "browserops.evidence", "browserops.plan.model",
               "browserops.plan.steps", "browserops.packs", "browserops.lane", "browserops.config",
               "browserops.privacy", "browserops.tools.definitions", "browserops.agent.mcp_host",
               "browserops.agent.toolspec", "browserops.agent.calls")


@pytest.mark.parametrize("module", BROWSERLESS)
def test_a_browserless_layer_does_not_load_playwright(module: str) -> None:
    code = f"import sys, {module}; print(sorted(m for m in sys.modules if m.split('.')[0] == 'playwright'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]", out.stdout


def _product_modules() -> list[Path]:
    # The demo site is a stand-in web application the tests drive, not browserops itself.
    return [p for p in sorted(PACKAGE.rglob("*.py")) if "demo_site" not in p.relative_to(PACKAGE).parts]


def test_modules_and_functions_stay_small() -> None:
    """A module over 400 lines or a function over 80 is a sign to split (docs/design.md, issue 17)."""
    too_long: list[str] = []
    for path in _product_modules():
        source = path.read_text(encoding="utf-8")
        lines = len(source.splitlines())
        if lines > 400:
            too_long.append(f"{path.relative_to(PACKAGE)}: {lines} lines")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > 80:
                    too_long.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name}: {length} lines")
    assert not too_long, "split these:\n" + "\n".join(too_long)


def test_every_package_says_what_lives_there() -> None:
    """Each package's __init__ docstring says what belongs there in a sentence or more, not one word."""
    terse = [str(p.relative_to(PACKAGE)) for p in _product_modules() if p.name == "__init__.py"
             and len((ast.get_docstring(ast.parse(p.read_text(encoding="utf-8"))) or "").split()) < 8]
    assert not terse, f"say in two or three sentences what lives in: {terse}"
