"""Python source lines as a person would wrap them: one line when it fits in 120 columns, else the bracketed
arguments one per line (nested calls and lists wrapped the same way). Used by the pack templates (``wrap``)."""

from __future__ import annotations

WIDTH = 120


def wrap(expr: str, indent: int, end: str = ",") -> list[str]:
    """``expr`` (a call or a list, or anything else) as lines indented by ``indent``, followed by ``end``."""
    pad = " " * indent
    if indent + len(expr) + len(end) <= WIDTH:
        return [pad + expr + end]
    opening = _first_bracket(expr)
    if opening is None or expr[-1] != {"(": ")", "[": "]"}[expr[opening]]:
        return [pad + expr + end + "  # noqa: E501"]  # one long text: nothing to break
    items = split_args(expr[opening + 1:-1])
    return [pad + expr[:opening + 1], *(line for item in items for line in wrap(item, indent + 4)),
            pad + expr[-1] + end]


def _first_bracket(text: str) -> int | None:
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote and text[i - 1] != "\\":
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([":
            return i
    return None


def split_args(text: str) -> list[str]:
    """Top-level comma-separated arguments (commas inside brackets and quotes stay)."""
    parts, depth, quote, start = [], 0, "", 0
    for i, ch in enumerate(text):
        if quote:
            if ch == quote and text[i - 1] != "\\":
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]
