"""Layer rules for plan/, packs, lane and evidence (checked on the source, like tests/test_layers.py)."""

from __future__ import annotations

import ast
from pathlib import Path

from browserops.plan.steps import ACTIONS
from browserops.tools.registry import get_tool

PACKAGE = Path(__file__).resolve().parents[1] / "browserops"


def _browserops_imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names if a.name.startswith("browserops"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("browserops"):
            names.add(node.module)
    return names


def _offenders(paths: list[Path], forbidden: tuple[str, ...]) -> list[str]:
    return [f"{p.relative_to(PACKAGE)} imports {name}" for p in paths for name in _browserops_imports(p)
            if any(name == f or name.startswith(f + ".") for f in forbidden)]


def test_guards_and_records_do_not_import_deciders_or_front_doors() -> None:
    paths = [*(PACKAGE / "evidence").glob("*.py"), *(PACKAGE / "lane").glob("*.py"), PACKAGE / "privacy.py"]
    forbidden = ("browserops.plan", "browserops.packs", "browserops.agent", "browserops.cli", "browserops.server",
                 "browserops.mcp_server", "browserops.browser")
    assert _offenders(paths, forbidden) == []


def test_plan_data_modules_and_packs_never_touch_the_browser() -> None:
    # model/step_parts.py names keys as the browser's act layer does, through a module test_layers.py loads
    # without Playwright; everything else of the model imports nothing of the browser at all.
    paths = [p for p in (PACKAGE / "plan" / "model").glob("*.py") if p.name != "step_parts.py"]
    paths += [PACKAGE / "plan" / "steps.py", *(PACKAGE / "packs").rglob("*.py")]
    forbidden = ("browserops.browser", "browserops.tools.registry", "browserops.agent", "browserops.cli",
                 "browserops.server", "browserops.mcp_server", "browserops.lane")
    assert _offenders(paths, forbidden) == []


def test_plan_engine_reaches_the_browser_only_through_the_tool_catalogue() -> None:
    # Every phase (prepare, run, record) and the interpreter they share: the guard is the one door.
    paths = [p for part in ("interpret", "prepare", "run", "record") for p in (PACKAGE / "plan" / part).glob("*.py")]
    assert len(paths) > 10
    forbidden = ("browserops.browser", "browserops.agent", "browserops.cli", "browserops.server",
                 "browserops.mcp_server")
    assert _offenders(paths, forbidden) == []
    for path in paths:
        assert "playwright" not in path.read_text(encoding="utf-8"), path
    # Only the guard calls tools; everything else goes through it.
    callers = [p.name for p in paths if "call_tool" in p.read_text(encoding="utf-8") and p.name != "guard.py"]
    assert callers == []


def test_each_plan_verb_names_tools_of_its_side_effect_class() -> None:
    # plan/model/steps.py derives the tools of each verb from the definitions' plan_verb; their side-effect class must
    # be the verb's least class.
    for action, spec in ACTIONS.items():
        for name in spec.tools:
            tool = get_tool(name)
            assert tool is not None, (action, name)
            assert tool.side_effect is spec.least, (action, name, tool.side_effect)
