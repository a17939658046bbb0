"""The ``browserops`` command: a thin click layer over the library, one module per command group (``*_cmd.py``)
plus what they share (options, the CLI state, terminal progress, the REPL). Only this package prints; the work
itself — plans, packs, the agent, evidence — lives in the packages below, which never know a terminal is there.
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import Any

import click

from browserops import __version__
from browserops.cli.context import CliState, report_error
from browserops.config import parse_set_option
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.privacy import use_workspace


class BrowserOpsGroup(click.Group):
    """Turns a BrowserOpsError anywhere below into ``Error [CODE]: message`` and exit code 1; loads each command's
    module when that command is asked for (``_COMMAND_MODULES``)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *_COMMAND_MODULES})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        module = _COMMAND_MODULES.get(cmd_name)
        if module is not None and cmd_name not in self.commands:
            for command in importlib.import_module(f"browserops.cli.{module}").COMMANDS:
                self.add_command(command)
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrowserOpsError as exc:
            state = ctx.find_object(CliState)
            report_error(exc, bool(state and state.json_output))
            ctx.exit(1)
        except KeyboardInterrupt:
            click.echo("Interrupted.", err=True)
            ctx.exit(130)


@click.group(cls=BrowserOpsGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="browserops")
@click.option(
    "--workspace",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Workspace folder: config, plans and evidence live here. "
    "Default: $BROWSEROPS_WORKSPACE or the current directory.",
)
@click.option("--json", "json_output", is_flag=True, help="Print machine-readable JSON on stdout.")
@click.option("--log-level", type=click.Choice(["DEBUG", "INFO", "WARNING", "ERROR"], case_sensitive=False),
              default=None, help="Logging level (overrides config).")
@click.option("--set", "set_items", multiple=True, metavar="KEY=VALUE",
              help="Override any setting for this call, e.g. --set max_steps=30 (repeatable).")
@click.option("--allowed-origins", default=None, metavar="PATTERNS",
              help="Only load pages from these origins, comma-separated (https://example.com, *.example.com, "
              "localhost:8000); default: any. Checked for navigations, redirects, new tabs and frames.")
@click.option("--blocked-origins", default=None, metavar="PATTERNS",
              help="Never load pages from these origins (same patterns; wins over --allowed-origins).")
@click.pass_context
def cli(ctx: click.Context, workspace: Path | None, json_output: bool, log_level: str | None,
        set_items: tuple[str, ...], allowed_origins: str | None, blocked_origins: str | None) -> None:
    """browserops: auditable browser automation through numbered elements.

    \b
    Prepare a plan read-only, review its diff, then run it with the confirm phrase;
    every run leaves an evidence bundle under <workspace>/artifacts/browser/.

    \b
    Examples:
      browserops demo-site --port 8765          # serve the bundled demo site
      browserops doctor                         # check that Chromium can be found and driven
      browserops config show                    # effective settings and where each came from
      browserops prepare --pack demo_expense --input in.yaml --base-url http://127.0.0.1:8765
      browserops run req-20260105-101500-ab12 --confirm "ember-thistle-dial-7bf3"
      browserops tools list                     # the tool catalogue
      browserops mcp                            # serve the browser tools to an MCP client (stdio)
      browserops --workspace ./ws --json config show
    """
    if workspace is None:
        env_ws = os.environ.get("BROWSEROPS_WORKSPACE")
        workspace = Path(env_ws) if env_ws else Path.cwd()
    overrides: dict[str, Any] = {}
    try:
        overrides.update(parse_set_option(set_items))
    except BrowserOpsError as exc:
        report_error(exc, json_output)
        ctx.exit(1)
    if log_level:
        overrides["log_level"] = log_level.upper()
    for key, value in (("allowed_origins", allowed_origins), ("blocked_origins", blocked_origins)):
        if value is not None:
            overrides[key] = value
    ctx.obj = CliState(workspace=workspace.resolve(), json_output=json_output, overrides=overrides,
                       owns_logging=ctx.obj is PROCESS_ENTRY)
    use_workspace(workspace)  # digests of typed text are keyed by this workspace's secret (privacy.py)


# Each command (or command group) by name, and the module (``browserops/cli/<module>.py``) whose ``COMMANDS``
# holds it; one per line, so branches adding commands merge without conflicts. A command's module is imported when
# that command runs (or ``--help`` lists them all): importing every module made each `browserops` process import the
# chat, the agent, the server and the recorder before doing anything (measured in a process: 0.9 CPU s of imports
# for every command, `run` needing 0.7 of it).
_COMMAND_MODULES = {
    "config": "config_cmd",
    "demo-site": "demo_cmd",
    "doctor": "doctor_cmd",
    "evidence": "evidence_cmd",
    "pack": "pack_cmd",
    "chat": "chat_cmd",
    "serve": "serve_cmd",
    "tools": "tools_cmd",
    "mcp": "mcp_cmd",
    "agent": "agent_cmd",
    "prepare": "plan_cmd",
    "run": "plan_cmd",
    "record": "record_cmd",
    "profile": "profile_cmd",
}


# Handed in as the root context's object by main() only: the process's own command line, which sets the
# logging level (from --log-level or the settings) where the CLI starts.
PROCESS_ENTRY = object()


def main() -> None:
    try:
        cli.main(prog_name="browserops", obj=PROCESS_ENTRY)
    except BrowserOpsError as exc:  # raised while parsing, before a group could catch it
        report_error(exc, "--json" in sys.argv)
        sys.exit(1)


__all__ = ["ErrorCode", "cli", "main"]
