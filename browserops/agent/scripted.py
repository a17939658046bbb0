"""``ScriptedModel``: a :class:`Model` that plays back a script, for tests, demos and benchmarks.

Each script entry is a :class:`ModelTurn` or a function of the request that returns one (so a script can
react to what the loop sent, e.g. pick the number of the "Search" button from the latest observation).
Every request is recorded, so a test can assert what the model was shown.
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from browserops.agent.model_api import Message, ModelTurn, ToolSchema
from browserops.contract import BrowserOpsError, ErrorCode


@dataclass(frozen=True)
class ModelRequest:
    """What the loop sent for one turn (deep-copied, so later history edits do not change it)."""

    system: str
    messages: list[Message]
    tools: list[ToolSchema]

    @property
    def tool_names(self) -> list[str]:
        return [str(t.get("name")) for t in self.tools]


Responder = Callable[[ModelRequest], ModelTurn | Awaitable[ModelTurn]]
ScriptItem = ModelTurn | Responder


class ScriptedModel:
    def __init__(self, script: Iterable[ScriptItem]) -> None:
        self._script = list(script)
        self.requests: list[ModelRequest] = []

    @property
    def remaining(self) -> int:
        return len(self._script)

    def extend(self, items: Iterable[ScriptItem]) -> None:
        self._script.extend(items)

    async def complete(self, system: str, messages: list[Message], tools: list[ToolSchema]) -> ModelTurn:
        request = ModelRequest(system, copy.deepcopy(messages), copy.deepcopy(tools))
        self.requests.append(request)
        if not self._script:
            raise BrowserOpsError(
                ErrorCode.LLM_FAILED,
                f"The scripted model has no turn left for request {len(self.requests)}; extend the script.",
            )
        item = self._script.pop(0)
        if isinstance(item, ModelTurn):
            return item
        produced = item(request)
        if inspect.isawaitable(produced):
            produced = await produced
        if not isinstance(produced, ModelTurn):
            raise TypeError(f"script responder returned {type(produced).__name__}, not ModelTurn")
        return produced
