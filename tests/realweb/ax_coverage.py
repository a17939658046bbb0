"""How much of Chromium's accessibility tree a listing covers: the yardstick for real pages.

Chromium's own accessibility tree (DevTools ``Accessibility.getFullAXTree``, per frame) names every element
a screen reader would offer as a control. Those with an actionable role that a person can see (rendered,
not hidden, not transparent, at least 1×1 px) should each be in the listing. An AX node counts as covered
when its DOM node carries a ``data-blind-id`` the listing numbered, or when it sits inside (or around) a
listed element that is the same control (a link inside a listed clickable card acts with it).

Used by ``tests/realweb/test_real_pages_listing.py`` and ``bench/real_pages.py``.
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


@dataclass
class Coverage:
    wanted: int = 0  # visible actionable AX nodes
    covered: int = 0
    missed: list[AXControl] = field(default_factory=list)
    links: int = 0  # visible links among the wanted

    @property
    def ratio(self) -> float:
        return 1.0 if self.wanted == 0 else self.covered / self.wanted


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


async def _visible(cdp: CDPSession, backend_id: int) -> bool:
    try:
        obj = (await cdp.send("DOM.resolveNode", {"backendNodeId": backend_id}))["object"]
        answer = await cdp.send("Runtime.callFunctionOn", {"objectId": obj["objectId"],
                                                           "functionDeclaration": _VISIBLE, "returnByValue": True})
        await cdp.send("Runtime.releaseObject", {"objectId": obj["objectId"]})
    except PlaywrightError:
        return False  # gone meanwhile: nothing a person could see
    return bool((answer.get("result") or {}).get("value"))


async def coverage(page: Page, cdp: CDPSession, listed_ids: set[str], *, near: int = 3) -> Coverage:
    """The listing (its blind ids) against the page's visible actionable AX nodes.

    ``near``: how many DOM levels apart a listed element may be from the AX node's element and still count
    as the same control (an ``<a>`` inside a listed ``role=button`` card, or a listed wrapper's inner input).
    """
    controls = await _ax_controls(cdp)
    document = (await cdp.send("DOM.getDocument", {"depth": -1, "pierce": True}))["root"]
    blind, parent, owner = _dom_index(document)
    listed_nodes = {b for b, bid in blind.items() if bid in listed_ids}
    # Elements within `near` levels below a listed element count as covered by it.
    result = Coverage()
    unmatched: list[AXControl] = []
    for control in controls:
        node: int | None = owner.get(control.backend_id, control.backend_id)
        hit = False
        for _ in range(near + 1):
            if node is None:
                break
            if node in listed_nodes:
                hit = True
                break
            node = parent.get(node)
        if hit:
            result.wanted += 1
            result.covered += 1
            result.links += control.role == "link"
        else:
            unmatched.append(control)
    seen = await asyncio.gather(*(_visible(cdp, c.backend_id) for c in unmatched))
    for control, visible in zip(unmatched, seen, strict=True):
        if visible:
            result.wanted += 1
            result.links += control.role == "link"
            result.missed.append(control)
    return result
