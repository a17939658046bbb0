"""Run the enumeration where the page's own scripts cannot break it: an isolated world per frame.

A page may replace ``Array.prototype.map``, ``JSON.stringify``, ``Symbol.for`` or ``Element.prototype``
methods, or throw from getters it installs; a listing evaluated in the page's own JavaScript world then
fails or returns nothing. Chrome extensions and Playwright's own injected scripts avoid that by running in an
*isolated world*: the same DOM, a separate set of JavaScript globals and prototypes. We create one through
DevTools (``Page.createIsolatedWorld``, the call Playwright uses for its utility world) for each frame the
page's DevTools session can reach (the main frame and same-process child frames) and evaluate there.

The script text and its arguments are built exactly as :func:`browserops.browser.scripts.call_in_frame` builds
them (:func:`browserops.browser.scripts.world_expression`): one way to run page JavaScript, two places to run it.
Out-of-process frames (cross-site iframes under site isolation) are not in the page's session; for those,
and when DevTools is not offered at all, :meth:`IsolatedRunner.reaches` says no and the caller evaluates
through Playwright in the frame's main world as before.

Playwright frames are matched to DevTools frame ids by the frame tree: same parent, same URL and name, the
n-th such sibling; then, for the rest (an about:blank frame, which DevTools reports under its creator's
URL), same parent and name, in order. A world lives as long as its document: contexts are remembered per
(frame id, loader id), and re-created once when Chromium says the context is gone.

First listings are what a user waits for, so the world is made ahead of them
(:mod:`browserops.browser.numbering.worlds` keeps the worlds and their DevTools ids per document).
The closed-shadow-root check asks DevTools only about the custom elements the walk could not see into, right
behind the walk in the same round trip.

Acting goes through here too for an element only this world sees (inside a closed shadow root):
:meth:`IsolatedRunner.run_on` runs an element call on it by blind id, :meth:`IsolatedRunner.element_handle`
hands it to Playwright (see :mod:`browserops.browser.numbering.locate`).
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from typing import Any, TypeVar

from playwright.async_api import CDPSession, ElementHandle, Frame, Page
from playwright.async_api import Error as PlaywrightError

from browserops.browser.js.listing import click_listeners, register_closed_root, take_unseen_hosts
from browserops.browser.launch.cdp import page_cdp
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.worlds import (
    WORLD_NAME,
    CdpFrame,
    PageWorlds,
    evaluate_in,
    forget_owners,
    frame_owner,
    match_frames,
    page_worlds,
    start_worlds,
    world_context,
)
from browserops.browser.scripts import (
    PASS_ELEMENT,
    ElementCall,
    PageCall,
    PageScriptError,
    call_in_frame,
    expression,
    take_element,
    world_element_expression,
    world_expression,
    world_found_expression,
    world_found_result,
    world_function,
    world_reference,
    world_result,
)

CLOSED_GROUP = f"{WORLD_NAME}-closed"  # DevTools object group of the closed-root check's page objects
R = TypeVar("R")


def _closed_inside(node: dict[str, Any]) -> list[int]:
    """Backend node ids of the closed shadow roots within ``node`` (a pierced ``DOM.describeNode`` answer),
    in its own document: a frame's document is its own world's business."""
    out: list[int] = []
    stack = [node]
    while stack:
        current = stack.pop()
        for root in current.get("shadowRoots") or []:
            if root.get("shadowRootType") == "closed":
                out.append(int(root["backendNodeId"]))
            stack.append(root)
        stack.extend(current.get("children") or [])
    return out


class IsolatedRunner:
    """One listing's view of the page's DevTools frames: ``run(frame, name, args)`` per frame."""

    def __init__(self, cdp: CDPSession | None, worlds: PageWorlds, frames: dict[Frame, CdpFrame]) -> None:
        self._cdp = cdp
        self._worlds = worlds
        self._frames = frames

    def reaches(self, frame: Frame) -> bool:
        return self._cdp is not None and frame in self._frames

    def holds_closed_roots(self, frame: Frame) -> bool:
        """Whether the frame's world was handed closed shadow roots (and so may see elements the page's own
        world does not)."""
        return self.reaches(frame) and self._frames[frame].id in self._worlds.closed

    async def run(self, frame: Frame, call: PageCall[R]) -> R:
        """``call`` in the frame's isolated world. Raises :class:`PageScriptError` when the script throws
        there (or answers with something not ours) and PlaywrightError when the frame is gone."""
        return world_result(call, await self._evaluate_in(frame, world_expression(call)))

    async def run_here(self, frame: Frame, call: PageCall[R]) -> R:
        """``call`` where the listing runs: the frame's isolated world when DevTools reaches the frame (it also
        sees into the closed shadow roots the listing reached), else the frame's own world through Playwright."""
        return await (self.run(frame, call) if self.reaches(frame) else call_in_frame(frame, call))

    async def run_on(self, frame: Frame, blind_id: str, call: ElementCall[R]) -> R:
        """``call`` on the element with ``blind_id`` in the frame's isolated world, which also sees into the
        closed shadow roots the listing handed it (:meth:`closed_roots`). Raises :class:`NotInFrame` when
        the element is not there, else as :meth:`run`."""
        raw = await self._evaluate_in(frame, world_found_expression(blind_id, call))
        return world_found_result(call, blind_id, raw)

    async def _evaluate_in(self, frame: Frame, text: str, *, by_value: bool = True) -> Any:
        assert self._cdp is not None
        target = self._frames[frame]
        try:
            context = await world_context(self._cdp, self._worlds, target, fresh=False)
            return await evaluate_in(self._cdp, context, text, by_value=by_value)
        except PageScriptError:
            raise
        except PlaywrightError as exc:
            if "context" not in str(exc).lower():
                raise
        # The document changed under the remembered world (same loader, e.g. document.open): make a new one.
        context = await world_context(self._cdp, self._worlds, target, fresh=True)
        return await evaluate_in(self._cdp, context, text, by_value=by_value)

    async def element_handle(self, frame: Frame, blind_id: str) -> ElementHandle | None:
        """A Playwright handle of the element with ``blind_id`` that this world sees and the page's own world
        may not (inside a closed shadow root), so Playwright's actions (click, fill, press…) can act on it:
        Playwright acts on a handle inside a closed root (its hit test walks up from the element), it only
        cannot find one there. None when the element is not there.

        DevTools resolves the element into the frame's main world; Playwright's handles come only from its
        own evaluations, so the object is passed over under a random one-off name on ``window`` and taken
        (and the name deleted) by the next call: a page sees nothing of it unless it lists ``window``'s own
        properties in that instant, and learns only an element of its own."""
        if self._cdp is None or frame not in self._frames:
            return None
        cdp = self._cdp
        group = f"{WORLD_NAME}-handle"
        key = f"__bo_{secrets.token_hex(8)}"
        try:
            found = await self._evaluate_in(frame, world_element_expression(blind_id), by_value=False)
            if not isinstance(found, dict) or found.get("subtype") != "node":
                return None
            node = (await cdp.send("DOM.describeNode", {"objectId": found["objectId"]}))["node"]
            main = await cdp.send("DOM.resolveNode", {"backendNodeId": node["backendNodeId"], "objectGroup": group})
            await cdp.send("Runtime.callFunctionOn", {"objectId": main["object"]["objectId"],
                                                      "functionDeclaration": PASS_ELEMENT,
                                                      "arguments": [{"value": key}]})
            element = await take_element(frame, key)
        finally:
            with contextlib.suppress(PlaywrightError):
                await cdp.send("Runtime.releaseObjectGroup", {"objectGroup": group})
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
        """Remember that the last listing's icon candidates in this frame have no click listeners."""
        if frame in self._frames:
            self._worlds.no_listeners.add(self._frames[frame].id)

    def take_no_listeners(self, frame: Frame) -> bool:
        """Whether the frame's world is still to be told its last icon candidates have no listeners."""
        if frame not in self._frames or self._frames[frame].id not in self._worlds.no_listeners:
            return False
        self._worlds.no_listeners.discard(self._frames[frame].id)
        return True

    async def run_then_hosts(self, frame: Frame, call: PageCall[R]) -> tuple[R, str | None]:
        """:meth:`run` ``call`` (a walk) and, right behind it, take the custom elements that walk could not
        see into (a page object for :meth:`closed_roots`; ``None`` when it could not be had), in one round trip:
        both requests are sent before either answer is awaited, and the renderer runs them in that order."""
        assert self._cdp is not None
        cdp = self._cdp
        context = await world_context(cdp, self._worlds, self._frames[frame], fresh=False)

        async def hosts() -> str | None:
            try:
                listed = await cdp.send("Runtime.evaluate", {"expression": world_reference(take_unseen_hosts()),
                                                             "contextId": context, "objectGroup": CLOSED_GROUP})
            except PlaywrightError:
                return None
            return (listed.get("result") or {}).get("objectId")

        # With the context known, neither coroutine suspends before its request is written: gather starts them
        # in this order.
        data, array = await asyncio.gather(self.run(frame, call), hosts())
        return data, array

    async def closed_roots(self, frame: Frame, array: str | None) -> int:
        """Hand the closed shadow roots of ``array`` (the custom elements the last walk could not see into, from
        :meth:`run_then_hosts`) to the frame's isolated world, where the walk then enters them (page
        JavaScript, ours included, cannot see a closed root; DevTools' DOM domain pierces them, as browser-use
        does). Returns how many; 0 when there are none or DevTools cannot tell. DevTools describes only those
        elements, each on its own, and the closed roots found whole (nested closed roots included): the page's
        whole DOM is never serialised. The array is released in any case."""
        if self._cdp is None or frame not in self._frames or array is None:
            return 0
        cdp = self._cdp
        group = CLOSED_GROUP
        done: list[Any] = []
        try:
            context = await world_context(cdp, self._worlds, self._frames[frame], fresh=False)
            props = (await cdp.send("Runtime.getProperties", {"objectId": array, "ownProperties": True}))["result"]
            hosts = [str(p["value"]["objectId"]) for p in props
                     if str(p.get("name", "")).isdigit() and (p.get("value") or {}).get("objectId")]
            described = await asyncio.gather(*(cdp.send("DOM.describeNode", {"objectId": h}) for h in hosts),
                                             return_exceptions=True)
            tops = [int(root["backendNodeId"]) for answer in described if isinstance(answer, dict)
                    for root in answer["node"].get("shadowRoots") or [] if root.get("shadowRootType") == "closed"]
            if not tops:
                return 0
            inside = await asyncio.gather(*(cdp.send("DOM.describeNode", {"backendNodeId": b, "depth": -1,
                                                                            "pierce": True}) for b in tops),
                                          return_exceptions=True)
            roots = tops + [b for answer in inside if isinstance(answer, dict) for b in _closed_inside(answer["node"])]
            declaration, args = world_function(register_closed_root())

            async def register(backend: int) -> None:
                resolved = await cdp.send("DOM.resolveNode", {"backendNodeId": backend, "executionContextId": context,
                                                              "objectGroup": group})
                handle = resolved["object"]["objectId"]
                await cdp.send("Runtime.callFunctionOn", {
                    "objectId": handle, "functionDeclaration": declaration, "returnByValue": True,
                    "arguments": [{"objectId": handle}, {"value": args}]})

            done = await asyncio.gather(*(register(b) for b in dict.fromkeys(roots)), return_exceptions=True)
        except PlaywrightError:
            return 0
        finally:
            with contextlib.suppress(PlaywrightError):
                await cdp.send("Runtime.releaseObjectGroup", {"objectGroup": group})
        handed = sum(1 for d in done if not isinstance(d, BaseException))  # a root gone meanwhile is not handed
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
            answer = await self._cdp.send("Runtime.evaluate", {"expression": expression(click_listeners(ids)),
                                                               "includeCommandLineAPI": True, "returnByValue": True})
        except PlaywrightError:
            return None
        value = (answer.get("result") or {}).get("value")
        return [str(v) for v in value] if isinstance(value, list) else None


