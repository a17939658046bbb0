"""``browserops mcp`` option handling through click's CliRunner (the serving itself is tested over stdio/HTTP)."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from browserops.cli import cli


def test_help_has_the_client_config_and_examples() -> None:
    result = CliRunner().invoke(cli, ["mcp", "--help"])
    assert result.exit_code == 0
    assert '"mcpServers"' in result.stdout and "browserops mcp --http --port 8931" in result.stdout


def test_one_browser_mode_only(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["--workspace", str(tmp_path), "--json", "mcp", "--profile", str(tmp_path / "p"),
                                      "--cdp-url", "http://127.0.0.1:9222"])
    assert result.exit_code == 1
    assert '"code":"BROWSER_INVALID_ARGS"' in result.stdout and "Choose one browser mode" in result.stdout


def test_port_must_be_valid() -> None:
    result = CliRunner().invoke(cli, ["mcp", "--http", "--port", "70000"])
    assert result.exit_code == 2 and "70000" in result.stderr
