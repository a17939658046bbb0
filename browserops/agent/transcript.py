"""The conversation the model sees, kept small (docs/design.md §8.5).

:class:`Transcript` stores what happened (user text, assistant turns, tool results, observations, call
errors) and renders Messages-API ``messages`` on demand with the compression rules applied:

- only the **latest** observation is sent in full (its text and, with vision, its screenshot); every
  earlier one is replaced by its one-line summary;
- tool results are the short summary of docs/design.md §8.4; all but the latest ``keep_results`` shrink
  to one line;
- every text is cut at 10 000 characters.

Structured calls get their ``tool_result`` blocks (with the ``tool_use_id``) first in the next user
message, as the API requires; text-fallback calls get their result as a plain text block.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from browserops.agent.model_api import Message, ModelTurn
from browserops.agent.model_summaries import Observation, cut, format_summary, result_line

Role = Literal["user", "assistant"]


def image_block(png: bytes) -> dict[str, Any]:
    return {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": base64.b64encode(png).decode("ascii")},
    }


def text_block(text: str) -> dict[str, Any]:
    return {"type": "text", "text": cut(text) or "(empty)"}


def tool_result_block(call_id: str, text: str, *, is_error: bool = False) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": [text_block(text)]}
    if is_error:
        block["is_error"] = True
    return block


@dataclass
class _Entry:
    role: Role
    kind: Literal["user", "assistant", "result", "observation", "call_error"]
    text: str = ""
    call_id: str | None = None
    tool: str = ""
    summary: Mapping[str, Any] | None = None
    is_error: bool = False
    content: list[dict[str, Any]] | None = None
    observation: Observation | None = None


class Transcript:
    def __init__(self, *, vision: bool = True, keep_results: int = 8) -> None:
        self.vision = vision
        self.keep_results = keep_results
        self._entries: list[_Entry] = []

    def __len__(self) -> int:
        return len(self._entries)

    def add_user(self, text: str) -> None:
        """The goal, or the user's answer to ``assistant_ask``."""
        self._entries.append(_Entry("user", "user", text=text))

    def add_turn(self, turn: ModelTurn) -> None:
        self._entries.append(_Entry("assistant", "assistant", content=turn.content()))

    def add_result(
        self, call_id: str | None, tool: str, summary: Mapping[str, Any], *, is_error: bool | None = None
    ) -> None:
        """A tool's outcome as its LLM summary (see :func:`~browserops.agent.model_summaries.llm_summary`)."""
        failed = summary.get("last_action") == "error" if is_error is None else is_error
        self._entries.append(_Entry("user", "result", call_id=call_id, tool=tool, summary=dict(summary),
                                    is_error=failed))

    def add_observation(self, observation: Observation) -> None:
        self._entries.append(_Entry("user", "observation", observation=observation))

    def add_call_error(self, turn: ModelTurn, message: str) -> None:
        """Tell the model why its reply could not be run. Every ``tool_use`` in it still needs a result."""
        if not turn.tool_calls:
            self._entries.append(_Entry("user", "call_error", text=f"Your last reply could not be run: {message}"))
            return
        for i, call in enumerate(turn.tool_calls):
            text = message if i == 0 else "Not run: see the error on the first call of this reply."
            self._entries.append(_Entry("user", "call_error", call_id=call.id, text=text, is_error=True))

    def messages(self) -> list[Message]:
        last_obs = max((i for i, e in enumerate(self._entries) if e.kind == "observation"), default=-1)
        result_idx = [i for i, e in enumerate(self._entries) if e.kind == "result"]
        recent_results = set(result_idx[-self.keep_results :]) if self.keep_results else set()
        out: list[Message] = []
        for i, entry in enumerate(self._entries):
            blocks = self._render(entry, full_observation=i == last_obs, full_result=i in recent_results)
            if out and out[-1]["role"] == entry.role:
                out[-1]["content"].extend(blocks)
            else:
                out.append({"role": entry.role, "content": blocks})
        for message in out:  # tool_result blocks must open their user message
            if message["role"] == "user":
                message["content"].sort(key=lambda b: 0 if b.get("type") == "tool_result" else 1)
        return out

    def _render(self, entry: _Entry, *, full_observation: bool, full_result: bool) -> list[dict[str, Any]]:
        if entry.kind == "assistant":
            return list(entry.content or [])
        if entry.kind == "user":
            return [text_block(entry.text)]
        if entry.kind == "call_error":
            if entry.call_id:
                return [tool_result_block(entry.call_id, entry.text, is_error=True)]
            return [text_block(entry.text)]
        if entry.kind == "observation":
            obs = entry.observation
            assert obs is not None
            if not full_observation:
                return [text_block(f"[earlier observation, superseded] {obs.summary}")]
            blocks = [text_block(f"Current page (latest observation):\n{obs.text}")]
            if self.vision and obs.image_png:
                blocks.append(image_block(obs.image_png))
            return blocks
        summary = entry.summary or {}
        text = format_summary(summary) if full_result else result_line(summary)
        if entry.call_id:
            return [tool_result_block(entry.call_id, text, is_error=entry.is_error)]
        return [text_block(f"Result of {entry.tool}: {text}")]
