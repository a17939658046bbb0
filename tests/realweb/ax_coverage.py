"""How much of Chromium's accessibility tree a listing covers: the yardstick for real pages.

Chromium's own accessibility tree (DevTools ``Accessibility.getFullAXTree``, per frame) names every element
a screen reader would offer as a control. Those with an actionable role that a person can see (rendered,
not hidden, not transparent, at least 1×1 px) should each be in the listing; invisible ones count neither way.
An AX node counts as covered when its own DOM node carries a ``data-blind-id`` the listing numbered (0 levels
up, by default; a ``<video controls>``'s inner buttons count as the video).

Used by ``tests/realweb/test_real_pages_listing.py``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

ACTIONABLE_ROLES = frozenset({"link", "button", "textbox", "searchbox", "checkbox", "radio", "combobox", "tab",
                              "menuitem", "menuitemcheckbox", "menuitemradio", "option", "switch", "slider",
                              "spinbutton"})
BLIND_ID_ATTR = "data-blind-id"

# Visible as a person sees it: rendered, not visibility:hidden, not transparent, a box of at least 1x1 px.
# Opacity 0 on <html>/<body> is a page-hiding snippet's, lifted after a few seconds: it does not count.
_VISIBLE = """function() {
  const el = this.nodeType === 1 ? this : this.parentElement;
  if (!el || !el.checkVisibility({visibilityProperty: true})) { return false; }
  for (let n = el; n && n !== document.body && n !== document.documentElement; n = n.parentElement) {
    if (getComputedStyle(n).opacity === "0") { return false; }
  }
  const r = el.getBoundingClientRect();
  return r.width >= 1 && r.height >= 1;
}"""


@dataclass
class AXControl:
    role: str
    name: str
    backend_id: int
    element: int = 0  # the element the page wrote: its own (backend id), or a user-agent shadow root's host


@dataclass
class Coverage:
    wanted: int = 0  # visible actionable AX nodes
    covered: int = 0
    missed: list[AXControl] = field(default_factory=list)
    links: int = 0  # visible links among the wanted
    hit: list[AXControl] = field(default_factory=list)  # the covered controls

    @property
    def ratio(self) -> float:
        return 1.0 if self.wanted == 0 else self.covered / self.wanted

    def among(self, shown_before: set[int]) -> Coverage:
        """The same measure over the controls whose element was already visible in ``shown_before`` (backend
        node ids, from :func:`shown_elements` taken before the listing): a control that appeared while the
        listing was being taken (an image failing late, a carousel moving in) was not there for the listing to
        see. (A control of a user-agent shadow root, a ``<video controls>``'s play button, counts by its host.)"""
        hit = [c for c in self.hit if c.element in shown_before]
        missed = [c for c in self.missed if c.element in shown_before]
        links = sum(c.role == "link" for c in hit + missed)
        return Coverage(wanted=len(hit) + len(missed), covered=len(hit), missed=missed, links=links, hit=hit)


async def _ax_controls(cdp: CDPSession) -> list[AXControl]:
    tree = await cdp.send("Page.getFrameTree")
    frame_ids: list[str] = []
    stack = [tree["frameTree"]]
    while stack:
        node = stack.pop()
        frame_ids.append(node["frame"]["id"])
        stack.extend(node.get("childFrames") or [])
    out: list[AXControl] = []
    for frame_id in frame_ids:
        try:
            nodes = (await cdp.send("Accessibility.getFullAXTree", {"frameId": frame_id}))["nodes"]
        except PlaywrightError:
            continue  # an out-of-process frame: not this session's to describe
        for node in nodes:
            role = str((node.get("role") or {}).get("value", ""))
            backend = node.get("backendDOMNodeId")
            if node.get("ignored") or role not in ACTIONABLE_ROLES or backend is None:
                continue
            out.append(AXControl(role, str((node.get("name") or {}).get("value", "")), int(backend)))
    return out


def _dom_index(root: dict[str, Any]) -> tuple[dict[int, str], dict[int, int], dict[int, int]]:
    """backend node id → blind id (where stamped), → parent's backend id, and → host for nodes inside a
    user-agent shadow root (a ``<video controls>``'s play button and scrubber: the host is the control the
    page author wrote, and the one the listing numbers), over the pierced document."""
    blind: dict[int, str] = {}
    parent: dict[int, int] = {}
    owner: dict[int, int] = {}
    stack: list[tuple[dict[str, Any], int | None]] = [(root, None)]
    while stack:
        node, up = stack.pop()
        backend = int(node["backendNodeId"])
        if node.get("shadowRootType") == "user-agent" and up is not None:
            for inner in _descendants(node):
                owner[inner] = up
            continue
        if up is not None:
            parent[backend] = up
        attrs = node.get("attributes") or []
        for i in range(0, len(attrs) - 1, 2):
            if attrs[i] == BLIND_ID_ATTR:
                blind[backend] = attrs[i + 1]
        kids = list(node.get("children") or []) + list(node.get("shadowRoots") or [])
        if node.get("contentDocument"):
            kids.append(node["contentDocument"])
        stack.extend((kid, backend) for kid in kids)
    return blind, parent, owner


def _descendants(node: dict[str, Any]) -> list[int]:
    out: list[int] = []
    stack = [node]
    while stack:
        n = stack.pop()
        out.append(int(n["backendNodeId"]))
        stack.extend(list(n.get("children") or []) + list(n.get("shadowRoots") or []))
    return out


async def _shown(cdp: CDPSession) -> tuple[dict[int, bool], dict[int, str]]:
    """backend node id → visible as ``_VISIBLE`` judges it, for every element of every same-process document,
    from one ``DOMSnapshot.captureSnapshot`` (one call instead of three per control): rendered (a layout box),
    computed ``visibility: visible``, no ancestor below ``<body>`` at opacity 0, a box of at least 1×1 px. And
    backend node id → blind id, for the elements of the snapshot the listing stamped."""
    snap = await cdp.send("DOMSnapshot.captureSnapshot", {"computedStyles": ["visibility", "opacity"]})
    out: dict[int, bool] = {}
    blind: dict[int, str] = {}
    for doc in snap["documents"]:
        out.update(_shown_in(doc, snap["strings"]))
        blind.update(_blind_in(doc, snap["strings"]))
    return out, blind


def _blind_in(doc: dict[str, Any], strings: list[str]) -> dict[int, str]:
    nodes = doc["nodes"]
    out: dict[int, str] = {}
    for backend, attrs in zip(nodes["backendNodeId"], nodes.get("attributes") or [], strict=False):
        for i in range(0, len(attrs) - 1, 2):
            if strings[attrs[i]] == BLIND_ID_ATTR:
                out[int(backend)] = strings[attrs[i + 1]]
    return out


def _shown_in(doc: dict[str, Any], strings: list[str]) -> dict[int, bool]:
    nodes, layout = doc["nodes"], doc["layout"]
    parents: list[int] = nodes["parentIndex"]
    names = [strings[i] if i >= 0 else "" for i in nodes["nodeName"]]
    box: dict[int, tuple[list[float], list[int]]] = {}
    for at, node in enumerate(layout["nodeIndex"]):
        box.setdefault(node, (layout["bounds"][at], layout["styles"][at]))

    def style(node: int, which: int) -> str:  # 0: visibility, 1: opacity
        found = box.get(node)
        return strings[found[1][which]] if found and len(found[1]) > which and found[1][which] >= 0 else ""

    def faded(node: int) -> bool:
        while node >= 0 and names[node] not in ("BODY", "HTML", "#document"):
            if style(node, 1) == "0":
                return True
            node = parents[node]
        return False

    out: dict[int, bool] = {}
    for node, backend in enumerate(nodes["backendNodeId"]):
        if nodes["nodeType"][node] != 1:
            continue
        found = box.get(node)
        out[int(backend)] = bool(found and found[0][2] >= 1 and found[0][3] >= 1 and style(node, 0) == "visible"
                                 and not faded(node))
    return out


async def _visible(cdp: CDPSession, backend_id: int) -> bool:
    try:
        obj = (await cdp.send("DOM.resolveNode", {"backendNodeId": backend_id}))["object"]
        answer = await cdp.send("Runtime.callFunctionOn", {"objectId": obj["objectId"],
                                                           "functionDeclaration": _VISIBLE, "returnByValue": True})
        await cdp.send("Runtime.releaseObject", {"objectId": obj["objectId"]})
    except PlaywrightError:
        return False  # gone meanwhile: nothing a person could see
    return bool((answer.get("result") or {}).get("value"))


async def coverage(page: Page, cdp: CDPSession, listed_ids: set[str], *, near: int = 0) -> Coverage:
    """The listing (its blind ids) against the page's visible actionable AX nodes.

    Only controls a person can see count, listed or not: an invisible control the listing happened to number
    is neither wanted nor covered. ``near``: how many DOM levels below a listed element an AX node's element
    may sit and still count as that control. 0 (the default): the AX node's own element must be listed (a
    ``<video controls>``'s inner buttons count as the video, the element the page wrote).
    """
    visible, snapshot, snap_blind = await _visible_controls(cdp)
    if near == 0 and all(c.backend_id in snapshot for c in visible):
        # Every control is an element of the DOM snapshot just taken (none inside a user-agent shadow root,
        # which the snapshot leaves out): its own blind id is read there, without the pierced document.
        owner: dict[int, int] = {}
        parent: dict[int, int] = {}
        listed_nodes = {b for b, bid in snap_blind.items() if bid in listed_ids}
    else:
        document = (await cdp.send("DOM.getDocument", {"depth": -1, "pierce": True}))["root"]
        blind, parent, owner = _dom_index(document)
        listed_nodes = {b for b, bid in blind.items() if bid in listed_ids}
    result = Coverage()
    for control in visible:
        control.element = owner.get(control.backend_id, control.backend_id)
        result.wanted += 1
        result.links += control.role == "link"
        if _listed(control.element, listed_nodes, parent, near):
            result.covered += 1
            result.hit.append(control)
        else:
            result.missed.append(control)
    return result


async def shown_elements(cdp: CDPSession) -> set[int]:
    """Backend node ids of the elements a person can see right now (as :func:`coverage` judges a control's),
    from one DOM snapshot: taken before a listing, :meth:`Coverage.among` keeps the controls already shown then.
    (The accessibility tree is read once, after the listing: a control whose element was shown before counts,
    whether or not it was already actionable then. Reading it before too cost 0.13 CPU s a page, 23 of the
    real-pages test's 130.)"""
    return {backend for backend, shown in (await _shown(cdp))[0].items() if shown}


async def _visible_controls(cdp: CDPSession) -> tuple[list[AXControl], dict[int, bool], dict[int, str]]:
    """The visible actionable AX nodes; the snapshot's elements (backend id → shown) and their blind ids."""
    controls = await _ax_controls(cdp)
    shown, blind = await _shown(cdp)
    # One DOM snapshot answers for nearly every node; the few it does not hold are asked one by one.
    unknown = [c.backend_id for c in controls if c.backend_id not in shown]
    asked = dict(zip(unknown, await asyncio.gather(*(_visible(cdp, b) for b in unknown)), strict=True))
    return [c for c in controls if shown.get(c.backend_id, asked.get(c.backend_id, False))], shown, blind


def _listed(node: int | None, listed_nodes: set[int], parent: dict[int, int], near: int) -> bool:
    for _ in range(near + 1):
        if node is None:
            return False
        if node in listed_nodes:
            return True
        node = parent.get(node)
    return False
