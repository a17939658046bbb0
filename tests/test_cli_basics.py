"""The CLI's global behaviour through click's CliRunner."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import click
import orjson
import pytest
from click.testing import CliRunner

import browserops.cli as cli_package
from browserops import __version__
from browserops.cli import cli


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env=env, catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0 and __version__ in out


def test_help_lists_every_command_with_examples() -> None:
    names = cli.list_commands(click.Context(cli))
    assert {"prepare", "run", "mcp", "chat", "evidence"} <= set(names)
    code, out, _ = run("--help")
    assert code == 0
    for name in names:
        assert name in out
    assert "Examples:" in out
    for name in names:
        command = cli.get_command(click.Context(cli), name)
        assert command is not None and command.name == name
        code, sub, _ = run(name, "--help")
        assert code == 0, name
        assert "Examples:" in sub or getattr(command, "commands", None), f"{name} --help has no examples"


def test_each_command_module_is_the_one_named_for_its_commands() -> None:
    """The CLI imports a command's module only when that command runs (browserops/cli/__init__.py): each module's
    commands must be listed under that module, and nothing else but the command modules may add commands."""
    modules = sorted(p.stem for p in Path(cli_package.__file__).parent.glob("*_cmd.py"))
    named = {}
    for module in modules:
        for command in importlib.import_module(f"browserops.cli.{module}").COMMANDS:
            named[command.name] = module
    assert named == cli_package._COMMAND_MODULES


def test_a_command_imports_only_what_it_needs() -> None:
    """`browserops config show` in a fresh process loads neither the chat, nor the agent, nor the plan phases."""
    probe = ("import sys; from click.testing import CliRunner; from browserops.cli import cli; "
             "CliRunner().invoke(cli, ['config', 'show'], catch_exceptions=False); "
             "print(' '.join(m for m in sys.modules if m.startswith('browserops.')))")
    loaded = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split()
    assert "browserops.cli.config_cmd" in loaded
    assert not [m for m in loaded if m.startswith(("browserops.chat", "browserops.agent", "browserops.plan",
                                                  "browserops.cli.plan_cmd", "browserops.mcp_server"))]


def test_config_show_json_reports_sources(tmp_path: Path) -> None:
    (tmp_path / "browserops.toml").write_text("max_steps = 33\n")
    code, out, _ = run("--workspace", str(tmp_path), "--json", "--set", "list_limit=7", "config", "show",
                       env={"BROWSEROPS_MODEL": "m-env"})
    assert code == 0
    data = orjson.loads(out)["settings"]
    assert data["max_steps"] == {**data["max_steps"], "value": 33, "source": "file"}
    assert data["model"]["value"] == "m-env" and data["model"]["source"] == "env"
    assert data["list_limit"]["value"] == 7 and data["list_limit"]["source"] == "flag"


def test_config_show_text(tmp_path: Path) -> None:
    code, out, _ = run("--workspace", str(tmp_path), "config", "show")
    assert code == 0 and "max_steps" in out and "[default]" in out


def test_bad_setting_is_a_coded_error(tmp_path: Path) -> None:
    code, out, err = run("--workspace", str(tmp_path), "--set", "max_steps=-4", "config", "show")
    assert code == 1
    assert "BROWSER_CONFIG_INVALID" in err and "max_steps" in err
    code, out, _ = run("--workspace", str(tmp_path), "--json", "--set", "nope", "config", "show")
    assert code == 1 and orjson.loads(out)["code"] == "BROWSER_CONFIG_INVALID"


def test_doctor_without_chromium_gives_install_instructions(tmp_path: Path) -> None:
    code, _, err = run("--workspace", str(tmp_path), "doctor", "--url", "about:blank",
                       env={"BROWSEROPS_CHROMIUM": str(tmp_path / "no-chrome")})
    assert code == 1
    assert "BROWSER_NOT_INSTALLED" in err and "playwright install chromium" in err


def test_doctor_drives_the_demo_site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The full Chromium in its new headless mode, as a user's machine finds it (the rest of the suite launches the
    # headless shell: tests/conftest.py).
    monkeypatch.delenv("BROWSEROPS_CHROMIUM", raising=False)
    code, out, _ = run("--workspace", str(tmp_path), "--json", "doctor")
    assert code == 0
    report = orjson.loads(out)
    assert report["status"] == "ok" and report["chromium"] and report["title"]
    assert "headless-shell" not in report["chromium"]


def test_demo_site_command_serves_until_interrupted() -> None:
    import signal
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "browserops", "demo-site", "--port", str(port),
                             "--alt-port", "0"], stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        line = proc.stderr.readline()
        assert f"http://127.0.0.1:{port}" in line
        deadline = time.monotonic() + 10
        while True:
            try:
                body = urllib.request.urlopen(f"http://127.0.0.1:{port}/expense", timeout=2).read().decode()
                break
            except OSError:
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert "Submit expense" in body
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=10) in (0, 130, -signal.SIGINT)
