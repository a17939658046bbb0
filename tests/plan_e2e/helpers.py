"""Driving prepare/run the way a person does: the real CLI (CliRunner in-process, or `python -m browserops`
subprocesses), against the demo site served by the test process."""

from __future__ import annotations

import json
import sys
import urllib.request
from pathlib import Path
from typing import Any

import orjson
import yaml
from click.testing import CliRunner, Result

from browserops.cli import cli
from browserops.evidence import bundle_dir
from browserops.packs import BUILTIN_DIR
from tests.procs import child_env

ROOT = Path(__file__).resolve().parents[2]
EXPENSE_INPUT = BUILTIN_DIR / "demo_expense" / "example_input.yaml"


def cli_run(workspace: Path, *args: str) -> Result:
    return CliRunner().invoke(cli, ["--workspace", str(workspace), *args], catch_exceptions=False)


def cli_json(workspace: Path, *args: str) -> tuple[int, dict[str, Any], str]:
    result = cli_run(workspace, "--json", *args)
    return result.exit_code, orjson.loads(result.stdout), result.stderr


def prepare_expense(workspace: Path, base_url: str) -> dict[str, Any]:
    """Prepare the demo_expense pack's example; the prepare JSON (requestId, confirmPhrase, bundle…)."""
    code, data, err = cli_json(workspace, "prepare", "--pack", "demo_expense", "--input", str(EXPENSE_INPUT),
                               "--base-url", base_url)
    assert code == 2, (data, err)
    return data


def write_steps(folder: Path, name: str, doc: dict[str, Any]) -> Path:
    path = folder / name
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return path


def post(base_url: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(base_url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        data: dict[str, Any] = json.loads(response.read())
    return data


def server_state(base_url: str) -> dict[str, Any]:
    with urllib.request.urlopen(base_url + "/__state", timeout=10) as response:
        data: dict[str, Any] = json.loads(response.read())
    return data


def request_log(base_url: str) -> list[dict[str, str]]:
    """Every request the demo site received (method, path), oldest first (``GET /__requests``)."""
    with urllib.request.urlopen(base_url + "/__requests", timeout=10) as response:
        data: list[dict[str, str]] = json.loads(response.read())["requests"]
    return data


def bundle_of(workspace: Path, request_id: str) -> Path:
    return bundle_dir(workspace.resolve(), request_id)


def bundle_info(workspace: Path, request_id: str) -> dict[str, Any]:
    data: dict[str, Any] = orjson.loads((bundle_of(workspace, request_id) / "bundle.json").read_bytes())
    return data


def events(workspace: Path, request_id: str) -> list[dict[str, Any]]:
    raw = (bundle_of(workspace, request_id) / "events.jsonl").read_text(encoding="utf-8")
    return [orjson.loads(line) for line in raw.splitlines() if line]


def browserops_cmd(workspace: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "browserops", "--workspace", str(workspace), *args]


def subprocess_env() -> dict[str, str]:
    env = child_env()
    env["PYTHONPATH"] = str(ROOT)
    return env
