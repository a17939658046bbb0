"""Typed calls of ``js/watch.js``: has the DOM changed since we looked, and waiting for it to go quiet."""

from __future__ import annotations

from typing import TypedDict

from browserops.browser.scripts import PageCall


class Armed(TypedDict):
    armed: bool


class Changes(TypedDict, total=False):
    armed: bool  # False: a new document (nobody armed a watch in it)
    count: int  # relevant mutations since arm
    quiet_ms: int | None


class Quiet(TypedDict):
    quiet: bool
    waited: int
    mutations: int
    idle: bool  # when it ended, nothing was scheduled before the window would end (quiet after the idle time)


def arm() -> PageCall[Armed]:
    return PageCall("watch", "arm")


def read() -> PageCall[Changes]:
    return PageCall("watch", "read")


class Clock(TypedDict):
    started: bool


def quiet(quiet_ms: int, timeout_ms: int, acted_ago_ms: float | None = None,
          idle_ms: int | None = None, act_ago_ms: float | None = None) -> PageCall[Quiet]:
    """Resolves once the document has gone ``quiet_ms`` without a relevant mutation, or after ``timeout_ms``.
    ``acted_ago_ms``: how long ago the latest acting call began (or an answer came since); given, a document with a
    quiet clock counts the window from its last change (not before that) instead of from now. ``idle_ms``: enough
    in a document whose clock sees nothing its scripts scheduled (no timer due soon, no animation frame asked for,
    no animation); ``act_ago_ms``: how long ago the act began, so that the page's clocks started before it (an
    interval) are not waited for."""
    return PageCall("watch", "waitQuiet", {"quiet": quiet_ms, "timeout": timeout_ms, "actedAgo": acted_ago_ms,
                                           "idle": idle_ms, "actAgo": act_ago_ms})


class Due(TypedDict):
    known: bool  # the document has a quiet clock
    none: bool  # nothing scheduled within the time asked, and calm for the idle time


def nothing_due(within_ms: int, idle_ms: int, act_ago_ms: float | None = None, *,
                requests: bool = False) -> PageCall[Due]:
    """Whether the document's scripts have nothing due within ``within_ms`` that could send a request (a timer, an
    animation frame, a navigation started lately), ``idle_ms`` after its last change and its last scheduled work;
    ``act_ago_ms``: how long ago the act began, so that the page's clocks started before it are left out;
    ``requests``: nor a fetch or XMLHttpRequest sent since the act still unanswered."""
    return PageCall("watch", "nothingDue", {"within": within_ms, "idle": idle_ms, "actAgo": act_ago_ms,
                                            "requests": requests})


def start_clock() -> PageCall[Clock]:
    """The document's quiet clock (when it last changed, and what its scripts scheduled: timers, animation
    frames), started at document start by an init script."""
    return PageCall("watch", "startClock")
