"""Every tool as a definition: name, args model, description, traits — and the action words — without a browser.

What MCP lists, what the model is offered, what the policy gate and the plan read comes from here, so importing
this package loads no Playwright (``tests/test_layers.py`` checks it). The handlers that run these tools, and
everything that touches a page, live beside it in ``browserops/tools/`` (bound in ``registry.py``).
"""

from __future__ import annotations

from typing import Any

from browserops.tools.definitions import acting, elements, files, pages, reading
from browserops.tools.definitions.core import (
    ElementId,
    NoArgs,
    ToolArgs,
    ToolDef,
    describe_validation_error,
    retry_safe,
)

# The catalogue's order is the order MCP lists the tools in and the model is offered them.
_ORDER: tuple[ToolDef[Any], ...] = (
    pages.NAVIGATE, pages.BACK, pages.FORWARD, pages.RELOAD, pages.WAIT,
    *elements.DEFINITIONS[:6],
    *acting.DEFINITIONS,
    *reading.DEFINITIONS,
    pages.OPEN_IN_NEW_TAB, pages.SWITCH_TAB,
    *files.DEFINITIONS,
    pages.DIALOG, pages.CLOSE_BANNERS, elements.INSPECT, elements.FORM_CHECK,
)
DEFINITIONS: dict[str, ToolDef[Any]] = {d.name: d for d in _ORDER}
assert len(DEFINITIONS) == len(_ORDER) and set(DEFINITIONS) == {
    d.name for group in (acting, elements, files, pages, reading) for d in group.DEFINITIONS
}, "every definition is in the catalogue once"
# Other names a call may use (``ToolDef.aliases``) -> the tool's name.
ALIASES: dict[str, str] = {alias: d.name for d in _ORDER for alias in d.aliases}
assert not set(ALIASES) & set(DEFINITIONS), "an alias is never another tool's name"


def all_definitions() -> list[ToolDef[Any]]:
    return list(DEFINITIONS.values())


def get_definition(name: str) -> ToolDef[Any] | None:
    """The tool called ``name`` (or by an alias of it), None for a name nobody defined."""
    return DEFINITIONS.get(ALIASES.get(name, name))


__all__ = [
    "ALIASES", "DEFINITIONS", "ElementId", "NoArgs", "ToolArgs", "ToolDef", "all_definitions",
    "describe_validation_error", "get_definition", "retry_safe",
]
