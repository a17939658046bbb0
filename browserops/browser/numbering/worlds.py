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
from typing import Any

from playwright.async_api import CDPSession, Frame, Page
from playwright.async_api import Error as PlaywrightError

from browserops.browser.js.listing import list_frame, take_unseen_hosts
from browserops.browser.launch.cdp import page_cdp
from browserops.browser.launch.session import BrowserSession
from browserops.browser.scripts import forget_context, keep_in_context
from browserops.browser.state.frames import CdpFrame, PageWorlds

WORLD_NAME = "browserops"

def page_worlds(session: BrowserSession, page: Page) -> PageWorlds:
    by_page = session.state.worlds
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
    if not fresh:
        if key in worlds.contexts:
            return worlds.contexts[key]
        making = worlds.making.get(key)
        if making is not None:  # made ahead right now (a child frame's new document): one world, not two
            return await asyncio.shield(making)
    task = asyncio.ensure_future(_make_world(cdp, worlds, target))
    worlds.making[key] = task

    def made(done: asyncio.Future[int]) -> None:
        if worlds.making.get(key) is done:
            del worlds.making[key]

    task.add_done_callback(made)
    return await asyncio.shield(task)  # a listing that gives up on the frame leaves the world to be made


async def _make_world(cdp: CDPSession, worlds: PageWorlds, target: CdpFrame) -> int:
    created = await cdp.send("Page.createIsolatedWorld", {"frameId": target.id, "worldName": WORLD_NAME})
    # One world per document: forget this frame's worlds of earlier documents.
    for old in [k for k in worlds.contexts if k[0] == target.id]:
        worlds.listed.discard(worlds.contexts.pop(old))
    worlds.closed.discard(target.id)  # a new world knows no closed roots yet
    context = worlds.contexts[(target.id, target.loader)] = int(created["executionContextId"])
    # Context ids are per renderer process: a new world can have the id of a gone one (a cross-site navigation),
    # which neither was listed nor holds our functions.
    worlds.listed.discard(context)
    forget_context(cdp, context)
    return context


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
    # At DOMContentLoaded (never the load event): learn the new document's main world context id now, so its
    # first listing does not wait for that round trip behind the page's own work; the child frames' worlds are
    # readied right behind (children_warming), which only a listing's child-frame branch waits for. Read-only;
    # the page sees nothing.
    frames = await _match_now(cdp, page, worlds)
    if frames is None:
        return
    main = frames.get(page.main_frame)
    before = worlds.children_warming
    worlds.children_warming = asyncio.ensure_future(_ready_children(cdp, worlds, frames, before))
    if main is not None:
        with contextlib.suppress(PlaywrightError):
            await _ready_world(cdp, worlds, main)


async def _match_now(cdp: CDPSession, page: Page, worlds: PageWorlds) -> dict[Frame, CdpFrame] | None:
    """Match the page's frames to DevTools' now (one ``Page.getFrameTree``) and remember the match for the
    listings to come (``worlds.tree``); None when DevTools could not say."""
    try:
        tree = (await cdp.send("Page.getFrameTree"))["frameTree"]
    except (PlaywrightError, KeyError):
        return None
    if page.is_closed():
        return None
    frames = match_frames(tree, page)
    worlds.main = frames.get(page.main_frame, worlds.main)
    forget_gone_frames(worlds, frames)
    worlds.tree = (frames_key(page), frames)
    return frames


async def _ready_children(cdp: CDPSession, worlds: PageWorlds, frames: dict[Frame, CdpFrame],
                          before: asyncio.Task[None] | None) -> None:
    """Each child frame's world (scripts kept in it) and its frame element, as a first listing would ask."""
    if before is not None:
        await asyncio.wait({before})  # one readying at a time (a later one knows newer documents); never raises
    children = [target for f, target in frames.items() if f.parent_frame is not None]
    await asyncio.gather(*(_ready_world(cdp, worlds, target) for target in children),
                         *(frame_owner(cdp, worlds, target.id) for target in children), return_exceptions=True)


async def _child_committed(cdp: CDPSession, page: Page, worlds: PageWorlds, before: asyncio.Task[None] | None) -> None:
    """A child frame committed a new document: ready its world now (one frame-tree match for every commit
    meanwhile), not at the next listing."""
    if before is not None:
        await asyncio.wait({before})
    worlds.children_pending = False
    frames = await _match_now(cdp, page, worlds)
    if frames is not None:
        await _ready_children(cdp, worlds, frames, None)


async def _ready_world(cdp: CDPSession, worlds: PageWorlds, target: CdpFrame) -> None:
    """The frame's world context, holding the listing's scripts (see :func:`scripts.keep_in_context`): the first
    listing sends only its arguments."""
    context = await world_context(cdp, worlds, target, fresh=False)
    await keep_in_context(cdp, context, [list_frame({})], [take_unseen_hosts()])


def frames_key(page: Page) -> tuple[Any, ...]:
    """What a frame-tree match holds for: the page's frames, their URLs and names."""
    return tuple((f, f.url, f.name) for f in page.frames)


def forget_gone_frames(worlds: PageWorlds, frames: dict[Frame, CdpFrame]) -> None:
    """Drop what is kept of frames the page no longer has (``frames``: its tree now): their elements and worlds.
    A tab kept for hours (an MCP session) otherwise keeps the world id of every frame it ever showed."""
    ids = {target.id for target in frames.values()}
    for gone in [k for k in worlds.owners if k not in ids]:
        del worlds.owners[gone]
    for key in [k for k in worlds.contexts if k[0] not in ids]:
        worlds.listed.discard(worlds.contexts.pop(key))


def start_worlds(cdp: CDPSession, page: Page, worlds: PageWorlds) -> None:
    """Once per page: worlds made with every document, and their ids learnt at each DOMContentLoaded."""
    worlds.prepared = asyncio.ensure_future(_make_with_documents(cdp))

    def on_document(_: Page) -> None:
        worlds.warming = asyncio.ensure_future(_learn_ids(cdp, page, worlds))

    def on_frame(frame: Frame) -> None:
        if frame.parent_frame is None or worlds.children_pending or page.is_closed():
            return  # the main frame's document: on_document; a readying already waiting covers this one too
        worlds.children_pending = True
        worlds.children_warming = asyncio.ensure_future(_child_committed(cdp, page, worlds, worlds.children_warming))

    page.on("domcontentloaded", on_document)
    page.on("framenavigated", on_frame)


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
