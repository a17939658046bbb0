"""Typed calls of ``js/scroll.js``: scroll the document or the container around an element, report where."""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from browserops.browser.scripts import ElementCall, PageCall


class Position(TypedDict):
    y: int
    above: int
    below: int
    height: int
    kind: Literal["page", "container"]
    moved: bool
    x: NotRequired[int]  # when it scrolls sideways
    left: NotRequired[int]
    right: NotRequired[int]
    container: NotRequired[str]  # the container's role and name


def _args(to: str | None, dx: int | None, dy: int | None, behavior: str) -> dict[str, Any]:
    return {"to": to, "dx": dx, "dy": dy, "behavior": behavior}


def scroll_document(to: str | None, dx: int | None, dy: int | None, behavior: str) -> PageCall[Position]:
    return PageCall("scroll", "scrollDocument", _args(to, dx, dy, behavior))


def scroll_around(to: str | None, dx: int | None, dy: int | None, behavior: str, *,
                  into_view: bool) -> ElementCall[Position]:
    """The element's scrolling container (itself when it scrolls), or the document; with ``into_view`` only
    bring the element into view (centred)."""
    return ElementCall("scroll", "scrollAround", {**_args(to, dx, dy, behavior), "intoView": into_view})
