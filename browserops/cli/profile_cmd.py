"""``browserops profile clear DIR``: forget the session a ``--profile DIR`` kept from earlier runs."""

from __future__ import annotations

from pathlib import Path

import click

from browserops.browser.launch import profile_state
from browserops.cli.context import CliState, pass_state
from browserops.cli.options import json_flag
from browserops.contract import BrowserOpsError, ErrorCode


@click.group("profile")
def profile() -> None:
    """The browser profiles given with --profile DIR."""


@profile.command("clear")
@click.argument("directory", type=click.Path(file_okay=False, path_type=Path), metavar="DIR")
@json_flag
@pass_state
def clear(state: CliState, directory: Path) -> None:
    """Delete the session a --profile DIR kept between runs (its session-only cookies), so sites that signed in
    without "Remember me" are signed out on the next run. Lasting sign-ins live in Chromium's own profile:
    to forget everything, delete DIR itself."""
    if not directory.is_dir():
        raise BrowserOpsError(ErrorCode.FILE_NOT_FOUND, f"No profile folder {directory}: give the DIR used with "
                              "--profile.")
    cleared = profile_state.clear(directory)
    if state.json_output:
        state.emit_json({"status": "ok", "profile": str(directory), "cleared": cleared})
        return
    click.echo(f"Cleared the saved session of {directory}." if cleared
               else f"{directory} had no saved session; nothing to clear.")


COMMANDS = [profile]
