"""Turning one model reply into exactly one tool call, or a precise complaint the model can act on.

Three shapes are accepted, in this order of preference (docs/design.md §8.2):

1. **Structured** ``tool_use`` blocks. When present, the reply's text is only the progress line; any
   call-looking text in it is ignored.
2. **Text fallback**, one line ``function_call: name=<tool> args=<JSON object>``. ``function_call`` is
   case-insensitive and may sit inside a code fence or after a bullet; ``name`` is a bare or quoted tool
   name; ``args`` is a JSON object that may span lines (a Python-style literal with single quotes,
   ``True``/``False``/``None`` is accepted too; nothing is ever evaluated). ``args=`` may be omitted
   for a tool without arguments.
3. **Mode shape**: a JSON object ``{"mode": "act", "tool": "...", "args": {...}}`` /
   ``{"mode": "ask", "question": "..."}`` / ``{"mode": "done", "reason": "..."}`` starting a line, or the
   same as lines::

       mode: act            mode: ask                  mode: done
       tool: browser_find   question: Which account?   reason: The results page lists 3 staplers.
       args: {"text": "Поиск"}

   ``ask`` becomes ``assistant_ask(question)`` and ``done`` becomes ``assistant_done(reason)``. Values may be
   quoted; the ``args`` object may start on the next line; an optional ``progress:`` line (or key) gives the
   progress text. An object that lies inside another call's arguments is part of that call.

Zero calls, more than one call, an unknown tool or arguments that fail the tool's args model raise
:class:`CallError`, whose message says exactly what was wrong and how to reply instead.
"""

from __future__ import annotations

import ast
import difflib
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from pydantic import ValidationError

from browserops.agent.model_api import ModelTurn
from browserops.agent.toolspec import ASK, DONE, ToolSpec
from browserops.tools.definitions import describe_validation_error

MAX_TEXT = 20_000  # longer replies are cut before parsing: bounds the work on hostile input
MAX_FOUND = 8  # more calls than this in one reply is already an error; stop looking
MAX_BLOCK_LINES = 6  # a mode block has at most tool/name, args, question, reason, progress lines
PROGRESS_MAX = 200
REMINDER = "Reply with one short progress line and exactly one tool call."

Source = Literal["tool_use", "text", "mode"]


class CallErrorKind(StrEnum):
    NO_CALL = "no_call"
    MULTIPLE_CALLS = "multiple_calls"
    UNKNOWN_TOOL = "unknown_tool"
    INVALID_ARGS = "invalid_args"
    MALFORMED = "malformed"


class CallError(Exception):
    """The reply broke the iteration contract; ``message`` is written for the model."""

    def __init__(self, kind: CallErrorKind, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


@dataclass(frozen=True)
class RawCall:
    """A call found in a reply, before the tool name and arguments are checked."""

    name: str
    args: Any
    source: Source
    call_id: str | None = None
    span: tuple[int, int] = (0, 0)  # where in the text it was found (text shapes only)
    progress: str = ""  # the mode shape's optional `progress:` field


@dataclass(frozen=True)
class ParsedCall:
    name: str
    args: dict[str, Any]
    source: Source
    call_id: str | None
    progress: str


_FUNCTION_CALL = re.compile(r"function_call\s*:", re.IGNORECASE)
_NAME = re.compile(r"\s*name\s*=\s*[\"'`]?([A-Za-z_][A-Za-z0-9_.-]{0,127})[\"'`]?", re.IGNORECASE)
_ARGS = re.compile(r"\s*,?\s*(?:args|arguments)\s*[=:]\s*", re.IGNORECASE)
_MODE_LINE = re.compile(r"^[ \t>*`-]*mode\s*[:=]\s*[\"']?(act|ask|done)\b[\"']?[ \t`\r]*$",
                        re.IGNORECASE | re.MULTILINE)
_KEY_LINE = re.compile(r"^[ \t>*`-]*(tool|name|args|arguments|question|reason|progress)\s*[:=][ \t]*(.*)$",
                       re.IGNORECASE)
_JSON_OBJECT_START = re.compile(r"^[ \t>`]*\{", re.MULTILINE)
_FENCE = re.compile(r"^\s*```\w*\s*$")


def _balanced(text: str, start: int) -> str | None:
    """The ``{...}`` substring starting at ``start``, respecting quoted strings; None if unbalanced."""
    depth = 0
    quote: str | None = None
    escaped = False
    for i in range(start, len(text)):
        ch = text[i]
        if quote:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return None


def parse_object(text: str, start: int) -> tuple[Any, int]:
    """Parse the JSON object (or Python-style dict literal) at ``start``; return it and its end offset.

    Raises ValueError with a short reason when there is no parsable object there.
    """
    if start >= len(text) or text[start] != "{":
        raise ValueError("expected a JSON object starting with '{'")
    try:
        value, end = json.JSONDecoder().raw_decode(text, start)
        return value, end
    except (json.JSONDecodeError, RecursionError) as exc:
        json_error = str(exc).split(":")[0]
    chunk = _balanced(text, start)
    if chunk is None:
        raise ValueError(f"the object is not closed ({json_error})")
    try:
        # literal_eval only builds literals: strings, numbers, dicts, lists, booleans, None.
        value = ast.literal_eval(chunk)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError) as exc:
        raise ValueError(f"not valid JSON ({json_error})") from exc
    return value, start + len(chunk)


