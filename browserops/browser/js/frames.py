"""Typed call of ``js/frames.js``: where a child frame's document sits inside its element."""

from __future__ import annotations

from browserops.browser.scripts import ElementCall


def frame_box() -> ElementCall[tuple[bool, float, float]]:
    """(renders at all, content x offset, content y offset) of an iframe element."""
    return ElementCall("frames", "frameBox")
