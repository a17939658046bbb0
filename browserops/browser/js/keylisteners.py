"""Typed calls of ``js/keylisteners.js``: which event listeners elements have, asked through DevTools'
command-line API (``getEventListeners``), which page scripts cannot call."""

from __future__ import annotations

from browserops.browser.scripts import PageCall


def listens_to_keys(blind_id: str) -> PageCall[bool | None]:
    """True when the element or a node above it (below the document) has a keydown/keypress/keyup listener;
    None when no element has the blind id. Run with :func:`browserops.browser.scripts.run_devtools`
    (``command_line_api=True``)."""
    return PageCall("keylisteners", "listensToKeys", {"id": blind_id})
