"""Typed calls of ``js/banners.js``: the in-page half of the banner closer (see
:mod:`browserops.browser.page.banners`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from browserops.browser.scripts import PageCall


def scan(words: Mapping[str, Sequence[str]]) -> PageCall[list[dict[str, Any]]]:
    """Find consent/subscribe/age/region overlays and click one control of each (on the next task): one report
    item per overlay (token, kind, action, control, shadow?, retried, overlay: tag/id/position/rect). ``words``
    holds the word lists and, as ``cmp``, the selector of known consent platforms' roots."""
    return PageCall("banners", "scanBanners", words)


def still_open(tokens: list[int]) -> PageCall[dict[str, Any]]:
    """``open``: which of the overlays clicked earlier (by token) are still shown, JSON keys being the tokens as
    text; ``navs``: the navigations the frame started since the clicks (url, type, cancelled), handed over once."""
    return PageCall("banners", "stillOpen", {"tokens": tokens})


def release() -> PageCall[dict[str, Any]]:
    """Stop watching navigations after the closer's clicks in this frame; ``navs``: those recorded meanwhile."""
    return PageCall("banners", "releaseBanners", {})
