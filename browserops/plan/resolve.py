"""Semantic target -> the element's current number, the way a screen-reader user finds a control.

A plan names its elements by ARIA role plus candidate accessible names (several languages) and optional
label/placeholder texts. :func:`resolve_target` lists the page's interactives through the catalogue, keeps the
elements of the right role (and frame), and matches names normalised (Unicode NFKC, case-folded, whitespace
collapsed, a trailing ``*``/``:`` dropped): an exact name first, then a name starting with a candidate, then
one containing it; then the labels through ``browser_find`` (which also reads label, placeholder and title).
Several exact matches are told apart by ``nth``; several fuzzy ones without ``nth`` are ambiguous. Nothing
found, or an ambiguity, is ``BROWSER_SITE_CHANGED`` naming the target and what the page offers instead.
"""

from __future__ import annotations

import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.listing_rows import listing_items
from browserops.plan.guard import GuardedTools
from browserops.plan.steps import Action, SemanticTarget, Step
from browserops.text import fold

LIST_LIMIT = 500  # the catalogue's maximum: one listing covers any ordinary form
MAX_ITEMS = 2000  # paging stops here; a target beyond it is not looked for
SEEN_IN_ERROR = 15
Tier = Literal["exact", "prefix", "contains", "label"]
_TIERS: tuple[Tier, ...] = ("exact", "prefix", "contains")
# Roles a person would not tell apart when naming a field.
_ROLE_EQUIVALENTS: dict[str, frozenset[str]] = {
    "textbox": frozenset({"textbox", "searchbox"}),
    "searchbox": frozenset({"searchbox", "textbox"}),
    "switch": frozenset({"switch", "checkbox"}),
}
_TRAILING = re.compile(r"[\s*:：]+$")


def label_key(text: str) -> str:
    """How names are compared: :func:`browserops.text.fold`, then a label's trailing '*' and ':' dropped."""
    return _TRAILING.sub("", fold(text))


def roles_for(role: str) -> frozenset[str]:
    return _ROLE_EQUIVALENTS.get(role, frozenset({role}))


@dataclass(frozen=True)
class Resolved:
    """The element a target resolved to, as listed just now."""

    number: int
    blind_id: str
    role: str
    name: str
    frame: str
    state: dict[str, Any]
    matched: str  # the candidate name or label that matched
    how: Tier
    kind: str | None = None  # input type when the listing gives one (date, file, password…)
    listing: dict[str, int] = field(default_factory=dict)  # limit/offset the number belongs to
    box: list[float] | None = None  # [x, y, width, height] in viewport CSS pixels when listed (evidence draws it)
    viewport: list[int] | None = None  # [width, height] of the viewport that box is in

    def act_args(self) -> dict[str, Any]:
        """Arguments that let browser_overlay_act re-list with the same window if another listing came since."""
        return dict(self.listing)


def _frame_ok(item: dict[str, Any], frame: str | None, frames: dict[str, str]) -> bool:
    if frame is None:
        return True
    where = str(item.get("frame", "main"))
    if where == frame:
        return True
    url = frames.get(where, "")
    return bool(url) and frame.casefold() in url.casefold()


def _pick(matches: list[dict[str, Any]], target: SemanticTarget, tier: Tier, candidate: str) -> dict[str, Any]:
    if tier != "exact" and len(matches) > 1 and target.nth == 0:
        names = ", ".join(f'{m.get("role")} "{m.get("name")}" (#{m.get("n")})' for m in matches[:6])
        raise BrowserOpsError(
            ErrorCode.SITE_CHANGED,
            f"{target.describe()} is ambiguous: {len(matches)} elements match {candidate!r} only partly ({names}). "
            "The site changed, or the target needs an exact name or 'nth'; re-run prepare after fixing it.",
            details={"target": target.model_dump(mode="json", by_alias=True), "ambiguous": True,
                     "seen": [{"n": m.get("n"), "role": m.get("role"), "name": m.get("name")}
                              for m in matches[:SEEN_IN_ERROR]]},
        )
    if target.nth >= len(matches):
        raise _not_found(target, matches, note=f"only {len(matches)} match {candidate!r}, nth is {target.nth}")
    return matches[target.nth]


