"""A pack shipped as a Python package: built into a wheel with `uv build`, installed with `uv pip install --target`,
found through the `browserops.packs` entry point, listed with its distribution, prepared and run for real."""

from __future__ import annotations

import os
import shutil
import subprocess
import textwrap
from pathlib import Path

import orjson
import pytest

from browserops.demo_site import DemoSite
from tests.plan_e2e.helpers import cli_json, cli_run, server_state

PACK_PY = '''
"""File a quick expense on the demo site (a pack installed from a wheel)."""

from decimal import Decimal

from pydantic import BaseModel, Field

from browserops.packs import PackContext
from browserops.plan.steps import Expectation, SemanticTarget, Step

NAME = "acme_quick"
DESCRIPTION = "File a quick expense (merchant and amount) on the demo site."
START_URL = "/expense"
EXPORTS: list[str] = []


class Input(BaseModel):
    merchant: str = Field(min_length=1, max_length=100)
    amount: Decimal = Field(gt=0, decimal_places=2)


EXAMPLE = {"merchant": "Acme Cabs", "amount": "12.50"}


def validate(inp: Input, ctx: PackContext) -> list[str]:
    return []


def build_steps(inp: Input, ctx: PackContext) -> list[Step]:
    return [
        Step(kind="navigate", url=START_URL),
        Step(kind="fill", action="type", field="merchant", target=SemanticTarget(role="textbox", names=["Merchant"]),
             value=inp.merchant),
        Step(kind="fill", action="type", field="amount", target=SemanticTarget(role="spinbutton", names=["Amount"]),
             value=f"{inp.amount:.2f}"),
        Step(kind="submit", target=SemanticTarget(role="button", names=["Submit expense"]),
             expect=Expectation(text=["Expense submitted"])),
    ]
'''

PYPROJECT = '''
[project]
name = "acme-quick-pack"
version = "1.2.0"
description = "A browserops domain pack"
requires-python = ">=3.11"

[project.entry-points."browserops.packs"]
acme_quick = "acme_quick"

[build-system]
requires = ["hatchling"]
build-backend = "hatchling.build"

[tool.hatch.build.targets.wheel]
packages = ["acme_quick"]
'''


def uv() -> str:
    found = shutil.which("uv") or str(Path.home() / ".local" / "bin" / "uv")
    assert Path(found).is_file(), "uv is needed to build the pack's wheel (https://docs.astral.sh/uv/)"
    return found


@pytest.fixture
def installed_pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The wheel built and installed into a target folder that is put on sys.path (dist-info included)."""
    project = tmp_path / "acme-quick-pack"
    (project / "acme_quick").mkdir(parents=True)
    (project / "pyproject.toml").write_text(textwrap.dedent(PYPROJECT))
    (project / "acme_quick" / "__init__.py").write_text("")
    (project / "acme_quick" / "pack.py").write_text(textwrap.dedent(PACK_PY))
    env = {k: v for k, v in os.environ.items() if not k.startswith("VIRTUAL_ENV")}
    subprocess.run([uv(), "build", "--wheel", "--out-dir", str(tmp_path / "dist"), str(project)], check=True,
                   capture_output=True, env=env, timeout=120)
    wheel, = (tmp_path / "dist").glob("acme_quick_pack-1.2.0-*.whl")
    site = tmp_path / "site"
    subprocess.run([uv(), "pip", "install", "--no-deps", "--target", str(site), str(wheel)], check=True,
                   capture_output=True, env=env, timeout=120)
    assert (site / "acme_quick_pack-1.2.0.dist-info" / "entry_points.txt").is_file()
    monkeypatch.syspath_prepend(str(site))
    return site


def test_an_installed_pack_is_listed_with_its_distribution_and_runs(
        installed_pack: Path, demo_site: DemoSite, workspace: Path) -> None:
    demo_site.reset()
    code, out, _ = cli_json(workspace, "pack", "list")
    packs = {p["name"]: p for p in out["packs"]}
    quick = packs["acme_quick"]
    assert quick["valid"] and quick["origin"] == "entry-point" and quick["problems"] == []
    assert quick["distribution"] == {"name": "acme-quick-pack", "version": "1.2.0"}
    assert quick["entryPoint"] == "acme_quick = acme_quick"
    assert quick["path"] == str((installed_pack / "acme_quick").resolve())
    assert packs["demo_expense"]["source"].startswith(
        "entry point demo_expense = browserops.packs.builtin.demo_expense (browserops ")
    text = cli_run(workspace, "pack", "list").stdout
    assert "from entry point acme_quick = acme_quick (acme-quick-pack 1.2.0)" in text

    inp = workspace / "quick.yaml"
    inp.write_text("merchant: Acme Cabs\namount: '12.50'\n")
    code, prepared, err = cli_json(workspace, "prepare", "--pack", "acme_quick", "--input", str(inp),
                                   "--base-url", demo_site.base_url)
    assert code == 2, (prepared, err)
    plan = orjson.loads(Path(prepared["planFile"]).read_bytes())
    assert plan["source"]["kind"] == "pack" and plan["source"]["name"] == "acme_quick"
    code, run, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert code == 0, (run, err)
    submission, = server_state(demo_site.base_url)["submissions"]
    assert submission["merchant"] == "Acme Cabs" and submission["amount"] == "12.50"


def test_an_installed_pack_is_checked_before_its_code_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           workspace: Path) -> None:
    """Same static import check as a folder pack: an installed pack that imports subprocess never runs."""
    site = tmp_path / "site"
    (site / "bad_pack").mkdir(parents=True)
    marker = tmp_path / "ran"
    (site / "bad_pack" / "pack.py").write_text(f"import subprocess\nopen({str(marker)!r}, 'w')\nNAME = 'bad_pack'\n")
    info = site / "bad_pack-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: bad-pack\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[browserops.packs]\nbad_pack = bad_pack\n")
    (info / "RECORD").write_text("bad_pack/pack.py,,\nbad_pack-0.1.dist-info/METADATA,,\n")
    monkeypatch.syspath_prepend(str(site))
    code, out, _ = cli_json(workspace, "pack", "list")
    bad = next(p for p in out["packs"] if p["name"] == "bad_pack")
    assert not bad["valid"] and any("imports subprocess" in p for p in bad["problems"])
    assert not marker.exists()
    code, err_json, _ = cli_json(workspace, "pack", "show", "bad_pack")
    assert code == 1 and err_json["code"] == "BROWSER_PACK_INVALID"
