"""What a model returns, independent of any SDK, and the one protocol every model implements.

The loop talks to a :class:`Model`: the real :class:`~browserops.agent.llm.LLMClient` or the
:class:`~browserops.agent.scripted.ScriptedModel` used by tests and benchmarks. Messages and tools are
plain Messages-API dicts, so the same request can be recorded, replayed and compared.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, Protocol

Message = dict[str, Any]
ToolSchema = dict[str, Any]

_ids = itertools.count(1)


@dataclass(frozen=True)
class ToolCall:
    """One structured ``tool_use`` block: the id to answer with a ``tool_result``, the name and the input."""

    id: str
    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class Usage:
    input_tokens: int = 0
    output_tokens: int = 0


@dataclass(frozen=True)
class ModelTurn:
    """One assistant reply: its text, its structured tool calls, why it stopped, and what it cost."""

    text: str = ""
    tool_calls: tuple[ToolCall, ...] = ()
    stop_reason: str | None = None
    usage: Usage = field(default_factory=Usage)
    # HTTP attempts this turn took (1 = no retry); the loop counts them against max_llm_calls.
    attempts: int = 1

    def content(self) -> list[dict[str, Any]]:
        """The turn as the ``content`` of an assistant message, to append to the history verbatim."""
        blocks: list[dict[str, Any]] = []
        if self.text.strip():  # the API refuses empty text blocks
            blocks.append({"type": "text", "text": self.text})
        for call in self.tool_calls:
            blocks.append({"type": "tool_use", "id": call.id, "name": call.name, "input": dict(call.input)})
        if not blocks:
            blocks.append({"type": "text", "text": "(no reply)"})
        return blocks


def tool_turn(
    name: str, args: dict[str, Any] | None = None, text: str = "", *, call_id: str | None = None
) -> ModelTurn:
    """A turn with one structured tool call (what a well-behaved model returns)."""
    cid = call_id or f"toolu_scripted_{next(_ids):04d}"
    return ModelTurn(text=text, tool_calls=(ToolCall(cid, name, dict(args or {})),), stop_reason="tool_use")


def text_turn(text: str) -> ModelTurn:
    """A turn with text only (e.g. the ``function_call:`` fallback or the ``mode:`` shape)."""
    return ModelTurn(text=text, stop_reason="end_turn")


class Model(Protocol):
    """Anything that turns (system prompt, messages, tool schemas) into one assistant turn."""

    async def complete(self, system: str, messages: list[Message], tools: list[ToolSchema]) -> ModelTurn: ...
