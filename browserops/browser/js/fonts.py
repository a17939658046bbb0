"""Typed call of ``js/fonts.js``: waiting for a document's web fonts (run through DevTools)."""

from __future__ import annotations

from browserops.browser.scripts import PageCall


def fonts_ready() -> PageCall[int]:
    """Resolves to 1 once the document's web fonts are ready (for :func:`browserops.browser.scripts.run_devtools`)."""
    return PageCall("fonts", "fontsReady")