def match_items(items: Sequence[dict[str, Any]], target: SemanticTarget,
                frames: dict[str, str] | None = None) -> tuple[dict[str, Any], str, Tier] | None:
    """The item for ``target`` among listed items (by name only), or None. Raises on ambiguity."""
    roles = roles_for(target.role)
    pool = [(label_key(str(i.get("name", ""))), i) for i in items
            if i.get("role") in roles and _frame_ok(i, target.frame, frames or {})]
    for tier in _TIERS:
        for candidate in target.names:
            want = label_key(candidate)
            if not want:
                continue
            if tier == "exact":
                found = [i for name, i in pool if name == want]
            elif tier == "prefix":
                found = [i for name, i in pool if name.startswith(want)]
            else:
                found = [i for name, i in pool if want in name]
            if found:
                return _pick(found, target, tier, candidate), candidate, tier
    return None


def _not_found(target: SemanticTarget, seen: Sequence[dict[str, Any]], *, note: str = "") -> BrowserOpsError:
    tried = ", ".join(repr(n) for n in [*target.names, *target.labels][:8])
    shown = ", ".join(f'{i.get("role")} "{i.get("name")}"' for i in seen[:SEEN_IN_ERROR]) or "none"
    extra = f" ({note})" if note else ""
    return BrowserOpsError(
        ErrorCode.SITE_CHANGED,
        f"Cannot find {target.describe()} on the page{extra}: tried {tried}. Elements of that role here: {shown}. "
        "The site changed: update the pack's or step file's target names, then re-run prepare.",
        details={"target": target.model_dump(mode="json", by_alias=True),
                 "seen": [{"n": i.get("n"), "role": i.get("role"), "name": i.get("name")}
                          for i in seen[:SEEN_IN_ERROR]]},
    )


async def list_all(tools: GuardedTools) -> tuple[list[dict[str, Any]], dict[str, str], dict[int, dict[str, int]]]:
    """Every listed item (paging past 500 when needed), the frames, and which window each number is in."""
    items: list[dict[str, Any]] = []
    frames: dict[str, str] = {}
    windows: dict[int, dict[str, int]] = {}
    offset = 0
    while True:
        data = await tools.need("browser_list_interactives", {"limit": LIST_LIMIT, "offset": offset, "boxes": True,
                                                                  "ids": True, "format": "objects"})
        page = listing_items(data)
        frames.update(data.get("frames") or {})
        for item in page:
            windows[int(item["n"])] = {"limit": LIST_LIMIT, "offset": offset}
            if data.get("viewport"):
                item["viewport"] = data["viewport"]
        items += page
        offset += LIST_LIMIT
        if not data.get("more") or not page or offset >= MAX_ITEMS:
            return items, frames, windows


async def _by_label(tools: GuardedTools, target: SemanticTarget) -> tuple[dict[str, Any], str] | None:
    roles = roles_for(target.role)
    for label in target.labels:
        data = await tools.need("browser_find", {"role": target.role, "text": label, "limit": 20})
        found = [m for m in listing_items(data, "matches")
                 if m.get("role") in roles and _frame_ok(m, target.frame, data.get("frames") or {})]
        if found:
            return _pick(found, target, "label", label), label
    return None


async def resolve_once(tools: GuardedTools, target: SemanticTarget) -> Resolved:
    items, frames, windows = await list_all(tools)
    hit = match_items(items, target, frames)
    if hit is not None:
        item, candidate, tier = hit
        window = windows.get(int(item["n"]), {})
        # Only a window other than the first needs naming: overlay_act then re-lists with it first.
        listing = window if window.get("offset") else {}
        return _resolved(item, candidate, tier, listing)
    if target.labels:
        found = await _by_label(tools, target)
        if found is not None:
            listed = next((i for i in items if i.get("n") == found[0].get("n")), {})
            return _resolved({**listed, **found[0]}, found[1], "label", {})
    roles = roles_for(target.role)
    raise _not_found(target, [i for i in items if i.get("role") in roles] or items)


