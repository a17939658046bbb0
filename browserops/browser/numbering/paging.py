"""Paging a listing of several frames from their kept walks.

Each frame keeps its last walk page-side (``list.js``: sorted, described on demand, valid until the document
changes); a frame's answer names that walk and, the first time Python meets it, gives every item's sort key
(group, y, x). With those keys kept here per frame, the merged order of all frames is known without walking
again, so a window of it (``offset``, ``limit``) maps to one contiguous range of each frame's own order, and
each frame describes only that range. A frame whose walk changed meanwhile answers with a new walk and its
keys; the ranges are then worked out again and the frames that lack items asked once more.
"""

from __future__ import annotations

from playwright.async_api import Page

from browserops.browser.launch.session import BrowserSession
from browserops.browser.state.frames import KeptOrders, Slot


def kept_orders(session: BrowserSession, page: Page) -> KeptOrders:
    state = session.state.kept_orders
    if state.page is not page:
        state.page, state.frames, state.merged, state.merged_of = page, {}, None, ()
    return state


def merged_order(state: KeptOrders) -> list[Slot]:
    """Every item of every kept frame in listing order: group, y, x, then the earlier frame, then frame order."""
    of = tuple(sorted((label, kept.walk) for label, kept in state.frames.items()))
    if state.merged is not None and state.merged_of == of:
        return state.merged
    keys: list[tuple[float, float, float, int, int, str]] = []
    for label, kept in state.frames.items():
        k = kept.keys
        keys.extend((k[3 * i], k[3 * i + 1], k[3 * i + 2], kept.order, i, label) for i in range(kept.total))
    keys.sort()
    state.merged, state.merged_of = [(k[5], k[4]) for k in keys], of
    return state.merged


def window_ranges(order: list[Slot], offset: int, limit: int) -> dict[str, tuple[int, int]]:
    """For each frame with items in the window, the range of its own order they are (start, end)."""
    out: dict[str, tuple[int, int]] = {}
    for label, i in order[offset:offset + limit]:
        lo, hi = out.get(label, (i, i + 1))
        out[label] = (min(lo, i), max(hi, i + 1))
    return out