async def isolated_runner(session: BrowserSession, page: Page) -> IsolatedRunner:
    """The runner for this page now; reaches nothing when the browser offers no DevTools session.

    A page with child frames costs one ``Page.getFrameTree`` round trip to match them. A page of one frame
    reuses its main frame's DevTools id (it outlives navigations); a world of an earlier document is then
    found gone at the first evaluate and made anew (:meth:`IsolatedRunner.run`)."""
    cdp = await page_cdp(session, page)
    if cdp is None:
        return IsolatedRunner(None, PageWorlds(), {})
    worlds = page_worlds(session, page)
    if worlds.prepared is None:  # for the documents to come; this one's world is made below if need be
        start_worlds(cdp, page, worlds)
    if worlds.warming is not None and not worlds.warming.done():
        # The round trips this listing would make anyway, already on their way (a busy page answers them late):
        # wait for those rather than race them with a remembered main frame of the document before.
        await asyncio.shield(worlds.warming)
    if worlds.main is not None and len(page.frames) == 1:
        return IsolatedRunner(cdp, worlds, {page.main_frame: worlds.main})
    try:
        tree = (await cdp.send("Page.getFrameTree"))["frameTree"]
    except PlaywrightError:
        return IsolatedRunner(None, PageWorlds(), {})
    frames = match_frames(tree, page)
    worlds.main = frames.get(page.main_frame)
    forget_owners(worlds, frames)
    return IsolatedRunner(cdp, worlds, frames)
