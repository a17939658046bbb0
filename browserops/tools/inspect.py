"""browser_inspect: what one element is and what surrounds it, read live (the policy gate uses it too)."""

from __future__ import annotations

from typing import Any

from browserops.browser.page.element_info import inspect_element
from browserops.tools.context import Tool, ToolContext
from browserops.tools.definitions import elements as defs


async def _inspect(ctx: ToolContext, args: defs.InspectArgs) -> dict[str, Any]:
    return await inspect_element(ctx.session, args.id, max_chars=args.max_chars)


TOOLS: list[Tool[Any]] = [
    Tool(defs.INSPECT, _inspect),
]
