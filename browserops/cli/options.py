"""Options shared by several commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from browserops.cli.context import CliState

F = TypeVar("F", bound=Callable[..., Any])


def _set_json(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    # `browserops evidence list --json` means the same as `browserops --json evidence list`; setting it on
    # the shared state also makes errors come out as JSON.
    state = ctx.find_object(CliState)
    if value and state is not None:
        state.json_output = True
    return value


def json_flag(func: F) -> F:
    """A command-level ``--json`` (the group-level one works too)."""
    return click.option("--json", "json_flag", is_flag=True, expose_value=False, is_eager=True,
                        callback=_set_json, help="Print machine-readable JSON on stdout.")(func)
