"""Typed calls of ``js/handoff.js``: hand an element from our isolated world to DevTools, and from DevTools to
Playwright (see :meth:`browserops.browser.numbering.isolated.FrameWorlds.element_handle`)."""

from __future__ import annotations

from typing import Any

from browserops.browser.scripts import ElementCall, PageCall


def element_by_id(blind_id: str) -> PageCall[Any]:
    """The element with ``blind_id``, by reference (:func:`browserops.browser.scripts.reference_in_context`)."""
    return PageCall("handoff", "elementById", {"id": blind_id})


def keep_element(key: str) -> ElementCall[bool]:
    """On an element DevTools holds in a frame's main world: keep it under ``key`` for :func:`take_element`."""
    return ElementCall("handoff", "keepElement", {"key": key})


def take_element(key: str) -> PageCall[Any]:
    """The element kept under ``key``, for :func:`browserops.browser.scripts.run_for_handle`."""
    return PageCall("handoff", "takeElement", {"key": key})
