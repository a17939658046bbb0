"""Scripted-model helpers for the loop tests: responders that read the latest observation the loop sent and
pick an element's number from it, as a model would (role + words of its name)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from browserops.agent.model_api import ModelTurn, text_turn, tool_turn
from browserops.agent.scripted import ModelRequest, Responder

_ITEM = re.compile(r'^\[(\d+)\] (\S+) "(.*)"', re.MULTILINE)
OBS_HEAD = "Current page (latest observation):"


def latest_observation(request: ModelRequest) -> str:
    for message in reversed(request.messages):
        if message["role"] != "user":
            continue
        for block in message["content"]:
            if block.get("type") == "text" and block["text"].startswith(OBS_HEAD):
                return str(block["text"])
    raise AssertionError("the loop sent no observation")


def number_of(request: ModelRequest, role: str | None = None, name: str | None = None) -> int:
    """The number of the first listed element with this role whose name contains ``name`` (case-folded)."""
    for match in _ITEM.finditer(latest_observation(request)):
        n, item_role, item_name = int(match.group(1)), match.group(2), match.group(3)
        if role is not None and item_role != role:
            continue
        if name is not None and name.casefold() not in item_name.casefold():
            continue
        return n
    raise AssertionError(f"no {role} {name!r} in the observation:\n{latest_observation(request)[:2000]}")


def act(role: str | None, name: str | None, action: str = "click", text: str | None = None,
        progress: str = "Acting on the element.", **extra: Any) -> Responder:
    def respond(request: ModelRequest) -> ModelTurn:
        args: dict[str, Any] = {"index": number_of(request, role, name), "action": action, **extra}
        if text is not None:
            args["text"] = text
        return tool_turn("browser_overlay_act", args, progress)
    return respond


def act_text(role: str | None, name: str | None, action: str = "click", progress: str = "Next step.") -> Responder:
    """The same, written as the text fallback ``function_call: name=... args={...}``."""
    def respond(request: ModelRequest) -> ModelTurn:
        index = number_of(request, role, name)
        return text_turn(f"{progress}\nfunction_call: name=browser_overlay_act args={{\"index\": {index}, "
                         f"\"action\": \"{action}\"}}")
    return respond


def tool_results(request: ModelRequest) -> list[Mapping[str, Any]]:
    """Every tool_result block the loop sent so far, oldest first."""
    return [b for m in request.messages if m["role"] == "user" for b in m["content"]
            if b.get("type") == "tool_result"]


def last_result_text(request: ModelRequest) -> str:
    """The text the model got for its previous call (a tool_result or a plain text result)."""
    for message in reversed(request.messages):
        if message["role"] != "user":
            continue
        for block in message["content"]:
            if block.get("type") == "tool_result":
                return " ".join(str(c.get("text", "")) for c in block["content"])
        texts = [str(b.get("text", "")) for b in message["content"] if b.get("type") == "text"]
        for text in texts:
            if not text.startswith(OBS_HEAD):
                return text
    return ""


def bundle_files(bundle: Path) -> dict[str, bytes]:
    return {p.relative_to(bundle).as_posix(): p.read_bytes() for p in bundle.rglob("*") if p.is_file()}


def wire_responder(script: list[Any]) -> Callable[[dict[str, Any]], Any]:
    """A fake Messages server responder that plays a scripted-model script over the real wire."""
    from tests.agent.fake_messages_server import error, message

    items = list(script)

    def respond(body: dict[str, Any]) -> Any:
        if not items:
            return error(500, "api_error", "the script is used up")
        item = items.pop(0)
        request = ModelRequest(str(body.get("system", "")), list(body.get("messages", [])), list(body.get("tools", [])))
        turn = item if isinstance(item, ModelTurn) else item(request)
        return message(turn.text, [(c.name, dict(c.input)) for c in turn.tool_calls])

    return respond
