"""``browserops pack list|show|validate|new`` through CliRunner (and the scaffold's own test, run for real)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import orjson
import yaml
from click.testing import CliRunner

from browserops.cli import cli
from browserops.packs import BUILTIN_DIR

ROOT = Path(__file__).resolve().parents[1]


def run(ws: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--workspace", str(ws), *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_list(workspace: Path) -> None:
    code, out, _ = run(workspace, "pack", "list")
    assert code == 0 and "demo_expense" in out and "demo_statements" in out and "entry-point" in out
    code, out, _ = run(workspace, "pack", "list", "--json")
    packs = {p["name"]: p for p in orjson.loads(out)["packs"]}
    assert packs["demo_expense"]["valid"] and packs["demo_expense"]["problems"] == []


def test_show(workspace: Path) -> None:
    code, out, _ = run(workspace, "pack", "show", "demo_expense")
    assert code == 0
    for fragment in ("Input fields:", "merchant", "required", "Example input (YAML):", "Steps for the example:",
                     '11. submit   button "Submit expense"  [browser-act]'):
        assert fragment in out, fragment
    code, out, _ = run(workspace, "pack", "show", "demo_statements", "--json")
    data = orjson.loads(out)
    assert code == 0 and data["inputSchema"]["properties"]["months"]["type"] == "array"
    assert [s["kind"] for s in data["steps"]] == ["navigate", "read", "export", "export"]
    code, _, err = run(workspace, "pack", "show", "no_such_pack")
    assert code == 1 and "BROWSER_PACK_NOT_FOUND" in err


def test_validate_with_input(workspace: Path) -> None:
    code, out, _ = run(workspace, "pack", "validate", str(BUILTIN_DIR / "demo_expense"))
    assert code == 0 and out.startswith("OK: demo_expense follows the pack interface; its example builds 11 steps")
    good = workspace / "in.yaml"
    good.write_text(yaml.safe_dump({"merchant": "Café Lumière", "amount": "18.00", "currency": "EUR"}))
    code, out, _ = run(workspace, "pack", "validate", "demo_expense", "--input", str(good))
    assert code == 0 and "is valid input; it builds 6 steps" in out and '"Café Lumière"' in out
    code, out, _ = run(workspace, "pack", "validate", "demo_expense", "--input", str(good), "--json")
    data = orjson.loads(out)
    assert data["input"]["steps"] == 6 and data["input"]["confirmSteps"] == [2, 3, 4, 5, 6]
    bad = workspace / "bad.yaml"
    bad.write_text("merchant: ''\namount: '-1'\n")
    code, out, _ = run(workspace, "--json", "pack", "validate", "demo_expense", "--input", str(bad))
    error = orjson.loads(out)
    assert code == 1 and error["code"] == "BROWSER_INPUT_INVALID"
    assert "merchant" in error["error"] and "amount" in error["error"]


def test_validate_refuses_a_browser_driving_pack(workspace: Path) -> None:
    folder = workspace / "domain_packs" / "sneaky"
    folder.mkdir(parents=True)
    (folder / "pack.py").write_text("from browserops.tools.registry import call_tool\n")
    code, _, err = run(workspace, "pack", "validate", str(folder))
    assert code == 1 and "BROWSER_PACK_INVALID" in err and "imports browserops.tools.registry" in err
    code, out, _ = run(workspace, "pack", "list")
    assert "sneaky" in out and "INVALID" in out


def test_new_scaffolds_a_pack_whose_test_passes(workspace: Path) -> None:
    code, out, _ = run(workspace, "pack", "new", "my_form")
    folder = workspace / "domain_packs" / "my_form"
    assert code == 0 and f"Created pack my_form in {folder.resolve()}" in out
    # (Python's own bytecode cache aside: `pack new` imports the pack to check it.)
    assert sorted(p.name for p in folder.iterdir() if p.name != "__pycache__") == [
        "__init__.py", "example_input.yaml", "pack.py", "test_pack.py"]
    code, out, _ = run(workspace, "pack", "validate", "my_form")
    assert code == 0 and "my_form follows the pack interface" in out
    code, out, _ = run(workspace, "pack", "list", "--json")
    assert any(p["name"] == "my_form" and p["origin"] == "workspace" for p in orjson.loads(out)["packs"])
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(folder)],
                           cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert tests.returncode == 0 and "3 passed" in tests.stdout, tests.stdout + tests.stderr
    code, _, err = run(workspace, "pack", "new", "my_form")
    assert code == 1 and "already exists" in err
    code, _, err = run(workspace, "pack", "new", "My-Form")
    assert code == 1 and "BROWSER_INVALID_ARGS" in err
