"""The numbering engine: enumerate interactive elements in every frame, number them, store the listing.

One ``evaluate`` of ``js/list.js`` per rendered frame (run concurrently: :mod:`.scan`) walks the composed
tree, keeps the visible interactive elements, sorts them viewport first and describes only the ``offset + limit``
first ones; Python merges the frames' sorted heads, so a listing of 40 items on a 5000-element page stays cheap.
See :mod:`browserops.browser.numbering.elements` for the numbering rule.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.elements import ListedElement, Listing, store_listing
from browserops.browser.numbering.frames import MAIN, FrameView
from browserops.browser.numbering.locate import coerce_target, identify_target
from browserops.browser.numbering.scan import FrameResult, prepare, scan
from browserops.contract import LISTING_MAX_LIMIT, BrowserOpsError, ErrorCode

MAX_LIMIT = LISTING_MAX_LIMIT  # the tool definitions check it too (contract.py)
_FRAME_LABEL = re.compile(r"^f\d+$")
_BLIND_ID = re.compile(r"^(?:f\d+)?b\d+$")

# Words people (and models) use for roles, mapped to the roles the engine reports.
ROLE_ALIASES: dict[str, tuple[str, ...]] = {
    "input": ("textbox", "searchbox", "spinbutton", "combobox"),
    "field": ("textbox", "searchbox", "spinbutton", "combobox", "listbox", "checkbox", "radio", "switch", "slider"),
    "text": ("textbox", "searchbox"),
    "textbox": ("textbox", "searchbox"),
    "textarea": ("textbox",),
    "edit": ("textbox", "searchbox", "spinbutton"),
    "search": ("searchbox", "textbox"),
    "select": ("combobox", "listbox"),
    "dropdown": ("combobox", "listbox"),
    "combo": ("combobox",),
    "list": ("listbox", "combobox"),
    "check": ("checkbox", "switch"),
    "checkbox": ("checkbox",),
    "toggle": ("switch", "checkbox"),
    "a": ("link",),
    "links": ("link",),
    "buttons": ("button",),
    "btn": ("button",),
    "menu item": ("menuitem", "menuitemcheckbox", "menuitemradio"),
    "menuitem": ("menuitem", "menuitemcheckbox", "menuitemradio"),
}


def expand_role(role: str | None) -> list[str]:
    if not role or not role.strip():
        return []
    key = " ".join(role.strip().lower().split())
    return list(ROLE_ALIASES.get(key, (key,)))


@dataclass
class _Scope:
    """What a listing is restricted to: the viewport, one frame, or a container (by blind id or name)."""

    raw: str | None = None
    viewport: bool = False
    frame: str | None = None
    blind_id: str | None = None
    text: str | None = None

    def js(self) -> dict[str, Any] | None:
        if self.viewport:
            return {"viewport": True}
        if self.blind_id:
            return {"id": self.blind_id}
        if self.text:
            return {"text": self.text}
        return None


def _parse_scope(session: BrowserSession, scope: str | int | None) -> _Scope:
    if scope is None or (isinstance(scope, str) and not scope.strip()):
        return _Scope()
    target = coerce_target(scope)
    if isinstance(target, int):
        try:
            _, blind_id = identify_target(session, target)
        except BrowserOpsError as exc:
            raise BrowserOpsError(
                exc.code,
                f"scope {target} is not a number of the latest listing. Use a container's name (e.g. 'dialog', "
                "'Contact details'), its element id, 'viewport' or a frame label such as 'f1'.",
            ) from exc
        return _Scope(raw=str(scope), blind_id=blind_id)
    text = str(target).strip()
    if text.lower() == "viewport":
        return _Scope(raw=text, viewport=True)
    if _FRAME_LABEL.match(text):
        return _Scope(raw=text, frame=text)
    if _BLIND_ID.match(text):
        return _Scope(raw=text, blind_id=text)
    return _Scope(raw=text, text=text)


def _frame_titles(views: list[FrameView]) -> dict[str, str]:
    out: dict[str, str] = {}
    for v in views:
        if v.label != MAIN:
            out[v.label] = v.frame.url
    return out




def _scope_error(scope: _Scope, results: list[FrameResult]) -> BrowserOpsError:
    seen: list[str] = []
    for r in results:
        for c in r.data.get("containers") or []:
            if c not in seen:
                seen.append(c)
    hint = f" Containers on this page: {', '.join(seen[:12])}." if seen else ""
    return BrowserOpsError(
        ErrorCode.ELEMENT_NOT_FOUND,
        f"Nothing on the page matches scope {scope.raw!r} (a dialog, form, region or landmark by role or name, "
        f"an element id, 'viewport' or a frame label).{hint}",
    )


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
    )


def _sort_key(raw: dict[str, Any], view: FrameView) -> tuple[float, float, float, int, int]:
    return (float(raw["g"]), float(raw["y"]), float(raw["x"]), view.order, int(raw["i"]))


async def list_interactives(
    session: BrowserSession,
    *,
    limit: int,
    offset: int = 0,
    scope: str | int | None = None,
    store: bool = True,
) -> Listing:
    """Enumerate, number and (by default) store the listing as the session's latest.

    ``new`` flags mark elements absent from the previous unscoped listing of the same document; the first
    listing of a document flags nothing.
    """
    if not 1 <= limit <= MAX_LIMIT:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"limit must be 1..{MAX_LIMIT}, got {limit}.")
    if offset < 0:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"offset must be 0 or more, got {offset}.")
    parsed = _parse_scope(session, scope)
    page, runner, frames = await prepare(session, parsed.frame)
    tracking = parsed.js() is None and parsed.frame is None
    # One frame to list: its own order is the listing's, so it describes only this window (paging through a
    # 5000-item page described 500, 1000, ... 5000 items per call before). Several frames: each describes
    # its head up to offset + limit, since the merge decides which frame's items fall in the window.
    skip = offset if frames.children is None and len(frames.first) == 1 else 0
    scanned = await scan(session, runner, frames, {"keep": offset + limit, "skip": skip, "scope": parsed.js(),
                                                   "match": None, "track": tracking})
    results = scanned.results
    if parsed.js() and (parsed.blind_id or parsed.text) and not any(r.data.get("scopeFound") for r in results):
        raise _scope_error(parsed, results)
    main = next((r for r in results if r.view.label == MAIN), None)
    keep_new = bool(main and main.data.get("had"))
    merged = sorted(
        ((r.view, raw) for r in results for raw in r.data["items"]), key=lambda pair: _sort_key(pair[1], pair[0])
    )
    window = merged[offset - skip : offset - skip + limit]
    items = [_item(view, raw, offset + i + 1, keep_new) for i, (view, raw) in enumerate(window)]
    total = sum(int(r.data["total"]) for r in results)
    listing = Listing(
        page=page,
        items=items,
        total=total,
        limit=limit,
        offset=offset,
        scope=parsed.raw,
        frames={r.view.label: r.view.frame for r in results},
        frame_titles=_frame_titles([r.view for r in results]),
        url=page.url,
        failed=scanned.failed,
    )
    if store:
        store_listing(session, listing)
    return listing


@dataclass
class FindResult:
    listing: Listing  # the matches (full-order numbers), stored as the latest listing
    matches: int  # how many elements matched in all


async def find_elements(
    session: BrowserSession, *, text: str | None, role: str | None, limit: int, offset: int = 0
) -> FindResult:
    """Match visible interactive elements by accessible name, label, placeholder, title, aria-label or text
    (case-insensitive, whitespace-normalised, partial, any script) and/or role. Best matches first (exact
    name, then name prefix, then contains, then other label sources), each with its full-order number.
    """
    if not (text and text.strip()) and not (role and role.strip()):
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, "Give text or role (or both) to find; both are empty.")
    if not 1 <= limit <= MAX_LIMIT or offset < 0:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"limit must be 1..{MAX_LIMIT} and offset 0 or more.")
    page, runner, frames = await prepare(session, None)
    match = {"text": text.strip() if text else "", "roles": expand_role(role)}
    scanned = await scan(session, runner, frames, {"keep": 0, "scope": None, "match": match, "track": False})
    results = scanned.results
    # Full order across frames: number = 1 + position among every frame's sorted keys.
    keys: list[tuple[float, float, float, int, int]] = []
    for r in results:
        for i, k in enumerate(r.data.get("keys") or []):
            keys.append((float(k[0]), float(k[1]), float(k[2]), r.view.order, i))
    keys.sort()
    position = {(k[3], k[4]): n + 1 for n, k in enumerate(keys)}
    found = [(r.view, raw) for r in results for raw in r.data["items"]]
    found.sort(key=lambda pair: (int(pair[1].get("rank", 3)), position[(pair[0].order, int(pair[1]["i"]))]))
    window = found[offset : offset + limit]
    items = [_item(view, raw, position[(view.order, int(raw["i"]))], False) for view, raw in window]
    listing = Listing(
        page=page,
        items=items,
        total=len(keys),
        limit=limit,
        offset=offset,
        kind="find",
        frames={r.view.label: r.view.frame for r in results},
        frame_titles=_frame_titles([r.view for r in results]),
        url=page.url,
        failed=scanned.failed,
    )
    store_listing(session, listing)
    return FindResult(listing, len(found))


def listing_data(listing: Listing, *, hint: bool = True, boxes: bool = False, ids: bool = False) -> dict[str, Any]:
    """The compact form an LLM receives: short keys, nothing empty. ``boxes``: each item's box and the viewport
    size too (evidence draws the acted-on element on its screenshot). ``ids``: each item's stable id too.

    In-viewport items come first in a listing's order, so one ``off_screen_from`` (the first number that is
    off-screen) says for every item what a per-item flag would."""
    data: dict[str, Any] = {"items": [item.to_dict(with_id=ids, viewport_flag=False) for item in listing.items],
                            "total": listing.total}
    off_screen = next((item.number for item in listing.items if not item.in_viewport), None)
    if off_screen is not None:
        data["off_screen_from"] = off_screen
    if boxes:
        for item, out in zip(listing.items, data["items"], strict=True):
            if item.bbox is not None:
                out["box"] = [round(item.bbox[k], 1) for k in ("x", "y", "width", "height")]
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
    if listing.failed:
        data["frames_failed"] = listing.failed
    blocked = list(dict.fromkeys(item.covered for item in listing.items if item.covered))
    if blocked:
        data["covered_by"] = blocked[:3]
    new = sum(1 for item in listing.items if item.new)
    if new:
        data["new"] = new
    return data
