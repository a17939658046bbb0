"""One tool called alone, the way the tool tests look at a tool: through a runner with the ``BARE`` profile
(validation, dialog check, timeout, error mapping; no guards, crash policy or post-action hooks)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from browserops.contract import ToolResult
from browserops.tools.context import ToolContext
from browserops.tools.runner import BARE, ToolRunner


async def call_tool(name: str, ctx: ToolContext, args: Mapping[str, Any] | None = None) -> ToolResult:
    return await ToolRunner(ctx, BARE).call(name, args)
