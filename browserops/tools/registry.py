"""The catalogue at run time: every definition bound to its handler. The front doors' runners run tools from
here; who only needs to know the tools (MCP listing, the model's schemas, the policy, the plan) reads
``browserops.tools.definitions`` instead and loads no browser."""

from __future__ import annotations

from typing import Any

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
from browserops.tools.context import Tool
from browserops.tools.definitions import ALIASES, DEFINITIONS, ToolDef

_MODULES = (navigation, waiting, elements, actions, reading, tabs, downloads, uploads, dialogs, banners, inspect)
_BOUND: dict[str, Tool[Any]] = {tool.name: tool for module in _MODULES for tool in module.TOOLS}
if set(_BOUND) != set(DEFINITIONS):
    raise RuntimeError(f"tools without a handler or handlers without a definition: "
                       f"{sorted(set(_BOUND) ^ set(DEFINITIONS))}")
# In the definitions' order (the order MCP lists them in).
CATALOGUE: dict[str, Tool[Any]] = {name: _BOUND[name] for name in DEFINITIONS}


def all_tools() -> list[ToolDef[Any]]:
    """Every tool's definition, in catalogue order."""
    return [tool.definition for tool in CATALOGUE.values()]


def get_tool(name: str) -> ToolDef[Any] | None:
    tool = CATALOGUE.get(ALIASES.get(name, name))
    return tool.definition if tool is not None else None


def bound_tools() -> list[Tool[Any]]:
    """Every tool with its handler, in catalogue order: what a runner runs."""
    return list(CATALOGUE.values())
