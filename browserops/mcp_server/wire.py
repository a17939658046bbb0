"""What every tool of this server shares on the wire: the tool contract as its output schema, the arguments handed
over untouched (each tool's own args model validates them), and the one place a result becomes wire JSON."""

from __future__ import annotations

from typing import Any

import orjson
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp_types import CallToolResult, TextContent
from pydantic import ConfigDict

from browserops.contract import ToolResult

# The tool contract, published as each tool's output schema.
CONTRACT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "status": {"type": "string", "enum": ["ok", "error"]},
        "code": {"type": "string", "description": "Stable BROWSER_* error code (errors only)."},
        "error": {"type": "string", "description": "What went wrong and what to do next (errors only)."},
        "data": {"type": "object"},
    },
    "required": ["status"],
}


class RawArguments(ArgModelBase):
    """Hands the call's arguments over untouched: the tool's own args model validates them, so a bad argument
    comes back as BROWSER_INVALID_ARGS naming the field, like everywhere else."""

    model_config = ConfigDict(extra="allow", arbitrary_types_allowed=True)

    def model_dump_one_level(self) -> dict[str, Any]:
        return {"arguments": dict(self.model_extra or {})}


def raw_metadata() -> FuncMetadata:
    """A tool function ``fn(arguments: dict)`` that answers the tool contract."""
    return FuncMetadata(arg_model=RawArguments, output_schema=CONTRACT_SCHEMA)


def to_call_tool_result(result: ToolResult) -> CallToolResult:
    """The MCP door: here, and only here, a result becomes its wire dict (as JSON text and structured content)."""
    wire = result.to_wire()
    return CallToolResult(
        content=[TextContent(type="text", text=orjson.dumps(wire).decode())],
        structured_content=wire,
        is_error=result.failed,
    )
