"""``browserops tools``: the tool catalogue, printed from the one registry every front door serves."""

from __future__ import annotations

import re
from typing import Any

import click

from browserops.cli.context import CliState, pass_state
from browserops.tools.definitions import all_definitions as all_tools

_SENTENCE_END = re.compile(r"(?<!e\.g)(?<!i\.e)\.\s+(?=[A-Z])")
TEXT_WIDTH = 110


def one_line(description: str) -> str:
    """The first sentence of a tool description."""
    text = " ".join(description.split())
    match = _SENTENCE_END.search(text)
    return text if match is None else text[: match.start() + 1]


def _clip(text: str) -> str:
    return text if len(text) <= TEXT_WIDTH else text[: TEXT_WIDTH - 1] + "…"


@click.group("tools")
def tools_group() -> None:
    """The tool catalogue: every verb browserops can perform on a page."""


@tools_group.command("list")
@click.option("--json", "json_flag", is_flag=True, help="JSON output (same as the global --json).")
@click.option("--schema", is_flag=True, help="With JSON: include each tool's full description and args schema.")
@pass_state
def tools_list(state: CliState, json_flag: bool, schema: bool) -> None:
    """List every tool: name, side-effect class and a one-line description.

    \b
    Side-effect classes: read-only, export (downloads), local-write (files in the workspace),
    browser-act (clicks, typing, key presses: needs confirmation in a plan run).

    \b
    Examples:
      browserops tools list
      browserops tools list --json
      browserops --json tools list --schema     # what MCP clients and the agent are given
    """
    tools = all_tools()
    if json_flag or state.json_output:
        rows = []
        for tool in tools:
            row: dict[str, Any] = {
                "name": tool.name,
                "side_effect": tool.side_effect.value,
                "summary": one_line(tool.description),
            }
            if tool.aliases:  # other names a call may use for it
                row["aliases"] = list(tool.aliases)
            if schema:
                row["description"] = tool.description
                row["input_schema"] = tool.input_schema()
            rows.append(row)
        state.emit_json({"tools": rows, "count": len(rows)})
        return
    width = max(len(t.name) for t in tools)
    for tool in tools:
        click.echo(f"{tool.name:<{width}}  {tool.side_effect.value:<11}  {_clip(one_line(tool.description))}")
        for alias in tool.aliases:
            click.echo(f"{alias:<{width}}  {tool.side_effect.value:<11}  Another name of {tool.name}.")


COMMANDS = [tools_group]
