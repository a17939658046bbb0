"""State shared by all commands: workspace, output mode and the lazily loaded settings."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
import orjson

from browserops.config import LoadedSettings, load_settings
from browserops.contract import BrowserOpsError
from browserops.logs import setup_logging


@dataclass
class CliState:
    workspace: Path
    json_output: bool = False
    overrides: dict[str, Any] = field(default_factory=dict)
    # Only the process entry (``browserops`` / ``python -m browserops``: cli.main) owns the logging set-up. A
    # command run inside another program (a test's CliRunner, an embedding app) leaves that program's logger
    # levels alone: loading settings must never turn the ``browserops`` logger down behind its back.
    owns_logging: bool = False
    _loaded: LoadedSettings | None = None

    def loaded(self, **extra_overrides: Any) -> LoadedSettings:
        """Settings with the global flags plus a command's own flags (later wins)."""
        if self._loaded is None or extra_overrides:
            merged = {**self.overrides, **{k: v for k, v in extra_overrides.items() if v is not None}}
            self._loaded = load_settings(self.workspace, overrides=merged)
            if self.owns_logging:
                setup_logging(self._loaded.settings.log_level)
        return self._loaded

    def emit_json(self, payload: Any) -> None:
        click.echo(orjson.dumps(payload, option=orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS).decode())

    def progress(self, line: str) -> None:
        """One human line on stderr (kept off stdout so --json output stays parseable)."""
        click.echo(line, err=True)


pass_state = click.make_pass_decorator(CliState)


def report_error(exc: BrowserOpsError, json_output: bool) -> None:
    if json_output:
        click.echo(orjson.dumps({"status": "error", **exc.to_dict()}).decode())
    else:
        click.echo(f"Error [{exc.code.value}]: {exc.message}", err=True)
    sys.stderr.flush()