def _text_calls(text: str) -> list[RawCall]:
    calls: list[RawCall] = []
    for match in _FUNCTION_CALL.finditer(text):
        if len(calls) >= MAX_FOUND:
            break
        pos = match.end()
        name_match = _NAME.match(text, pos)
        if not name_match:
            calls.append(RawCall("", None, "text", span=(match.start(), match.end())))
            continue
        pos = name_match.end()
        args: Any = {}
        args_match = _ARGS.match(text, pos)
        if args_match:
            try:
                args, pos = parse_object(text, args_match.end())
            except ValueError as exc:
                args, pos = _Malformed(f"args after name={name_match.group(1)}: {exc}"), args_match.end()
        calls.append(RawCall(name_match.group(1), args, "text", span=(match.start(), pos)))
    return calls


class _Malformed:
    """Stands in for arguments that could not be parsed, carrying why."""

    def __init__(self, why: str) -> None:
        self.why = why


def _mode_call(fields: Mapping[str, Any], span: tuple[int, int]) -> RawCall:
    mode = str(fields.get("mode", "")).strip().lower()
    progress = str(fields.get("progress") or "")
    if mode == "ask":
        return RawCall(ASK, {"question": fields.get("question", "")}, "mode", span=span, progress=progress)
    if mode == "done":
        return RawCall(DONE, {"reason": fields.get("reason", "")}, "mode", span=span, progress=progress)
    tool = fields.get("tool") or fields.get("name") or ""
    args = fields.get("args", fields.get("arguments", {}))
    if args is None:
        args = {}
    return RawCall(str(tool), args, "mode", span=span, progress=progress)


def _json_mode_calls(text: str) -> list[RawCall]:
    calls: list[RawCall] = []
    for attempt, match in enumerate(_JSON_OBJECT_START.finditer(text)):
        if attempt >= 20:
            break
        start = match.end() - 1
        try:
            value, end = parse_object(text, start)
        except ValueError:
            continue
        if isinstance(value, dict) and "mode" in value:
            mode = str(value.get("mode", "")).strip().lower()
            if mode in ("act", "ask", "done"):
                calls.append(_mode_call(value, (start, end)))
    return calls


def _line_mode_calls(text: str) -> list[RawCall]:
    calls: list[RawCall] = []
    for match in _MODE_LINE.finditer(text):
        if len(calls) >= MAX_FOUND:
            break
        fields: dict[str, Any] = {"mode": match.group(1)}
        pos = match.end()
        end = pos
        for _ in range(MAX_BLOCK_LINES):
            if pos >= len(text):
                break
            line_end = text.find("\n", pos + 1)
            line_end = len(text) if line_end == -1 else line_end
            line = text[pos:line_end].lstrip("\n")
            if not line.strip() or _MODE_LINE.match(line):
                break
            key_match = _KEY_LINE.match(line)
            if not key_match:
                break
            key = key_match.group(1).lower()
            if key in ("args", "arguments"):
                obj_start = text.find("{", pos, line_end)
                after = len(text) - len(text[line_end:].lstrip())
                if obj_start == -1 and not key_match.group(2).strip() and text.startswith("{", after):
                    obj_start = after  # "args:" with the object on the next line
                if obj_start == -1:
                    fields["args"] = _Malformed("args: expected a JSON object such as {\"text\": \"...\"}")
                else:
                    try:
                        fields["args"], obj_end = parse_object(text, obj_start)
                        line_end = max(line_end, obj_end)
                    except ValueError as exc:
                        fields["args"] = _Malformed(f"args: {exc}")
            else:
                fields[key] = key_match.group(2).strip().strip("`\"'").strip()
            pos = end = line_end
        calls.append(_mode_call(fields, (match.start(), end)))
    return calls


