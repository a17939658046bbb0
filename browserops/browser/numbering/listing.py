"""The numbering engine: enumerate interactive elements in every frame, number them, store the listing.

One ``evaluate`` of ``js/list.js`` per rendered frame (run concurrently: :mod:`.scan`) walks the composed
tree, keeps the visible interactive elements sorted viewport first, and describes only the window asked for.
The walk is kept page-side for the document's current state: every listing (its first page included), its
further pages and ``browser_find`` are described from the kept walk while nothing changed (a mutation,
scrolling, focus, typing… make the next call walk again; state such as values and checked is described afresh
each time), so paging through a 5,000-item page walks it once, listing an unchanged page again costs only the
describing, and numbers stay the same across the pages of one listing. Several frames are merged by the sort keys each
frame gives once per walk (:mod:`.paging`). See :mod:`browserops.browser.numbering.elements` for the
numbering rule and :mod:`.containers` for ``in``.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass
from typing import Any

from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.elements import store_listing
from browserops.browser.numbering.frames import MAIN
from browserops.browser.numbering.isolated import FrameWorlds
from browserops.browser.numbering.paging import kept_orders, merged_order, window_ranges
from browserops.browser.numbering.scan import FrameResult, Frames, Scan, prepare, scan
from browserops.browser.numbering.scope import Scope, expand_role, parse_scope, scope_error
from browserops.browser.state.containers import Container
from browserops.browser.state.frames import FrameOrder, FrameView, KeptOrders
from browserops.browser.state.listing import ListedElement, Listing
from browserops.contract import LISTING_MAX_LIMIT, BrowserOpsError, ErrorCode
from browserops.listing_rows import format_row

log = logging.getLogger(__name__)
MAX_LIMIT = LISTING_MAX_LIMIT  # the tool definitions check it too (contract.py)
Described = list[tuple[FrameView, dict[str, Any]]]  # the window's items as their frames described them
__all__ = ["MAX_LIMIT", "FindResult", "expand_role", "find_elements", "list_interactives", "listing_data"]


def _frame_titles(results: list[FrameResult]) -> dict[str, str]:
    return {r.view.label: r.view.frame.url for r in results if r.view.label != MAIN}


def _item(view: FrameView, raw: dict[str, Any], number: int, keep_new: bool) -> ListedElement:
    cov = raw.get("cov")
    return ListedElement(
        number=number,
        blind_id=str(raw["id"]),
        role=str(raw.get("role", "")),
        name=str(raw.get("name", "")),
        frame=view.label,
        state=dict(raw.get("st") or {}),
        in_viewport=raw.get("g") in (0, 1),
        new=keep_new and bool(raw.get("nw")),
        bbox={"x": float(raw["x"]), "y": float(raw["ty"]), "width": float(raw["w"]), "height": float(raw["h"])},
        kind=raw.get("t"),
        covered=str(cov) if cov else None,
        name_guessed=bool(raw.get("gn")),
        within=Container.from_raw(raw),
    )


def _sort_key(raw: dict[str, Any], view: FrameView) -> tuple[float, float, float, int, int]:
    return (float(raw["g"]), float(raw["y"]), float(raw["x"]), view.order, int(raw["i"]))


def _keep_orders(state: KeptOrders, results: list[FrameResult]) -> None:
    """Remember each frame's kept walk and keys from its answer; forget frames no longer listed."""
    for r in results:
        keys = r.data.get("keys")
        if keys is not None:
            state.frames[r.view.label] = FrameOrder(str(r.data.get("walk", "")), list(keys),
                                                    r.view.order)
        elif r.view.label in state.frames:
            state.frames[r.view.label].order = r.view.order
    listed = {r.view.label for r in results}
    for gone in [label for label in state.frames if label not in listed]:
        del state.frames[gone]


