"""Semantic target -> the element's current number, the way a screen-reader user finds a control.

A plan names its elements by ARIA role plus candidate accessible names (several languages) and optional
label/placeholder texts. :func:`resolve_target` lists the page's interactives through the catalogue, keeps the
elements of the right role (and frame), and matches names normalised (Unicode NFKC, case-folded, whitespace
collapsed, a trailing ``*``/``:`` dropped): an exact name first, then a name starting with a candidate, then
one containing it; then the labels through ``browser_find`` (which also reads label, placeholder and title).
Several exact matches are told apart by ``nth``; several fuzzy ones without ``nth`` are ambiguous. Nothing
found, or an ambiguity, is ``BROWSER_SITE_CHANGED`` naming the target and what the page offers instead.

A target with ``within`` (the row, post, card or dialog it is in) is looked for only among the elements whose
container — the listing's ``in``/``in_role`` with ``containers=True`` — has that role and a matching name, the
closest naming first (exact, then starting with, then containing); elements in a looser-named container are
never taken while one of an exact name is on the page. More than one element left (in several containers, or
twice in one) without ``nth`` is ambiguous and refused, the candidates listed. Once prepare has seen the
container, run takes only a container of exactly that name (:attr:`~browserops.plan.model.PlanAction.
matched_within`): a removed row is ``BROWSER_SITE_CHANGED``, never the next row whose name starts the same.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.listing_rows import listing_items
from browserops.plan.interpret.guard import GuardedTools
from browserops.plan.model.step_values import upload_files as upload_files
from browserops.plan.model.step_values import wanted_value as wanted_value
from browserops.plan.model.steps import SemanticTarget, container_role
from browserops.text import name_key, without_icon_words

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
    # A combobox that is a text box (a tag input, Select2 3's search field) lists as a textbox.
    "combobox": frozenset({"combobox", "textbox", "searchbox"}),
}


def label_key(text: str) -> str:
    """How names are compared: :func:`browserops.text.name_key` (folded, CJK spacing and a required field's '*'
    and a label's ':' dropped)."""
    return name_key(text)


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
    within: str | None = None  # the name of the container it was found in (a target with ``within``)
    lang: str | None = None  # the page's language, which its values are written in (values.same_value)

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


def _tier_match(name: str, want: str, tier: Tier) -> bool:
    if tier == "exact":
        return name == want
    return name.startswith(want) if tier == "prefix" else want in name


def _container_of(item: dict[str, Any]) -> tuple[str, str] | None:
    """(within role, folded name) of the container the listing named for ``item``, or None."""
    name = item.get("in")
    if not isinstance(name, str) or not name.strip():
        return None
    return container_role(str(item.get("in_role") or "generic")), label_key(name)


def in_container(items: Sequence[dict[str, Any]], target: SemanticTarget,
                 seen: str | None = None) -> list[dict[str, Any]]:
    """The items in the container ``target.within`` names: those whose container has its role and, of its
    names, the closest naming any container on the page has (exact, then prefix, then contains; a looser
    tier is tried only when no container is named more closely). ``seen``: exactly this container name."""
    within = target.within
    if within is None:
        return list(items)
    named = [(c, i) for i in items if (c := _container_of(i)) is not None and c[0] == within.role]
    if seen is not None:
        want = label_key(seen)
        return [i for (_, name), i in named if name == want]
    for tier in _TIERS:
        wants = [w for w in (label_key(n) for n in within.names) if w]
        inside = [i for (_, name), i in named if any(_tier_match(name, w, tier) for w in wants)]
        if inside:
            return inside
    return []


def _ambiguous_within(found: list[dict[str, Any]], target: SemanticTarget) -> BrowserOpsError:
    listed = ", ".join(f'{m.get("role")} "{m.get("name")}" in {m.get("in_role") or "group"} "{m.get("in")}" '
                       f'(#{m.get("n")})' for m in found[:6])
    return BrowserOpsError(
        ErrorCode.SITE_CHANGED,
        f"{target.describe()} is ambiguous: {len(found)} elements match ({listed}). Name the container more "
        "closely (its full name as the listing's 'in' reads it), or add 'nth'; then re-run prepare.",
        details={"target": target.model_dump(mode="json", by_alias=True), "ambiguous": True,
                 "seen": [{"n": m.get("n"), "role": m.get("role"), "name": m.get("name"), "in": m.get("in")}
                          for m in found[:SEEN_IN_ERROR]]},
    )


def match_items(items: Sequence[dict[str, Any]], target: SemanticTarget,
                frames: dict[str, str] | None = None, *,
                seen_within: str | None = None) -> tuple[dict[str, Any], str, Tier] | None:
    """The item for ``target`` among listed items (by name only, in its container when it names one), or None.
    Raises on ambiguity."""
    roles = roles_for(target.role)
    items = in_container(items, target, seen_within)
    pool = [(label_key(str(i.get("name", ""))), i) for i in items
            if i.get("role") in roles and _frame_ok(i, target.frame, frames or {})]
    for tier in _TIERS:
        for candidate in target.names:
            want = label_key(candidate)
            if not want:
                continue
            if tier == "exact":  # the whole name, else the name without its icon words (text.without_icon_words)
                found = [i for name, i in pool if name == want] or [
                    i for name, i in pool if without_icon_words(name) == without_icon_words(want)]
            elif tier == "prefix":
                found = [i for name, i in pool if name.startswith(want)]
            else:
                found = [i for name, i in pool if want in name]
            # A role a person would not tell apart counts only when the named role itself is not there: the text box
            # inside a combobox is named by that combobox, and the combobox is what a step naming one means.
            found = [i for i in found if i.get("role") == target.role] or found
            if found:
                if target.within is not None and len(found) > 1 and target.nth == 0:
                    raise _ambiguous_within(found, target)
                return _pick(found, target, tier, candidate), candidate, tier
    return None


def _not_found(target: SemanticTarget, seen: Sequence[dict[str, Any]], *, note: str = "") -> BrowserOpsError:
    tried = ", ".join(repr(n) for n in [*target.names, *target.labels][:8])
    shown = ", ".join(f'{i.get("role")} "{i.get("name")}"' + (f' in "{i["in"]}"' if i.get("in") else "")
                      for i in seen[:SEEN_IN_ERROR]) or "none"
    extra = f" ({note})" if note else ""
    return BrowserOpsError(
        ErrorCode.SITE_CHANGED,
        f"Cannot find {target.describe()} on the page{extra}: tried {tried}. Elements of that role here: {shown}. "
        "The site changed: update the pack's or step file's target names, then re-run prepare.",
        details={"target": target.model_dump(mode="json", by_alias=True),
                 "seen": [{"n": i.get("n"), "role": i.get("role"), "name": i.get("name")}
                          for i in seen[:SEEN_IN_ERROR]]},
    )


Listed = tuple[list[dict[str, Any]], dict[str, str], dict[int, dict[str, int]]]


async def list_all(tools: GuardedTools, *, containers: bool = False) -> Listed:
    """Every listed item (paging past 500 when needed), the frames, and which window each number is in.
    ``containers``: every item names its container (``in``, ``in_role``), for targets with ``within``."""
    items: list[dict[str, Any]] = []
    frames: dict[str, str] = {}
    windows: dict[int, dict[str, int]] = {}
    offset = 0
    while True:
        args: dict[str, Any] = {"limit": LIST_LIMIT, "offset": offset, "boxes": True, "ids": True,
                                "format": "objects"}
        if containers:
            args["containers"] = True
        data = await tools.need("browser_list_interactives", args)
        page = listing_items(data)
        frames.update(data.get("frames") or {})
        for item in page:
            windows[int(item["n"])] = {"limit": LIST_LIMIT, "offset": offset}
            if data.get("viewport"):
                item["viewport"] = data["viewport"]
            if data.get("lang"):
                item["lang"] = data["lang"]
        items += page
        offset += LIST_LIMIT
        if not data.get("more") or not page or offset >= MAX_ITEMS:
            return items, frames, windows


async def _by_label(tools: GuardedTools, target: SemanticTarget, items: Sequence[dict[str, Any]],
                    seen_within: str | None) -> tuple[dict[str, Any], str] | None:
    roles = roles_for(target.role)
    # With ``within``, a label match counts only in the container: the listing (taken with containers) says it.
    allowed = None if target.within is None else {i.get("n") for i in in_container(items, target, seen_within)}
    for label in target.labels:
        data = await tools.need("browser_find", {"role": target.role, "text": label, "limit": 20})
        found = [m for m in listing_items(data, "matches")
                 if m.get("role") in roles and _frame_ok(m, target.frame, data.get("frames") or {})
                 and (allowed is None or m.get("n") in allowed)]
        if found:
            if allowed is not None and len(found) > 1 and target.nth == 0:
                by_n = {i.get("n"): i for i in items}
                raise _ambiguous_within([{**by_n.get(m.get("n"), {}), **m} for m in found], target)
            return _pick(found, target, "label", label), label
    return None


async def resolve_once(tools: GuardedTools, target: SemanticTarget, *, seen_within: str | None = None) -> Resolved:
    items, frames, windows = await list_all(tools, containers=target.within is not None)
    return await _resolve_in(tools, target, (items, frames, windows), seen_within)


async def _resolve_in(tools: GuardedTools, target: SemanticTarget, listed: Listed,
                      seen_within: str | None) -> Resolved:
    items, frames, windows = listed
    hit = match_items(items, target, frames, seen_within=seen_within)
    if hit is not None:
        item, candidate, tier = hit
        window = windows.get(int(item["n"]), {})
        # Only a window other than the first needs naming: overlay_act then re-lists with it first.
        listing = window if window.get("offset") else {}
        return _resolved(item, candidate, tier, listing)
    if target.labels:
        found = await _by_label(tools, target, items, seen_within)
        if found is not None:
            listed_item = next((i for i in items if i.get("n") == found[0].get("n")), {})
            return _resolved({**listed_item, **found[0]}, found[1], "label", {})
    roles = roles_for(target.role)
    if target.within is not None:
        note = (f"no {target.within.role} named exactly {seen_within!r} as at prepare" if seen_within is not None
                else f"in no {target.within.role} named {', '.join(repr(n) for n in target.within.names[:4])}")
        raise _not_found(target, [i for i in items if i.get("role") in roles] or items, note=note)
    raise _not_found(target, [i for i in items if i.get("role") in roles] or items)


def _resolved(item: dict[str, Any], candidate: str, tier: Tier, listing: dict[str, int]) -> Resolved:
    within = item.get("in")
    return Resolved(number=int(item["n"]), blind_id=str(item["id"]), role=str(item.get("role", "")),
                    name=str(item.get("name", "")), frame=str(item.get("frame", "main")),
                    state=dict(item.get("state") or {}), matched=candidate, how=tier, kind=item.get("type"),
                    listing=listing, box=item.get("box"), viewport=item.get("viewport"),
                    within=str(within) if isinstance(within, str) and within else None,
                    lang=str(item["lang"]) if item.get("lang") else None)


async def resolve_target(tools: GuardedTools, target: SemanticTarget, *, timeout_ms: int = 5000,
                         quiet_ms: int = 1500, seen_within: str | None = None, patient: bool = False) -> Resolved:
    """Resolve ``target`` on the current page. A page still rendering gets time: when nothing matches, wait
    for the DOM to settle and look again, until ``timeout_ms``; a settled page without it is SITE_CHANGED.
    ``seen_within``: the container's name as prepare saw it (run takes only that container). ``patient``: a
    quiet page is not taken as final before ``timeout_ms`` (a target prepare never saw may come from a
    search the page runs after a pause in typing)."""
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        try:
            return await resolve_once(tools, target, seen_within=seen_within)
        except BrowserOpsError as exc:
            if (exc.code is not ErrorCode.SITE_CHANGED or exc.details.get("ambiguous")
                    or time.monotonic() >= deadline):
                raise
            left = int((deadline - time.monotonic()) * 1000)
            waited = await tools.need("browser_wait", {"timeout_ms": max(100, min(quiet_ms, left))})
            if (not patient and waited.get("dom_quiet") and not waited.get("note")
                    and waited.get("waited_ms", 0) < 400):
                # The page was already quiet: it is not going to grow the element. One last look, then fail.
                return await resolve_once(tools, target, seen_within=seen_within)


class PageListing:
    """One listing of a page that does not change meanwhile, to resolve many targets (prepare walks a page
    without acting; run checks a page's fields before acting). A target the listing lacks is looked for
    afresh, with the waits of :func:`resolve_target`. The first target with ``within`` lists again with every
    item's container named (that listing then serves the others too)."""

    def __init__(self, tools: GuardedTools) -> None:
        self.tools = tools
        self._listed: Listed | None = None
        self._containers = False

    def forget(self) -> None:
        self._listed = None

    def listed(self) -> tuple[list[dict[str, Any]], dict[str, str]] | None:
        """The listing the last resolve used (items and frames), while it is the latest; None otherwise."""
        return None if self._listed is None else (self._listed[0], self._listed[1])

    async def resolve(self, target: SemanticTarget, *, seen_within: str | None = None) -> Resolved:
        need_containers = target.within is not None
        if self._listed is None or (need_containers and not self._containers):
            self._containers = need_containers
            self._listed = await list_all(self.tools, containers=need_containers)
        items, frames, windows = self._listed
        hit = match_items(items, target, frames, seen_within=seen_within)
        if hit is None:
            self._listed = None  # the fresh look below stores another latest listing
            return await resolve_target(self.tools, target, seen_within=seen_within)
        item, candidate, tier = hit
        window = windows.get(int(item["n"]), {})
        return _resolved(item, candidate, tier, window if window.get("offset") else {})
