"""The frames of a page as the numbering engine keeps them: each frame's label and id prefix (:class:`FrameIds`),
where it is rendered (:class:`FrameView`), its kept walk's order (:class:`FrameOrder`, :class:`KeptOrders`) and our
isolated worlds in its documents (:class:`PageWorlds`). The modules that fill them are in ``numbering/``
(``frames.py``, ``paging.py``, ``worlds.py``)."""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import ElementHandle, Frame, Page

Rect = tuple[float, float, float, float]  # x0, y0, x1, y1 in top-level viewport pixels

Slot = tuple[str, int]  # frame label, index in that frame's order

HANDLES_KEPT = 8



@dataclass
class FrameIds:
    label: str
    prefix: str
    seq: int = 0  # highest blind-id counter this frame has reported


@dataclass
class FrameView:
    """One rendered frame of the page, ready for a page-side walk."""

    frame: Frame
    ids: FrameIds
    order: int
    offset: tuple[float, float] = (0.0, 0.0)
    clip: Rect | None = None  # None for the main frame: its own viewport is the clip
    title: str = ""

    @property
    def label(self) -> str:
        return self.ids.label

    def script_args(self) -> dict[str, Any]:
        return {
            "prefix": self.ids.prefix,
            "seq": self.ids.seq,
            "off": list(self.offset),
            "fclip": list(self.clip) if self.clip else None,
        }


@dataclass
class FrameOrder:
    walk: str  # the frame's kept walk (list.js walkId)
    keys: list[float]  # flat: group, y, x of each item in the frame's order
    order: int  # the frame's place among the page's frames (ties between frames go to the earlier one)

    @property
    def total(self) -> int:
        return len(self.keys) // 3


@dataclass
class KeptOrders:
    """The active page's frames' kept walks (session state)."""

    page: Page | None = None
    frames: dict[str, FrameOrder] = field(default_factory=dict)
    merged: list[Slot] | None = None  # the merged order of ``frames``, while they stay as they are
    merged_of: tuple[tuple[str, str], ...] = ()


@dataclass
class PageWorlds:
    contexts: dict[tuple[str, str], int] = field(default_factory=dict)  # (frame id, loader id) -> context id
    # Frames whose last listing's icon candidates all proved listener-less: the next listing tells the world
    # so (an empty iconVerdicts) instead of a call of its own.
    no_listeners: set[tuple[str, str]] = field(default_factory=set)  # (frame id, loader id): per document
    main: CdpFrame | None = None  # the main frame as last matched (its id outlives navigations)
    prepared: asyncio.Task[None] | None = None  # asking Chromium to make our world in every new document
    warming: asyncio.Task[None] | None = None  # learning the main frame's world of the latest document
    # Readying the child frames' worlds: after the main one at DOMContentLoaded, and again whenever a child frame
    # commits a document of its own (most do after the page's DOMContentLoaded). No listing waits for it as a
    # whole: a listing that needs a world being made meanwhile waits for that one (``making``).
    children_warming: asyncio.Task[None] | None = None
    children_pending: bool = False  # a child-frame commit is waiting for children_warming to run again
    making: dict[tuple[str, str], asyncio.Future[int]] = field(default_factory=dict)  # worlds being made
    # Frame id -> backend node id of its <iframe>/<frame> element: an element keeps its frame for the frame's
    # whole life (moving it makes a new frame), so it is asked once per frame.
    owners: dict[str, int] = field(default_factory=dict)
    # Handles made for elements in closed roots: the latest few are kept, older ones disposed (a page that
    # never navigates would otherwise keep every one).
    handles: deque[ElementHandle] = field(default_factory=lambda: deque(maxlen=HANDLES_KEPT))
    # Frames whose current world was handed closed shadow roots: only there can an element be that the page's
    # own world does not see (so a stale number costs no extra round trip on the many pages without any).
    closed: set[str] = field(default_factory=set)
    # The last frame-tree match and what it was of (the page's frames, their URLs and names): while those hold, a
    # listing matches its child frames without asking again. A frame reloaded at the same URL has a new loader:
    # its remembered world is then found gone at the first evaluate and made anew (FrameWorlds._in_world).
    tree: tuple[tuple[Any, ...], dict[Frame, CdpFrame]] | None = None
    # World contexts that answered a listing, and so likely keep a walk the next listing is described from.
    listed: set[int] = field(default_factory=set)


@dataclass(frozen=True)
class CdpFrame:
    id: str
    loader: str
