"""Typed calls of ``js/overlay.js``: the numbered badges drawn in one frame's document."""

from __future__ import annotations

from typing import Any, TypedDict

from browserops.browser.scripts import PageCall


class Shown(TypedDict):
    shown: int
    missing: list[int]  # numbers whose element is not in this document
    colors: dict[str, str]


class Removed(TypedDict):
    removed: int


def show(items: list[tuple[str, int]], scheme: str) -> PageCall[Shown]:
    """Draw a badge with each number over the element with that blind id (replacing earlier badges)."""
    args: dict[str, Any] = {"items": [list(item) for item in items], "scheme": scheme}
    return PageCall("overlay", "show", args)


def hide() -> PageCall[Removed]:
    return PageCall("overlay", "hide")


def present() -> PageCall[bool]:
    """Is an overlay host of ours in the document?"""
    return PageCall("overlay", "present")
