"""Typed calls of ``js/focusnav.js``: what has the focus, and screen-reader style quick navigation."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

from browserops.browser.scripts import PageCall


class FocusInfo(TypedDict):
    id: str
    role: str
    name: str
    state: NotRequired[dict[str, Any]]


class Active(TypedDict, total=False):
    frame_focus: bool  # an iframe holds the focus: look in the child frames
    element: FocusInfo
    seq: int


class Moved(TypedDict, total=False):
    found: bool
    matches: int
    element: FocusInfo
    focused: bool
    active: str | None  # blind id of the element holding the focus afterwards
    seq: int


def active(prefix: str, seq: int) -> PageCall[Active | None]:
    """The deep focused element of the frame's document (None when nothing there has the focus)."""
    return PageCall("focusnav", "active", {"prefix": prefix, "seq": seq})


def move(prefix: str, seq: int, *, roles: list[str], level: int | None, direction: int, from_start: bool,
         cursor: str | None = None, active_at_cursor: str | None = None) -> PageCall[Moved]:
    """The next (direction 1) or previous (-1) visible element of these roles after the focus or the cursor."""
    args: dict[str, Any] = {"prefix": prefix, "seq": seq, "roles": roles, "level": level, "dir": direction,
                            "fromStart": from_start}
    if cursor is not None:
        args["cursor"] = cursor
        args["activeAtCursor"] = active_at_cursor
    return PageCall("focusnav", "move", args)