def find_calls(turn: ModelTurn) -> list[RawCall]:
    """Every call in the reply, unchecked: structured ones if any, else those written in the text."""
    if turn.tool_calls:
        return [RawCall(c.name, c.input, "tool_use", call_id=c.id) for c in turn.tool_calls]
    text = turn.text[:MAX_TEXT]
    found = sorted(_text_calls(text) + _json_mode_calls(text) + _line_mode_calls(text), key=lambda c: c.span)
    calls: list[RawCall] = []
    for call in found:  # an object inside another call's arguments is part of that call, not a second one
        if calls and call.span[0] >= calls[-1].span[0] and call.span[1] <= calls[-1].span[1]:
            continue
        calls.append(call)
    return calls


def progress_line(text: str, spans: list[tuple[int, int]]) -> str:
    """The first line of prose outside the call itself, cut short (the contract's progress text)."""
    text = text[:MAX_TEXT]
    for start, end in sorted(spans, reverse=True):
        text = text[:start] + "\n" + text[end:]
    for line in text.splitlines():
        clean = line.strip().strip("`*#>- ").strip()
        if clean and not _FENCE.match(line) and not _KEY_LINE.match(line):
            return clean[:PROGRESS_MAX]
    return ""


def _describe(call: RawCall) -> str:
    return call.name or "(no name)"


def _signature(spec: ToolSpec) -> str:
    props = spec.input_schema.get("properties", {})
    required = set(spec.input_schema.get("required", []))
    parts = [f"{key}{'' if key in required else '?'}" for key in props]
    return f"{spec.name}({', '.join(parts)})"


def check_call(call: RawCall, tools: Mapping[str, ToolSpec]) -> dict[str, Any]:
    """Validate the name and arguments of one call; return the arguments as a dict."""
    if not call.name:
        raise CallError(
            CallErrorKind.MALFORMED,
            "The function_call line has no tool name. Write it as "
            'function_call: name=browser_find args={"text": "Search"}. ' + REMINDER,
        )
    spec = tools.get(call.name)
    if spec is None:
        close = difflib.get_close_matches(call.name, list(tools), n=1)
        hint = f" Did you mean {close[0]}?" if close else ""
        raise CallError(
            CallErrorKind.UNKNOWN_TOOL,
            f"There is no tool {call.name!r}.{hint} Available tools: {', '.join(sorted(tools))}. " + REMINDER,
        )
    if isinstance(call.args, _Malformed):
        raise CallError(
            CallErrorKind.MALFORMED,
            f"Could not read the arguments of {call.name}: {call.args.why}. Give args as a JSON object, "
            f"e.g. {_signature(spec)}. " + REMINDER,
        )
    if not isinstance(call.args, dict) or not all(isinstance(k, str) for k in call.args):
        raise CallError(
            CallErrorKind.INVALID_ARGS,
            f"The arguments of {call.name} must be a JSON object with named fields, e.g. {_signature(spec)}. "
            + REMINDER,
        )
    if spec.args is not None:
        try:
            spec.args.model_validate(call.args)
        except ValidationError as exc:
            raise CallError(
                CallErrorKind.INVALID_ARGS,
                f"Invalid arguments for {call.name}: {describe_validation_error(exc)}. "
                f"Expected {_signature(spec)} (? = optional). " + REMINDER,
            ) from exc
    return dict(call.args)


def parse_turn(turn: ModelTurn, tools: Mapping[str, ToolSpec]) -> ParsedCall:
    """Exactly one valid call from the reply, or CallError. ``tools`` maps names to the offered specs."""
    calls = find_calls(turn)
    if not calls:
        raise CallError(
            CallErrorKind.NO_CALL,
            "Your reply had no tool call. Call one tool (structured tool use), or write one line "
            'function_call: name=<tool> args={...}. When the goal is visibly achieved, call assistant_done. '
            + REMINDER,
        )
    if len(calls) > 1:
        names = ", ".join(_describe(c) for c in calls)
        raise CallError(
            CallErrorKind.MULTIPLE_CALLS,
            f"Your reply had {len(calls)} tool calls ({names}); only one per turn is allowed and none was run. "
            "Choose the single next step. " + REMINDER,
        )
    call = calls[0]
    args = check_call(call, tools)
    spans = [] if call.source == "tool_use" else [call.span]
    progress = call.progress.strip()[:PROGRESS_MAX] or progress_line(turn.text, spans)
    return ParsedCall(call.name, args, call.source, call.call_id, progress)
