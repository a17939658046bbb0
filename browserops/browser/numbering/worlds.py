"""Our isolated world in each document of a page: made ahead, remembered per document, and its DevTools ids.

The state behind :mod:`browserops.browser.numbering.isolated` (``FrameWorlds``, which runs scripts and hands
elements over in these worlds): which world context belongs to which (frame, document), how Playwright frames
match DevTools frames, each child frame's ``<iframe>`` element, and the preparation that makes a first listing
find its world ready: from a page's first listing (or its first ``browser_navigate``) on, Chromium makes the
world with every document of the page (as Playwright does for its utility world), and its context ids are
learnt at DOMContentLoaded, never waiting for the load event. The page sees nothing of any of it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import CDPSession, ElementHandle, Frame, Page
from playwright.async_api import Error as PlaywrightError

from browserops.browser.js.listing import list_frame, take_unseen_hosts
from browserops.browser.launch.cdp import page_cdp
from browserops.browser.launch.session import BrowserSession
from browserops.browser.scripts import keep_in_context

WORLD_NAME = "browserops"
HANDLES_KEPT = 8


@dataclass
class PageWorlds:
    contexts: dict[tuple[str, str], int] = field(default_factory=dict)  # (frame id, loader id) -> context id
    # Frames whose last listing's icon candidates all proved listener-less: the next listing tells the world
    # so (an empty iconVerdicts) instead of a call of its own.
    no_listeners: set[str] = field(default_factory=set)
    main: CdpFrame | None = None  # the main frame as last matched (its id outlives navigations)
    prepared: asyncio.Task[None] | None = None  # asking Chromium to make our world in every new document
    warming: asyncio.Task[None] | None = None  # learning the worlds' context ids of the latest document
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


@dataclass(frozen=True)
class CdpFrame:
    id: str
    loader: str


@dataclass
class IsolatedWorlds:
    """This session's isolated worlds, per page (kept with :meth:`BrowserSession.state`)."""

    by_page: dict[Page, PageWorlds] = field(default_factory=dict)


def page_worlds(session: BrowserSession, page: Page) -> PageWorlds:
    by_page = session.state(IsolatedWorlds).by_page
    for old in [p for p in by_page if p.is_closed()]:
        del by_page[old]
    return by_page.setdefault(page, PageWorlds())


def match_frames(tree: dict[str, Any], page: Page) -> dict[Frame, CdpFrame]:
    """Playwright frame -> DevTools frame, walking both trees from the top."""
    out: dict[Frame, CdpFrame] = {}

    def walk(frame: Frame, node: dict[str, Any]) -> None:
        info = node["frame"]
        out[frame] = CdpFrame(str(info["id"]), str(info.get("loaderId", "")))
        kids = [(k, str(k["frame"].get("url") or "") + str(k["frame"].get("urlFragment") or ""),
                 str(k["frame"].get("name") or "")) for k in node.get("childFrames") or []]
        taken: set[int] = set()
        unmatched: list[Frame] = []
        for child in frame.child_frames:
            i = next((i for i, (_, url, name) in enumerate(kids)
                      if i not in taken and (url, name) == (child.url, child.name)), None)
            if i is None:
                unmatched.append(child)
            else:
                taken.add(i)
                walk(child, kids[i][0])
        # DevTools gives an about:blank or srcdoc frame its creator's URL, and a frame that navigated meanwhile
        # differs in URL only: the rest match by name, in document order (both trees keep it).
        for child in unmatched:
            i = next((i for i, (_, _, name) in enumerate(kids) if i not in taken and name == child.name), None)
            if i is not None:
                taken.add(i)
                walk(child, kids[i][0])

    walk(page.main_frame, tree)
    return out


async def world_context(cdp: CDPSession, worlds: PageWorlds, target: CdpFrame, fresh: bool) -> int:
    key = (target.id, target.loader)
    if fresh or key not in worlds.contexts:
        created = await cdp.send("Page.createIsolatedWorld", {"frameId": target.id, "worldName": WORLD_NAME})
        # One world per document: forget this frame's worlds of earlier documents.
        for old in [k for k in worlds.contexts if k[0] == target.id]:
            del worlds.contexts[old]
        worlds.closed.discard(target.id)  # a new world knows no closed roots yet
        worlds.contexts[key] = int(created["executionContextId"])
    return worlds.contexts[key]