def _resolved(item: dict[str, Any], candidate: str, tier: Tier, listing: dict[str, int]) -> Resolved:
    return Resolved(number=int(item["n"]), blind_id=str(item["id"]), role=str(item.get("role", "")),
                    name=str(item.get("name", "")), frame=str(item.get("frame", "main")),
                    state=dict(item.get("state") or {}), matched=candidate, how=tier, kind=item.get("type"),
                    listing=listing, box=item.get("box"), viewport=item.get("viewport"))


async def resolve_target(tools: GuardedTools, target: SemanticTarget, *, timeout_ms: int = 5000,
                         quiet_ms: int = 1500) -> Resolved:
    """Resolve ``target`` on the current page. A page still rendering gets time: when nothing matches, wait
    for the DOM to settle and look again, until ``timeout_ms``; a settled page without it is SITE_CHANGED."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        try:
            return await resolve_once(tools, target)
        except BrowserOpsError as exc:
            if (exc.code is not ErrorCode.SITE_CHANGED or exc.details.get("ambiguous")
                    or time.monotonic() >= deadline):
                raise
            left = int((deadline - time.monotonic()) * 1000)
            waited = await tools.need("browser_wait", {"timeout_ms": max(100, min(quiet_ms, left))})
            if waited.get("dom_quiet") and not waited.get("note") and waited.get("waited_ms", 0) < 400:
                # The page was already quiet: it is not going to grow the element. One last look, then fail.
                return await resolve_once(tools, target)


class PageListing:
    """One listing of a page that does not change meanwhile, to resolve many targets (prepare walks a page
    without acting; run checks a page's fields before acting). A target the listing lacks is looked for
    afresh, with the waits of :func:`resolve_target`."""

    def __init__(self, tools: GuardedTools) -> None:
        self.tools = tools
        self._listed: tuple[list[dict[str, Any]], dict[str, str], dict[int, dict[str, int]]] | None = None

    def forget(self) -> None:
        self._listed = None

    async def resolve(self, target: SemanticTarget) -> Resolved:
        if self._listed is None:
            self._listed = await list_all(self.tools)
        items, frames, windows = self._listed
        hit = match_items(items, target, frames)
        if hit is None:
            self._listed = None  # the fresh look below stores another latest listing
            return await resolve_target(self.tools, target)
        item, candidate, tier = hit
        window = windows.get(int(item["n"]), {})
        return _resolved(item, candidate, tier, window if window.get("offset") else {})


# --------------------------------------------------------------------------- values


def current_value(step: Step, element: Resolved) -> str | None:
    """What the field holds now, as the diff shows it (None for a secret field: never read)."""
    state = element.state
    if step.sensitive:
        return "(filled)" if state.get("filled") or state.get("value") else ""
    if step.action is Action.CHECK:
        checked = state.get("checked") is True
        if step.display is not None:
            return step.display if checked else ""
        return "true" if checked else "false"
    if step.action is Action.UPLOAD:
        files = int(state.get("files") or 0)
        return f"{files} file{'s' if files != 1 else ''} attached" if files else ""
    value = state.get("value")
    return str(value) if value is not None else ""


def wanted_value(step: Step) -> str | None:
    """What the field will hold after the step, as the diff shows it (None: only known at run time)."""
    if step.action is Action.CHECK:
        want = step.value is True
        if step.display is not None:
            return step.display if want else ""
        return "true" if want else "false"
    if step.action is Action.UPLOAD:
        if step.display is not None:
            return step.display
        files = upload_files(step)
        return ", ".join(f.replace("\\", "/").rsplit("/", 1)[-1] for f in files)
    if isinstance(step.value, str):
        return step.value
    return None


def upload_files(step: Step) -> list[str]:
    """An upload step's file paths (its value is one path or a list)."""
    if isinstance(step.value, str):
        return [step.value]
    return list(step.value) if isinstance(step.value, list) else []
