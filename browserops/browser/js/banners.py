"""Typed calls of ``js/banners.js``: the in-page half of the banner closer (see
:mod:`browserops.browser.page.banners`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from browserops.browser.scripts import PageCall


def scan(words: Mapping[str, list[str]]) -> PageCall[list[dict[str, Any]]]:
    """Find consent/subscribe/age/region overlays and click one control of each (on the next task): one report
    item per overlay (token, kind, action, control, shadow?, retried)."""
    return PageCall("banners", "scanBanners", words)


def still_open(tokens: list[int]) -> PageCall[dict[str, bool]]:
    """Which of the overlays clicked earlier (by token) are still shown; JSON keys are the tokens as text."""
    return PageCall("banners", "stillOpen", {"tokens": tokens})
