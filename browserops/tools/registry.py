"""The catalogue: the one list of tools. MCP, the agent and the plan runner all read it from here."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from browserops.contract import ErrorCode, ToolResult, error
from browserops.tools import (
    actions,
    banners,
    dialogs,
    downloads,
    elements,
    inspect,
    navigation,
    reading,
    tabs,
    uploads,
    waiting,
)
from browserops.tools.base import ToolContext, ToolDef, invoke

_MODULES = (navigation, waiting, elements, actions, reading, tabs, downloads, uploads, dialogs, banners, inspect)

CATALOGUE: dict[str, ToolDef[Any]] = {tool.name: tool for module in _MODULES for tool in module.TOOLS}


def all_tools() -> list[ToolDef[Any]]:
    return list(CATALOGUE.values())


def get_tool(name: str) -> ToolDef[Any] | None:
    return CATALOGUE.get(name)


async def call_tool(name: str, ctx: ToolContext, args: Mapping[str, Any] | None = None) -> ToolResult:
    """Call a tool by name, bare: validation, dialog check, timeout and error mapping (:func:`invoke`), but no
    guards, crash policy or post-action hooks — what the front doors use is :class:`~browserops.tools.runner.
    ToolRunner`. An unknown name is an error result listing the known ones."""
    tool = CATALOGUE.get(name)
    if tool is None:
        return error(ErrorCode.UNKNOWN_TOOL, f"Unknown tool {name!r}. Known tools: {', '.join(sorted(CATALOGUE))}.")
    return await invoke(tool, ctx, args)
