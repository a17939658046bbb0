"""The catalogue at run time: every definition bound to the handler its ``handler`` reference names. The front
doors' runners run tools from here; who only needs to know the tools (MCP listing, the model's schemas, the policy,
the plan) reads ``browserops.tools.definitions`` instead and loads no browser."""

from __future__ import annotations

import inspect
from typing import Any

from browserops.tools.context import Handler, Tool
from browserops.tools.definitions import ALIASES, DEFINITIONS, ToolDef
from browserops.tools.references import resolve


def _handler(definition: ToolDef[Any]) -> Handler[Any]:
    handler = resolve(definition.handler)
    if not inspect.iscoroutinefunction(handler):
        raise RuntimeError(f"{definition.name}: {definition.handler} is not an async function")
    return handler  # type: ignore[no-any-return]


# In the definitions' order (the order MCP lists them in).
CATALOGUE: dict[str, Tool[Any]] = {name: Tool(d, _handler(d)) for name, d in DEFINITIONS.items()}


def all_tools() -> list[ToolDef[Any]]:
    """Every tool's definition, in catalogue order."""
    return [tool.definition for tool in CATALOGUE.values()]


def get_tool(name: str) -> ToolDef[Any] | None:
    tool = CATALOGUE.get(ALIASES.get(name, name))
    return tool.definition if tool is not None else None


def bound_tools() -> list[Tool[Any]]:
    """Every tool with its handler, in catalogue order: what a runner runs."""
    return list(CATALOGUE.values())
