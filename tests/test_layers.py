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