async def frame_owner(cdp: CDPSession, worlds: PageWorlds, frame_id: str) -> int | None:
    """The backend node id of the frame's element (remembered), or None when DevTools cannot say."""
    if frame_id not in worlds.owners:
        try:
            owner = await cdp.send("DOM.getFrameOwner", {"frameId": frame_id})
        except PlaywrightError:
            return None
        worlds.owners[frame_id] = int(owner["backendNodeId"])
    return worlds.owners[frame_id]


async def _make_with_documents(cdp: CDPSession) -> None:
    # Playwright readies its own utility world the same way: an empty script for our world name makes Chromium
    # create the world with every document, in every frame of the page (the page sees nothing of it), so a
    # first listing finds it made instead of waiting for its creation (tens of ms on a busy machine). The
    # page's DevTools agent runs such scripts only once enabled.
    with contextlib.suppress(PlaywrightError):
        await cdp.send("Page.enable")
        await cdp.send("Page.addScriptToEvaluateOnNewDocument", {"source": "", "worldName": WORLD_NAME})


async def _learn_ids(cdp: CDPSession, page: Page, worlds: PageWorlds) -> None:
    # At DOMContentLoaded (never the load event): learn the new document's world context ids now, so its first
    # listing does not wait for that round trip behind the page's own work. Read-only; the page sees nothing.
    with contextlib.suppress(PlaywrightError, KeyError):
        tree = (await cdp.send("Page.getFrameTree"))["frameTree"]
        if page.is_closed():
            return
        frames = match_frames(tree, page)
        worlds.tree = None  # a new document: match its frames afresh
        worlds.main = frames.get(page.main_frame, worlds.main)
        forget_owners(worlds, frames)
        await asyncio.gather(*(_ready_world(cdp, worlds, target) for target in frames.values()),
                             *(frame_owner(cdp, worlds, target.id) for f, target in frames.items() if f.parent_frame),
                             return_exceptions=True)


async def _ready_world(cdp: CDPSession, worlds: PageWorlds, target: CdpFrame) -> None:
    """The frame's world context, holding the listing's scripts (see :func:`scripts.keep_in_context`): the first
    listing sends only its arguments."""
    context = await world_context(cdp, worlds, target, fresh=False)
    await keep_in_context(cdp, context, [list_frame({})], [take_unseen_hosts()])


def frames_key(page: Page) -> tuple[Any, ...]:
    """What a frame-tree match holds for: the page's frames, their URLs and names."""
    return tuple((f, f.url, f.name) for f in page.frames)


def forget_owners(worlds: PageWorlds, frames: dict[Frame, CdpFrame]) -> None:
    ids = {target.id for target in frames.values()}
    for gone in [k for k in worlds.owners if k not in ids]:
        del worlds.owners[gone]


def start_worlds(cdp: CDPSession, page: Page, worlds: PageWorlds) -> None:
    """Once per page: worlds made with every document, and their ids learnt at each DOMContentLoaded."""
    worlds.prepared = asyncio.ensure_future(_make_with_documents(cdp))

    def on_document(_: Page) -> None:
        worlds.warming = asyncio.ensure_future(_learn_ids(cdp, page, worlds))

    page.on("domcontentloaded", on_document)


async def prepare_worlds(session: BrowserSession, page: Page) -> None:
    """Have Chromium make our isolated world in each document ``page`` loads from now on (once per page; no
    effect on the page). Call it before a navigation so even that document's first listing finds its world
    ready; the first listing of a page calls it too."""
    cdp = await page_cdp(session, page)
    if cdp is None:
        return
    worlds = page_worlds(session, page)
    if worlds.prepared is None:
        start_worlds(cdp, page, worlds)
    assert worlds.prepared is not None
    await asyncio.shield(worlds.prepared)


def closed_roots_known(session: BrowserSession, page: Page) -> bool:
    """Whether any frame's world of this page was handed closed shadow roots (no round trip)."""
    return bool(page_worlds(session, page).closed)
