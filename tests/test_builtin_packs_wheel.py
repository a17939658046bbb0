"""browserops' own packs ship inside its wheel and are found through its ``browserops.packs`` entry points, as a
third-party pack is (tests/plan_e2e/test_installed_pack.py): the wheel is built from this checkout with `uv build`,
installed into a folder of its own, and listed by the installed copy."""

from __future__ import annotations

import configparser
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUILTIN = {"demo_expense": "browserops.packs.builtin.demo_expense",
           "demo_statements": "browserops.packs.builtin.demo_statements"}
LIST = ("import json; from browserops.packs import list_packs; "
        "print(json.dumps([{'name': e.name, 'origin': e.origin, 'path': str(e.path), 'source': e.source, "
        "'valid': e.pack is not None, 'problems': e.problems} for e in list_packs(None)]))")


def uv() -> str:
    found = shutil.which("uv") or str(Path.home() / ".local" / "bin" / "uv")
    assert Path(found).is_file(), "uv is needed to build the wheel (https://docs.astral.sh/uv/)"
    return found


def test_the_wheel_carries_the_builtin_packs_and_registers_them(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("VIRTUAL_ENV")}
    subprocess.run([uv(), "build", "--wheel", "--out-dir", str(tmp_path / "dist"), str(ROOT)], check=True,
                   capture_output=True, env=env, timeout=300)
    wheel, = (tmp_path / "dist").glob("browserops-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points_txt, = (n for n in names if n.endswith(".dist-info/entry_points.txt"))
        entry_points = configparser.ConfigParser()
        entry_points.read_string(archive.read(entry_points_txt).decode())
    assert dict(entry_points["browserops.packs"]) == BUILTIN
    for module in BUILTIN.values():
        folder = module.replace(".", "/")
        assert {f"{folder}/__init__.py", f"{folder}/pack.py"} <= names
    assert {"browserops/packs/builtin/demo_expense/example_input.yaml",
            "browserops/packs/builtin/demo_expense/example_receipt.png",
            "browserops/packs/templates/recorded_pack.py.j2",
            "browserops/packs/templates/skeleton_pack.py.j2"} <= names
    assert not [n for n in names if n.startswith("browserops/packs/builtin/") and "/test_" in n]

    site = tmp_path / "site"
    subprocess.run([uv(), "pip", "install", "--no-deps", "--target", str(site), str(wheel)], check=True,
                   capture_output=True, env=env, timeout=120)
    # The installed copy comes first on the path: its own entry points lead to its own folders.
    out = subprocess.run([sys.executable, "-c", LIST], check=True, capture_output=True, text=True, timeout=120,
                         env={**env, "PYTHONPATH": str(site)}, cwd=tmp_path)
    listed = {p["name"]: p for p in json.loads(out.stdout)}
    for name, module in BUILTIN.items():
        entry = listed[name]
        assert entry["valid"] and entry["problems"] == [] and entry["origin"] == "entry-point", entry
        assert entry["path"] == str((site / module.replace(".", "/")).resolve())
        assert entry["source"].startswith(f"entry point {name} = {module} (browserops ")