class _Window:
    """The unscoped listing of several frames: each frame describes only its part of the window, found from the
    kept sort keys (a first listing, or a frame not met before, describes its head and gives its keys)."""

    def __init__(self, state: KeptOrders, offset: int, limit: int, containers: bool, reuse: bool) -> None:
        self.state, self.offset, self.limit, self.containers = state, offset, limit, containers
        self.reuse = reuse
        order = merged_order(state) if offset and state.frames else []
        self.ranges = window_ranges(order, offset, limit) if order else None

    def args(self, view: FrameView) -> dict[str, Any]:
        base = {"reuse": self.reuse, "first": self.offset == 0, "keys": True, "track": True,
                "containers": self.containers}
        kept = self.state.frames.get(view.label)
        if self.ranges is None or kept is None:
            return {**base, "start": 0, "end": self.offset + self.limit, "known": None}
        start, end = self.ranges.get(view.label, (0, 0))
        return {**base, "start": start, "end": end, "known": kept.walk}

    async def list(self, session: BrowserSession, worlds: FrameWorlds, frames: Frames) -> tuple[Scan, Described]:
        scanned = await scan(session, worlds, frames, self.args)
        _keep_orders(self.state, scanned.results)
        described = {(r.view.label, int(raw["i"])): (r.view, raw) for r in scanned.results for raw in r.data["items"]}
        need = window_ranges(merged_order(self.state), self.offset, self.limit)
        views = {r.view.label: r.view for r in scanned.results}
        missing = [views[label] for label, (lo, hi) in need.items()
                   if label in views and any((label, i) not in described for i in range(lo, hi))]
        if missing:  # a frame changed between its walk and this page: describe what the new order needs
            self.ranges = need
            again = await scan(session, worlds, Frames(missing, None), lambda v: {**self.args(v), "reuse": True})
            _keep_orders(self.state, again.results)
            described.update({(r.view.label, int(raw["i"])): (r.view, raw) for r in again.results
                              for raw in r.data["items"]})
            scanned.failed.update(again.failed)
        window = merged_order(self.state)[self.offset:self.offset + self.limit]
        return scanned, [described[slot] for slot in window if slot in described]


def _may_reuse(session: BrowserSession) -> bool:
    # Set once a call that may change the page ends (SessionState.page_may_change): then this listing walks anew.
    return not session.state.walk_afresh


def _walked(session: BrowserSession) -> None:
    session.state.walk_afresh = False


async def list_interactives(
    session: BrowserSession,
    *,
    limit: int,
    offset: int = 0,
    scope: str | int | None = None,
    store: bool = True,
    containers: bool = False,
) -> Listing:
    """Enumerate, number and (by default) store the listing as the session's latest.

    ``new`` flags mark elements absent from the previous unscoped listing of the same document; the first
    listing of a document flags nothing. ``containers``: name every item's container (``within``), not only
    those whose role and name repeat.
    """
    if not 1 <= limit <= MAX_LIMIT:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"limit must be 1..{MAX_LIMIT}, got {limit}.")
    if offset < 0:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"offset must be 0 or more, got {offset}.")
    parsed = parse_scope(session, scope)
    started = time.perf_counter()
    page, worlds, frames = await prepare(session, parsed.frame)
    prepared = time.perf_counter()
    single = frames.children is None and len(frames.first) == 1
    reuse = _may_reuse(session)
    if parsed.js() is not None or parsed.frame is not None or single:
        scanned, window = await _list_simple(session, worlds, frames, parsed, offset, limit, containers, single,
                                             reuse)
    else:
        scanned, window = await _Window(kept_orders(session, page), offset, limit, containers, reuse).list(
            session, worlds, frames)
    _walked(session)
    results = scanned.results
    if parsed.container and not any(r.data.get("scopeFound") for r in results):
        seen = list(dict.fromkeys(c for r in results for c in r.data.get("containers") or []))
        raise scope_error(parsed, seen)
    main = next((r for r in results if r.view.label == MAIN), None)
    keep_new = bool(main and main.data.get("had"))
    items = [_item(view, raw, offset + i + 1, keep_new) for i, (view, raw) in enumerate(window)]
    listing = Listing(page=page, items=items, total=sum(int(r.data["total"]) for r in results), limit=limit,
                      offset=offset, scope=parsed.raw, frames={r.view.label: r.view.frame for r in results},
                      frame_titles=_frame_titles(results), url=page.url, failed=scanned.failed,
                      walked=sum(1 for r in results if not r.data.get("reused")),
                      lang=str(main.data.get("lang") or "") if main else "")
    if store:
        store_listing(session, listing)
    if log.isEnabledFor(logging.DEBUG):  # where a slow listing's time went (bench/real_pages.py --phases)
        log.debug("listing offset %d: %.0f ms (prepare %.0f ms), %d frames, %d walked, %d items, %d failed", offset,
                  (time.perf_counter() - started) * 1000, (prepared - started) * 1000, len(results),
                  listing.walked, listing.total, len(listing.failed))
    return listing


async def _list_simple(session: BrowserSession, worlds: FrameWorlds, frames: Frames, parsed: Scope, offset: int,
                       limit: int, containers: bool, single: bool, reuse: bool) -> tuple[Scan, Described]:
    """One frame (its order is the listing's, so it describes just the window: from its kept walk for pages
    after the first), or a scoped listing (walked anew each time; each frame describes its head up to
    ``offset + limit`` and the merge decides)."""
    unscoped = parsed.js() is None
    skip = offset if single else 0
    args = {"start": skip, "end": offset + limit, "reuse": unscoped and reuse, "first": offset == 0,
            "scope": parsed.js(),
            "track": unscoped and parsed.frame is None, "containers": containers}
    scanned = await scan(session, worlds, frames, lambda _: args)
    merged = sorted(((r.view, raw) for r in scanned.results for raw in r.data["items"]),
                    key=lambda pair: _sort_key(pair[1], pair[0]))
    return scanned, merged[offset - skip: offset - skip + limit]


