"""Run the enumeration where the page's own scripts cannot break it: an isolated world per frame.

A page may replace ``Array.prototype.map``, ``JSON.stringify``, ``Symbol.for`` or ``Element.prototype``
methods, or throw from getters it installs; a listing evaluated in the page's own JavaScript world then
fails or returns nothing. Chrome extensions and Playwright's own injected scripts avoid that by running in an
*isolated world*: the same DOM, a separate set of JavaScript globals and prototypes. We create one through
DevTools (``Page.createIsolatedWorld``, the call Playwright uses for its utility world) for each frame the
page's DevTools session can reach (the main frame and same-process child frames) and run our scripts there
through the DevTools channel of :mod:`browserops.browser.scripts` (built exactly as its Playwright runners
build them: one way to run page JavaScript, two places to run it). Out-of-process frames (cross-site iframes
under site isolation) are not in the page's session; for those, and when DevTools is not offered at all,
:meth:`FrameWorlds.reaches` says no and the caller evaluates through Playwright in the frame's main world.

Playwright frames are matched to DevTools frame ids by the frame tree (:func:`.worlds.match_frames`). A world
lives as long as its document: contexts are remembered per (frame id, loader id), and re-created once when
Chromium says the context is gone. First listings are what a user waits for, so the world is made ahead of
them (:mod:`browserops.browser.numbering.worlds` keeps the worlds and their DevTools ids per document).

Acting goes through here too for an element only this world sees (inside a closed shadow root, which
:mod:`.closed_roots` hands to the world): :meth:`FrameWorlds.run_on` runs an element call on it by blind id,
:meth:`FrameWorlds.element_handle` hands it to Playwright (see :mod:`browserops.browser.numbering.locate`).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Awaitable, Callable
from typing import TypeVar

from playwright.async_api import CDPSession, ElementHandle, Frame, Page
from playwright.async_api import Error as PlaywrightError

from browserops.browser.js import handoff
from browserops.browser.js.listing import MarkedVerdicts, click_listeners, marked_click_listeners, take_unseen_hosts
from browserops.browser.launch.cdp import page_cdp
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.closed_roots import CLOSED_GROUP, hand_closed_roots
from browserops.browser.numbering.worlds import (
    WORLD_NAME,
    forget_gone_frames,
    frame_owner,
    frames_key,
    match_frames,
    page_worlds,
    start_worlds,
    world_context,
)
from browserops.browser.scripts import (
    ElementCall,
    PageCall,
    PageScriptError,
    call_in_frame,
    reference_in_context,
    run_devtools,
    run_for_handle,
    run_in_context,
    run_on_in_context,
    run_on_object,
)
from browserops.browser.state.frames import CdpFrame, PageWorlds

R = TypeVar("R")
HANDLE_GROUP = f"{WORLD_NAME}-handle"  # DevTools object group of element_handle's page objects


class FrameWorlds:
    """Our isolated worlds in one page's frames, as DevTools reaches them now: run a script in a frame's
    world (:meth:`run`, :meth:`run_here`, :meth:`run_on`), hand an element over to Playwright
    (:meth:`element_handle`), measure a frame element (:meth:`frame_box`), and the DevTools-only answers a
    listing needs (click listeners, closed shadow roots)."""

    def __init__(self, cdp: CDPSession | None, worlds: PageWorlds, frames: dict[Frame, CdpFrame],
                 page: Page | None = None) -> None:
        self._cdp = cdp
        self._worlds = worlds
        self._frames = frames
        self._page = page  # for match_children
        self.children_matched = False  # whether every frame of the page was matched (not only the main one)

    def match_children_kept(self) -> bool:
        """Match every frame from the last frame-tree match, without a round trip, when the page's frames (their
        URLs and names) are still those it was of; False when they changed (:meth:`match_children` asks)."""
        page = self._page
        kept = self._worlds.tree
        if self._cdp is None or page is None or kept is None or kept[0] != frames_key(page) \
                or page.main_frame not in self._frames:
            return False
        self._frames.update({f: t for f, t in kept[1].items() if f is not page.main_frame})
        self.children_matched = True
        return True

    async def match_children(self) -> bool:
        """Match every frame of the page to its DevTools frame (one ``Page.getFrameTree``, unless the readying of
        the child frames' worlds has just matched them); False when DevTools could not say."""
        if self._cdp is None or self._page is None:
            return False
        page = self._page
        if self.match_children_kept():
            return True
        key = frames_key(page)
        try:
            tree = (await self._cdp.send("Page.getFrameTree"))["frameTree"]
        except PlaywrightError:
            return False
        frames = match_frames(tree, page)
        self._worlds.main = frames.get(page.main_frame)
        forget_gone_frames(self._worlds, frames)
        self._frames.update(frames)
        self._worlds.tree = (key, frames)
        self.children_matched = True
        return True

    def reaches(self, frame: Frame) -> bool:
        return self._cdp is not None and frame in self._frames

    def holds_closed_roots(self, frame: Frame) -> bool:
        """Whether the frame's world was handed closed shadow roots (and so may see elements the page's own
        world does not)."""
        return self.reaches(frame) and self._frames[frame].id in self._worlds.closed

    async def run(self, frame: Frame, call: PageCall[R]) -> R:
        """``call`` in the frame's isolated world. Raises :class:`PageScriptError` when the script throws
        there (or answers with something not ours) and PlaywrightError when the frame is gone."""
        return await self._in_world(frame, lambda cdp, context: run_in_context(cdp, context, call))

    async def run_here(self, frame: Frame, call: PageCall[R]) -> R:
        """``call`` where the listing runs: the frame's isolated world when DevTools reaches the frame (it also
        sees into the closed shadow roots the listing reached), else the frame's own world through Playwright."""
        return await (self.run(frame, call) if self.reaches(frame) else call_in_frame(frame, call))

    async def run_on(self, frame: Frame, blind_id: str, call: ElementCall[R]) -> R:
        """``call`` on the element with ``blind_id`` in the frame's isolated world, which also sees into the
        closed shadow roots the listing handed it. Raises :class:`NotInFrame` when the element is not there,
        else as :meth:`run`."""
        return await self._in_world(frame, lambda cdp, context: run_on_in_context(cdp, context, blind_id, call))

    async def _in_world(self, frame: Frame, job: Callable[[CDPSession, int], Awaitable[R]]) -> R:
        assert self._cdp is not None
        target = self._frames[frame]
        try:
            return await job(self._cdp, await world_context(self._cdp, self._worlds, target, fresh=False))
        except PageScriptError:
            raise
        except PlaywrightError as exc:
            if "context" not in str(exc).lower():
                raise
        # The document changed under the remembered world (same loader, e.g. document.open): make a new one.
        return await job(self._cdp, await world_context(self._cdp, self._worlds, target, fresh=True))

    async def element_handle(self, frame: Frame, blind_id: str) -> ElementHandle | None:
        """A Playwright handle of the element with ``blind_id`` that this world sees and the page's own world
        may not (inside a closed shadow root), so Playwright's actions (click, fill, press…) can act on it:
        Playwright acts on a handle inside a closed root (its hit test walks up from the element), it only
        cannot find one there. None when the element is not there.

        DevTools resolves the element into the frame's main world; Playwright's handles come only from its
        own evaluations, so the object is kept under a random one-off name on ``window`` and taken (and the
        name deleted) by the next call (``js/handoff.js``): a page sees nothing of it unless it lists
        ``window``'s own properties in that instant, and learns only an element of its own."""
        if self._cdp is None or frame not in self._frames:
            return None
        cdp = self._cdp
        key = f"__bo_{secrets.token_hex(8)}"
        try:
            found = await self._in_world(frame, lambda _, context: reference_in_context(
                cdp, context, handoff.element_by_id(blind_id), HANDLE_GROUP))
            if found is None:
                return None
            node = (await cdp.send("DOM.describeNode", {"objectId": found}))["node"]
            main = await cdp.send("DOM.resolveNode", {"backendNodeId": node["backendNodeId"],
                                                      "objectGroup": HANDLE_GROUP})
            await run_on_object(cdp, str(main["object"]["objectId"]), handoff.keep_element(key))
            element = await run_for_handle(frame, handoff.take_element(key))
        finally:
            with contextlib.suppress(PlaywrightError):
                await cdp.send("Runtime.releaseObjectGroup", {"objectGroup": HANDLE_GROUP})
        kept = self._worlds.handles
        if element is not None:
            if len(kept) == kept.maxlen:
                with contextlib.suppress(PlaywrightError):
                    await kept[0].dispose()
            kept.append(element)
        return element

    async def frame_box(self, frame: Frame) -> tuple[bool, tuple[float, float, float, float] | None,
                                                       tuple[float, float]]:
        """The frame element's border box and content origin in top-level viewport pixels, in one DevTools
        call once the frame's element is known (Playwright's frame_element + bounding box take several).
        ``(False, ...)`` when DevTools does not reach the frame; ``(True, None, ...)`` when the frame element
        is not rendered."""
        if self._cdp is None or frame not in self._frames or frame.parent_frame is None:
            return False, None, (0.0, 0.0)
        backend = await frame_owner(self._cdp, self._worlds, self._frames[frame].id)
        if backend is None:
            return False, None, (0.0, 0.0)
        try:
            model = (await self._cdp.send("DOM.getBoxModel", {"backendNodeId": backend}))["model"]
        except PlaywrightError:
            return True, None, (0.0, 0.0)  # no box: not rendered (display:none)
        border, content = model["border"], model["content"]
        xs, ys = border[0::2], border[1::2]
        return True, (min(xs), min(ys), max(xs), max(ys)), (float(content[0]), float(content[1]))

    def defer_no_listeners(self, frame: Frame) -> None:
        """Remember that the last listing's icon candidates in this frame's document have no click listeners."""
        if frame in self._frames:
            target = self._frames[frame]
            self._worlds.no_listeners.add((target.id, target.loader))

    def take_no_listeners(self, frame: Frame) -> bool:
        """Whether the world of the frame's document is still to be told its last icon candidates have no
        listeners. Per document, not per frame: a frame's id outlives its navigations, and the next document's
        world met no candidates yet (told so, it would skip asking about its own)."""
        target = self._frames.get(frame)
        if target is None or (target.id, target.loader) not in self._worlds.no_listeners:
            return False
        self._worlds.no_listeners.discard((target.id, target.loader))
        return True

    def _current_world(self, frame: Frame) -> int | None:
        """The execution context of the frame's world for its current document, if one was made."""
        if not self.reaches(frame):
            return None
        target = self._frames[frame]
        return self._worlds.contexts.get((target.id, target.loader))

    def listed_before(self, frame: Frame) -> bool:
        """Whether the frame's current world answered a listing before (so it likely keeps a walk to describe
        the next one from, and that listing needs none of DevTools' answers a walk may ask for)."""
        context = self._current_world(frame)
        return context is not None and context in self._worlds.listed

    def mark_listed(self, frame: Frame) -> None:
        context = self._current_world(frame)
        if context is not None:
            self._worlds.listed.add(context)

    async def unseen_hosts(self, frame: Frame) -> str | None:
        """The custom elements the last walk could not see into, as a page object for :meth:`closed_roots`
        (``None`` when there are none or they could not be had)."""
        assert self._cdp is not None
        cdp = self._cdp
        try:
            context = await world_context(cdp, self._worlds, self._frames[frame], fresh=False)
            return await reference_in_context(cdp, context, take_unseen_hosts(), CLOSED_GROUP)
        except PlaywrightError:
            return None

    async def run_then_hosts(self, frame: Frame, call: PageCall[R], *,
                             listeners: bool = False) -> tuple[R, str | None, MarkedVerdicts | None]:
        """:meth:`run` ``call`` (a walk) and, right behind it, take the custom elements that walk could not
        see into (a page object for :meth:`closed_roots`; ``None`` when it could not be had) and, with
        ``listeners`` (the main frame, a walk with ``iconMark``), check the icon candidates it marked for click
        listeners (``None`` when it marked none or that could not be asked): all in one round trip, the requests
        sent before any answer is awaited, and the renderer runs them in that order."""
        assert self._cdp is not None
        cdp = self._cdp
        context = await world_context(cdp, self._worlds, self._frames[frame], fresh=False)

        async def hosts() -> str | None:
            try:
                return await reference_in_context(cdp, context, take_unseen_hosts(), CLOSED_GROUP)
            except PlaywrightError:
                return None

        async def marked() -> MarkedVerdicts | None:
            if not listeners or frame.parent_frame is not None:
                return None
            try:
                return await run_devtools(cdp, marked_click_listeners(), command_line_api=True)
            except PlaywrightError:
                return None

        # With the context known, no coroutine suspends before its request is written: gather starts them in
        # this order.
        data, array, verdicts = await asyncio.gather(self.run(frame, call), hosts(), marked())
        return data, array, verdicts

    async def closed_roots(self, frame: Frame, array: str | None) -> int:
        """Hand the closed shadow roots of ``array`` (from :meth:`run_then_hosts`) to the frame's isolated
        world, where the walk then enters them (:func:`.closed_roots.hand_closed_roots`). Returns how many."""
        if self._cdp is None or frame not in self._frames or array is None:
            return 0
        try:
            context = await world_context(self._cdp, self._worlds, self._frames[frame], fresh=False)
        except PlaywrightError:
            return 0
        handed = await hand_closed_roots(self._cdp, context, array)
        if handed:
            self._worlds.closed.add(self._frames[frame].id)
        return handed

    async def click_listeners(self, frame: Frame, ids: list[str]) -> list[str] | None:
        """The ids among ``ids`` whose element has a click-like listener; None when that cannot be asked
        (a child frame: DevTools evaluates without a context id only in the main frame's own world).
        DevTools' ``getEventListeners()`` sees only the listeners of the world it runs in, so this one small
        query runs in the page's own world; a page that breaks it only loses the icon guesses."""
        if self._cdp is None or frame.parent_frame is not None:
            return None
        try:
            value = await run_devtools(self._cdp, click_listeners(ids), command_line_api=True)
        except PlaywrightError:
            return None
        return [str(v) for v in value] if isinstance(value, list) else None


async def frame_worlds(session: BrowserSession, page: Page, *, main_first: bool = False) -> FrameWorlds:
    """Our isolated worlds in ``page``'s frames now; they reach nothing when the browser offers no DevTools.

    A page with child frames costs one ``Page.getFrameTree`` round trip to match them. A page of one frame
    reuses its main frame's DevTools id (it outlives navigations); a world of an earlier document is then
    found gone at the first evaluate and made anew (:meth:`FrameWorlds.run`). ``main_first`` (a listing): the
    main frame is reached at once when its id is known, the child frames only after
    :meth:`FrameWorlds.match_children` (the listing walks the main frame meanwhile)."""
    cdp = await page_cdp(session, page)
    if cdp is None:
        return FrameWorlds(None, PageWorlds(), {})
    worlds = page_worlds(session, page)
    if worlds.prepared is None:  # for the documents to come; this one's world is made below if need be
        start_worlds(cdp, page, worlds)
    if worlds.warming is not None and not worlds.warming.done():
        # The round trips this listing would make anyway, already on their way (a busy page answers them late):
        # wait for those rather than race them with a remembered main frame of the document before.
        await asyncio.shield(worlds.warming)
    if worlds.main is not None and (len(page.frames) == 1 or main_first):
        return FrameWorlds(cdp, worlds, {page.main_frame: worlds.main}, page)
    found = FrameWorlds(cdp, worlds, {}, page)
    return found if await found.match_children() else FrameWorlds(None, PageWorlds(), {})
