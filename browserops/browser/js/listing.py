"""Typed call of ``js/list.js``: enumerate one frame's interactive elements (see
:mod:`browserops.browser.numbering.listing`, which merges the frames)."""

from __future__ import annotations

from typing import Any, TypedDict

from browserops.browser.scripts import PageCall


class FrameListing(TypedDict, total=False):
    """One frame's answer. ``items`` are raw items (short keys: id, role, name, st, g, x, y, ty, w, h, i, t,
    cov, nw, rank), sorted viewport first; ``keys`` (find only) the sort keys of every candidate."""

    items: list[dict[str, Any]]
    total: int
    seq: int  # the frame's blind-id counter after stamping
    had: bool  # the document had a tracked listing before (so "new" flags mean something)
    scopeFound: bool
    containers: list[str]  # names of containers, for a scope that matched nothing
    keys: list[list[float]]


def list_frame(args: dict[str, Any]) -> PageCall[FrameListing]:
    """args: ``FrameView.script_args()`` plus keep, scope, match, track (see the head of ``list.js``)."""
    return PageCall("list", "main", args)
