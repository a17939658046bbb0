"""Typed calls of ``js/redact.js``: cover sensitive fields and the page's echoes of secrets before a screenshot."""

from __future__ import annotations

from typing import Any, TypedDict

from browserops.browser.scripts import PageCall


class Drawn(TypedDict):
    boxes: int


class Cleared(TypedDict):
    removed: int


def draw(layer_id: str, vocabulary: dict[str, Any], secrets: list[str]) -> PageCall[Drawn]:
    return PageCall("redact", "drawRedactions", {"id": layer_id, "vocab": vocabulary, "secrets": secrets})


def clear(layer_id: str) -> PageCall[Cleared]:
    return PageCall("redact", "clearRedactions", {"id": layer_id})
