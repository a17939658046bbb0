"""A listing as the session keeps it: its numbered items (:class:`ListedElement`) and the page, window and frames
they are numbered in (:class:`Listing`). Made by :mod:`browserops.browser.numbering.listing`, kept as the session's
latest listing (:func:`browserops.browser.numbering.elements.store_listing`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Frame, Page

from browserops.browser.state.containers import Container


@dataclass
class ListedElement:
    """One numbered item of a listing, as reported to callers."""

    number: int
    blind_id: str
    role: str
    name: str
    frame: str = "main"  # "main" or a frame path such as "main>1"
    state: dict[str, Any] = field(default_factory=dict)
    in_viewport: bool = True
    new: bool = False
    bbox: dict[str, float] | None = None  # top-level viewport pixels: x, y, width, height
    kind: str | None = None  # input type when it says more than the role (date, email, password, file...)
    covered: str | None = None  # what lies on top of it at its centre (a banner, a modal), if anything
    name_guessed: bool = False  # the page gave it no name: guessed from title/alt/icon file/class words
    within: Container | None = None  # the container that tells it from same-named items (see .containers)

    def to_dict(self, *, with_id: bool = True, viewport_flag: bool = True) -> dict[str, Any]:
        """The item as callers get it. A listing leaves out the id unless asked (numbers address elements;
        the id costs ~12 characters an item) and says once where the off-screen items begin instead of
        ``in_viewport: false`` on each (they come last in a listing's order): ``with_id`` and
        ``viewport_flag`` are for results in another order, such as browser_find's best matches first."""
        out: dict[str, Any] = {"n": self.number}
        if with_id:
            out["id"] = self.blind_id
        out["role"] = self.role
        out["name"] = self.name
        if self.name_guessed:
            out["name_guessed"] = True
        if self.kind:
            out["type"] = self.kind
        if self.frame != "main":
            out["frame"] = self.frame
        if self.state:
            out["state"] = self.state
        if viewport_flag and not self.in_viewport:
            out["in_viewport"] = False
        if self.covered:
            out["covered"] = True  # the listing's "covered_by" says by what, once for all items
        if self.new:
            out["new"] = True
        if self.within is not None:
            out["in"] = self.within.name
            out["in_role"] = self.within.role
        return out


@dataclass
class Listing:
    """The latest listing of one page: numbers are indexes into ``items`` plus ``offset``."""

    page: Page
    items: list[ListedElement]
    total: int
    limit: int
    offset: int
    scope: str | None = None
    generation: int = 0
    kind: str = "list"  # "list" (browser_list_interactives) or "find" (browser_find's matches)
    frames: dict[str, Frame] = field(default_factory=dict)  # frame label -> Playwright frame
    frame_titles: dict[str, str] = field(default_factory=dict)  # child frame label -> its URL
    url: str = ""  # the page's URL when listed
    failed: dict[str, str] = field(default_factory=dict)  # frame label -> why it could not be enumerated
    walked: int = 0  # frames walked anew for it (the others answered from their kept walk)
    lang: str = ""  # the main document's language (its ``lang``), which its fields write their values in

    def by_number(self, number: int) -> ListedElement | None:
        for item in self.items:
            if item.number == number:
                return item
        return None