@dataclass
class FindResult:
    listing: Listing  # the matches (full-order numbers), stored as the latest listing
    matches: int  # how many elements matched in all


async def find_elements(session: BrowserSession, *, text: str | None, role: str | None, limit: int,
                        offset: int = 0, within: str | None = None) -> FindResult:
    """Match visible interactive elements by accessible name, label, placeholder, title, aria-label or text
    (case-insensitive, whitespace-normalised, partial, any script) and/or role, and by the naming of their
    container (``within``). Best matches first (exact name, then name prefix, then contains, then other label
    sources), each with its full-order number. Served from the frames' kept walks while the page is unchanged.
    """
    if not any(v and v.strip() for v in (text, role, within)):
        raise BrowserOpsError(ErrorCode.INVALID_ARGS,
                              "Give text or role (or within, or several) to find; all are empty.")
    if not 1 <= limit <= MAX_LIMIT or offset < 0:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"limit must be 1..{MAX_LIMIT} and offset 0 or more.")
    page, worlds, frames = await prepare(session, None)
    state = kept_orders(session, page)
    single = frames.children is None and len(frames.first) == 1
    reuse = _may_reuse(session)
    match = {"text": text.strip() if text else "", "roles": expand_role(role), "within": (within or "").strip()}

    def args(view: FrameView) -> dict[str, Any]:
        kept = state.frames.get(view.label)
        # One frame: an item's number is its place in that frame's order; several: the merged keys say.
        return {"start": 0, "end": 0, "reuse": reuse, "match": match, "track": False, "keys": not single,
                "known": kept.walk if kept else None}

    scanned = await scan(session, worlds, frames, args)
    _walked(session)
    results = scanned.results
    found = [(r.view, raw) for r in results for raw in r.data["items"]]
    if single:
        position = {(view.label, int(raw["i"])): int(raw["i"]) + 1 for view, raw in found}
    else:
        _keep_orders(state, results)
        position = {slot: n + 1 for n, slot in enumerate(merged_order(state))}
    found.sort(key=lambda pair: (int(pair[1].get("rank", 3)), position.get((pair[0].label, int(pair[1]["i"])), 0)))
    window = found[offset: offset + limit]
    items = [_item(view, raw, position.get((view.label, int(raw["i"])), 0), False) for view, raw in window]
    listing = Listing(page=page, items=items, total=sum(int(r.data["total"]) for r in results), limit=limit,
                      offset=offset, kind="find", frames={r.view.label: r.view.frame for r in results},
                      frame_titles=_frame_titles(results), url=page.url, failed=scanned.failed,
                      walked=sum(1 for r in results if not r.data.get("reused")))
    store_listing(session, listing)
    return FindResult(listing, len(found))


def listing_data(listing: Listing, *, hint: bool = True, boxes: bool = False, ids: bool = False,
                 rows: bool = True) -> dict[str, Any]:
    """The compact form an LLM receives: short keys, nothing empty, each item a row
    (:mod:`browserops.listing_rows`), or with ``rows=False`` an object. ``boxes``: each item's box and the
    viewport size too (evidence draws the acted-on element on its screenshot). ``ids``: each item's stable id.

    In-viewport items come first in a listing's order, so one ``off_screen_from`` (the first number that is
    off-screen) says for every item what a per-item flag would."""
    objects = [item.to_dict(with_id=ids, viewport_flag=False) for item in listing.items]
    if boxes:
        for item, out in zip(listing.items, objects, strict=True):
            if item.bbox is not None:
                out["box"] = [round(item.bbox[k], 1) for k in ("x", "y", "width", "height")]
    data: dict[str, Any] = {"items": [format_row(o) for o in objects] if rows else objects, "total": listing.total}
    off_screen = next((item.number for item in listing.items if not item.in_viewport), None)
    if off_screen is not None:
        data["off_screen_from"] = off_screen
    if boxes:
        size = listing.page.viewport_size
        if size:
            data["viewport"] = [size["width"], size["height"]]
    shown_to = listing.offset + len(listing.items)
    more = max(0, listing.total - shown_to)
    if listing.kind == "list":
        if listing.offset:
            data["offset"] = listing.offset
        if more:
            data["more"] = more
            if hint:
                data["next"] = f"offset={shown_to}"
    if listing.scope:
        data["scope"] = listing.scope
    if listing.frame_titles:
        data["frames"] = listing.frame_titles
    if listing.lang:
        data["lang"] = listing.lang
    if listing.failed:
        data["frames_failed"] = listing.failed
    blocked = list(dict.fromkeys(item.covered for item in listing.items if item.covered))
    if blocked:
        data["covered_by"] = blocked[:3]
    new = sum(1 for item in listing.items if item.new)
    if new:
        data["new"] = new
    return data
