"""Typed call of ``js/list.js``: enumerate one frame's interactive elements (see
:mod:`browserops.browser.numbering.listing`, which merges the frames)."""

from __future__ import annotations

from typing import Any, TypedDict

from browserops.browser.scripts import ElementCall, PageCall


class FrameListing(TypedDict, total=False):
    """One frame's answer. ``items`` are raw items (short keys: id, role, name, st, g, x, y, ty, w, h, i, t,
    cov, nw, rank, gn: name guessed, in/inr: container name/role), in the frame's order (``i``: the index in
    it); ``keys`` the sort keys (group, y, x) of every item, flat, when asked and not ``known``."""

    items: list[dict[str, Any]]
    total: int
    walk: str  # the kept walk this answer describes (a new id: the frame walked again)
    reused: bool  # described from the kept walk, without walking
    seq: int  # the frame's blind-id counter after stamping
    had: bool  # the document had a tracked listing before (so "new" flags mean something)
    scopeFound: bool
    containers: list[str]  # names of containers, for a scope that matched nothing
    keys: list[float]
    lang: str  # the document's lang attribute, when it has one
    iconCheck: list[str]  # with args.icons: blind ids of icon-like elements to ask DevTools about
    closedCheck: int  # with args.closed: custom elements whose (maybe closed) shadow root is unknown
    ms: list[int]  # time in the page's renderer: the walk (or finding the kept one), then describing


def list_frame(args: dict[str, Any]) -> PageCall[FrameListing]:
    """args: ``FrameView.script_args()`` plus start, end, reuse, keys, known, scope, match, containers, track
    (see the head of ``list.js``)."""
    return PageCall("list", "main", args)


def click_listeners(ids: list[str]) -> PageCall[list[str]]:
    """Which of these icon-like elements (blind ids) have a click-like listener. Needs DevTools' command-line
    API: run through :func:`browserops.browser.scripts.expression` in the page's own world."""
    return PageCall("keylisteners", "clickListeners", {"ids": ids})


class MarkedVerdicts(TypedDict):
    """The listener check of the icon candidates a walk marked (``iconMark``): which it checked, which listen."""

    ids: list[str]
    yes: list[str]


def marked_click_listeners() -> PageCall[MarkedVerdicts | None]:
    """:func:`click_listeners` of the candidates the walk just before it marked (``list_frame`` with
    ``iconMark``), so it can be sent right behind that walk; None when the walk marked none. Run as
    :func:`click_listeners` is."""
    return PageCall("keylisteners", "markedClickListeners", {})


def register_closed_root() -> ElementCall[bool]:
    """On a closed shadow root DevTools resolved into the isolated world: walk it from now on."""
    return ElementCall("list", "registerClosedRoot")


def take_unseen_hosts() -> PageCall[list[Any] | None]:
    """The custom elements the last walk met whose shadow root is unknown (``closedCheck``), as page objects
    (run through :func:`browserops.browser.scripts.reference_in_context`), None when there are none; they count as
    asked about from then on."""
    return PageCall("list", "takeUnseenHosts")
