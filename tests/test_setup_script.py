"""scripts/setup.sh on a fresh Debian with only Python: it installs Node.js and npm with apt-get as it installs
Chromium (issue 36.6). The script's ``ensure_node`` runs in a real bash with a PATH holding only stand-ins for the
system's ``id`` and ``apt-get`` (each records how it was called), so nothing is installed on the test machine."""

from __future__ import annotations

import subprocess
from pathlib import Path

SETUP = Path(__file__).resolve().parents[1] / "scripts" / "setup.sh"


def _stub(bin_dir: Path, name: str, body: str) -> None:
    path = bin_dir / name
    path.write_text(f"#!/bin/bash\n{body}\n", encoding="utf-8")
    path.chmod(0o755)


def _ensure_node(tmp_path: Path, *, uid: int, have: tuple[str, ...] = (), apt: bool = True) -> tuple[int, str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    calls = tmp_path / "apt-calls"
    _stub(bin_dir, "id", f'[ "$1" = "-u" ] && echo {uid}')
    if apt:
        _stub(bin_dir, "apt-get", f'echo "$*" >> {calls}')
    for tool in have:
        _stub(bin_dir, tool, "exit 0")
    done = subprocess.run(["/bin/bash", "-c", f'source "{SETUP}" && ensure_node'], env={"PATH": str(bin_dir)},
                          capture_output=True, text=True, timeout=30, check=False)
    return done.returncode, calls.read_text(encoding="utf-8") if calls.exists() else "", done.stderr


def test_root_with_apt_installs_nodejs_and_npm(tmp_path: Path) -> None:
    code, calls, err = _ensure_node(tmp_path, uid=0)
    assert code == 0, err
    assert calls.splitlines()[0] == "update -qq"
    assert calls.splitlines()[-1].split() == ["install", "-y", "-qq", "nodejs", "npm"]
    assert "installing Debian's nodejs and npm" in err


def test_without_root_it_says_what_to_run_and_installs_nothing(tmp_path: Path) -> None:
    code, calls, err = _ensure_node(tmp_path, uid=1000)
    assert code == 1 and calls == ""
    assert "apt-get install -y nodejs npm" in err


def test_node_already_there_is_left_alone(tmp_path: Path) -> None:
    code, calls, _ = _ensure_node(tmp_path, uid=0, have=("node", "npm"))
    assert code == 0 and calls == ""


def test_npm_without_node_still_installs(tmp_path: Path) -> None:
    code, calls, _ = _ensure_node(tmp_path, uid=0, have=("npm",))
    assert code == 0 and "nodejs npm" in calls
