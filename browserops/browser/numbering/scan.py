"""Walking a page's frames for a listing: one enumeration per rendered frame, concurrently, in an isolated
world where DevTools reaches the frame (with DevTools' click-listener and closed-shadow-root answers), else in
the frame's own world. The main frame's walk starts at once; child frames are measured meanwhile and walked as
soon as their place in the viewport is known. :mod:`browserops.browser.numbering.listing` merges the answers.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page

from browserops.browser.errors import first_line
from browserops.browser.js import listing as listing_js
from browserops.browser.js.listing import FrameListing
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.frames import MAIN, child_views, main_view
from browserops.browser.numbering.isolated import FrameWorlds, frame_worlds
from browserops.browser.scripts import PageScriptError, call_in_frame
from browserops.browser.state.frames import FrameView
from browserops.contract import BrowserOpsError, ErrorCode

log = logging.getLogger(__name__)


@dataclass
class FrameResult:
    view: FrameView
    data: FrameListing


@dataclass
class Scan:
    results: list[FrameResult]
    failed: dict[str, str]  # frame label -> why it could not be enumerated


def _first_line(exc: BaseException) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0][:200]


async def _list_isolated(worlds: FrameWorlds, view: FrameView, args: dict[str, Any]) -> FrameListing:
    """The isolated-world enumeration, with what only DevTools can add: click listeners of icon-like
    elements (in the main frame asked right behind the walk, in the same round trip), and closed shadow roots
    (their hosts taken right behind the walk, then described). Both are remembered by the world for its
    document, so only the first listing of a page (or one meeting new candidates) pays a second walk, and
    only when DevTools found something. A listing the world will likely describe from its kept walk sends
    neither question behind it (they cost a reused listing a third of its time)."""
    main = view.frame.parent_frame is None  # DevTools asks for listeners in the main frame only
    first: dict[str, Any] = {**args, "icons": True, "closed": True, "iconMark": main}
    if worlds.take_no_listeners(view.frame):
        first["iconVerdicts"] = []  # the last listing's candidates: none has a listener
    started = time.perf_counter()
    hosts: str | None
    if args.get("reuse") and worlds.listed_before(view.frame):
        # Most likely described from the kept walk: no DevTools question behind it. One that walked after all (the
        # page changed) and met something DevTools must answer asks now, one round trip later.
        data, marked = await worlds.run(view.frame, listing_js.list_frame({**first, "iconMark": False})), None
        hosts = await worlds.unseen_hosts(view.frame) if data.get("closedCheck") else None
    else:
        data, hosts, marked = await worlds.run_then_hosts(view.frame, listing_js.list_frame(first), listeners=main)
    worlds.mark_listed(view.frame)
    walked = time.perf_counter()
    checks = [str(c) for c in data.get("iconCheck") or []]
    took = [0.0, 0.0]  # the two checks' times (DEBUG log)

    async def listeners() -> list[str] | None:
        if marked is not None and [str(i) for i in marked["ids"]] == checks:
            return [str(i) for i in marked["yes"]] if checks else None  # asked right behind the walk
        began = time.perf_counter()
        try:
            return await worlds.click_listeners(view.frame, checks) if checks else None
        finally:
            took[0] = time.perf_counter() - began

    async def closed() -> int:
        began = time.perf_counter()
        try:
            return await worlds.closed_roots(view.frame, hosts)  # None unless the walk met such elements
        finally:
            took[1] = time.perf_counter() - began

    verdicts, roots = await asyncio.gather(listeners(), closed())
    again: dict[str, Any] = {}
    if verdicts:
        again["iconVerdicts"] = verdicts
    elif checks:  # none has a listener: this listing is right as it is; the next one tells the world
        worlds.defer_no_listeners(view.frame)
    if roots:
        again["closed"] = False  # roots handed over: walk again, into them
    checked = time.perf_counter()
    if again:
        data = await worlds.run(view.frame, listing_js.list_frame({**args, **again, "again": True, "reuse": False}))
    if log.isEnabledFor(logging.DEBUG):  # where a slow listing's time went (bench/real_pages.py --phases)
        log.debug("frame %s: walk %.0f ms (in the page %s ms, reused %s), DevTools checks %.0f ms (listeners of %d "
                  "icons %.0f ms, %d hosts %s: %d closed roots in %.0f ms), again %.0f ms", view.label,
                  (walked - started) * 1000, "+".join(map(str, data.get("ms") or [])), bool(data.get("reused")),
                  (checked - walked) * 1000, len(checks), took[0] * 1000,
                  int(data.get("closedCheck") or 0), "taken" if hosts else "none", roots, took[1] * 1000,
                  (time.perf_counter() - checked) * 1000)
    return data


async def _run_list(worlds: FrameWorlds, view: FrameView, args: dict[str, Any]) -> FrameListing:
    """One frame's enumeration: in an isolated world where DevTools reaches the frame, else (an
    out-of-process frame, a browser without DevTools) in the frame's own world through Playwright."""
    data: FrameListing | None = None
    if worlds.reaches(view.frame):
        try:
            data = await _list_isolated(worlds, view, args)
        except PlaywrightError:
            # DevTools could not reach it after all (it went out of process) or our script threw there:
            # its own world, through Playwright.
            data = None
    if data is None:
        data = await call_in_frame(view.frame, listing_js.list_frame(args))
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        raise PageScriptError(f"the enumeration returned {type(data).__name__}, not a listing")
    return data


FrameArgs = Callable[[FrameView], dict[str, Any]]


async def _list_one(session: BrowserSession, worlds: FrameWorlds, view: FrameView, args_for: FrameArgs,
                    failed: dict[str, str], again: bool) -> FrameResult | None:
    """One frame's enumeration (``failed`` gets why, when it is not listed)."""
    args = {**view.script_args(), **args_for(view)}
    if again:  # a guess walked this frame in the wrong place just before: "new" is relative to the listing before
        args["again"] = True
    wait = CHILD_FRAME_WAIT_MS
    try:
        if view.label == MAIN:
            data = await _run_list(worlds, view, args)
        else:
            # A child frame busy loading or running its own scripts would hold the whole listing up: it
            # gets a bounded time, and is reported when it does not answer in it. One that did not answer
            # before at this URL (a navigation that never commits, an ad frame to a host that does not
            # answer) gets a short time, else every listing of the page would wait the whole bound; every
            # few listings it gets the whole bound again, so a frame merely slow is listed again.
            slow = session.state.slow_frames
            url, shorts = slow.get(view.frame, ("", SHORT_WAITS))
            short = url == view.frame.url and shorts < SHORT_WAITS
            wait = SLOW_FRAME_WAIT_MS if short else CHILD_FRAME_WAIT_MS
            try:
                data = await asyncio.wait_for(_run_list(worlds, view, args), wait / 1000)
            except TimeoutError:
                slow[view.frame] = (view.frame.url, shorts + 1 if short else 0)
                raise
            slow.pop(view.frame, None)
    except TimeoutError:
        failed[view.label] = (f"{ErrorCode.FRAME_NOT_LISTED.value}: the frame did not answer within {wait} ms "
                              "(still loading or busy); list again later")
        return None
    except PlaywrightError as exc:  # PageScriptError included
        if view.label != MAIN:
            if view.frame.is_detached():
                return None  # the page removed the frame meanwhile: nothing of it is on the page to list
            # Never silent: the rest of the page is listed and the result names this frame and why.
            failed[view.label] = f"{ErrorCode.FRAME_NOT_LISTED.value}: {_first_line(exc)}"
            return None
        # The page itself may be navigating: wait for the new document once (never for its load
        # event), then list it in its own world.
        try:
            await view.frame.wait_for_load_state("domcontentloaded", timeout=NAVIGATION_GRACE_MS)
            data = await call_in_frame(view.frame, listing_js.list_frame(args))
        except PlaywrightError:
            raise BrowserOpsError(
                ErrorCode.ACTION_FAILED,
                f"Could not list the page: {_first_line(exc)}. Wait for it to load (browser_wait), then "
                "list again.",
            ) from exc
    view.ids.seq = max(view.ids.seq, int(data.get("seq", 0)))
    return FrameResult(view, data)


async def scan(session: BrowserSession, worlds: FrameWorlds, frames: Frames, args_for: FrameArgs) -> Scan:
    """Every frame's enumeration, concurrently; the main frame's starts while the child frames are measured.
    ``args_for(view)``: that frame's arguments of ``list.js`` beside where it sits (window, reuse, scope…)."""
    failed: dict[str, str] = {}

    began = time.perf_counter()

    async def timed(view: FrameView, into: dict[str, str], again: bool = False) -> FrameResult | None:
        started = time.perf_counter()
        result = await _list_one(session, worlds, view, args_for, into, again)
        if log.isEnabledFor(logging.DEBUG):
            log.debug("frame %s: %s from %.0f to %.0f ms of the scan", view.label,
                      "listed" if result else into.get(view.label, "gone")[:40], (started - began) * 1000,
                      (time.perf_counter() - began) * 1000)
        return result

    tasks: list[asyncio.Future[FrameResult | None]] = [asyncio.ensure_future(timed(v, failed)) for v in frames.first]
    # Child frames where the last listing found them start at once too (a guess); each is kept when measuring
    # finds the frame in the same place, else walked again where it is now (the guess's answer, and any failure
    # of it, dropped).
    guessed: dict[Frame, tuple[FrameView, dict[str, str], asyncio.Future[FrameResult | None]]] = {}
    for v in frames.guesses:
        into: dict[str, str] = {}
        guessed[v.frame] = (v, into, asyncio.ensure_future(timed(v, into)))
    try:
        more = await frames.children() if frames.children is not None else []
    except BaseException:
        for task in [*tasks, *(g[2] for g in guessed.values())]:
            task.cancel()
        await asyncio.gather(*tasks, *(g[2] for g in guessed.values()), return_exceptions=True)
        raise
    kept: list[dict[str, str]] = []
    for view in more:
        guess = guessed.pop(view.frame, None)
        if guess is not None and _same_place(guess[0], view):
            tasks.append(guess[2])
            kept.append(guess[1])
        else:
            tasks.append(asyncio.ensure_future(timed(view, failed, again=guess is not None)))
            if guess is not None:
                _drop(guess[2])
    for guess in guessed.values():  # frames no longer rendered
        _drop(guess[2])
    results = await asyncio.gather(*tasks)
    for into in kept:
        failed.update(into)
    return Scan([r for r in results if r is not None], failed)


def _same_place(guess: FrameView, view: FrameView) -> bool:
    return (guess.order, guess.offset, guess.clip, guess.label) == (view.order, view.offset, view.clip, view.label)


def _drop(task: asyncio.Future[Any]) -> None:
    """A guess no longer wanted: it finishes on its own (its page call is under way); its outcome is ignored."""
    task.add_done_callback(lambda done: done.cancelled() or done.exception())


NAVIGATION_GRACE_MS = 6000
CHILD_FRAME_WAIT_MS = 1000  # a child frame's enumeration takes tens of ms; beyond this it is stuck
SLOW_FRAME_WAIT_MS = 300  # for a frame that did not answer in CHILD_FRAME_WAIT_MS before, at the same URL
SHORT_WAITS = 3  # short waits in a row before a frame that does not answer gets the whole bound again


@dataclass
class Frames:
    """The frames a listing walks: ``first`` (the main frame, known at once) and ``children`` (measured
    meanwhile; None when the listing is of the main frame only)."""

    first: list[FrameView]
    children: Callable[[], Awaitable[list[FrameView]]] | None
    guesses: list[FrameView] = field(default_factory=list)  # child frames where the last listing found them


async def prepare(session: BrowserSession, scope_frame: str | None) -> tuple[Page, FrameWorlds, Frames]:
    # No waiting on the page's load event: a frame that never finishes loading (an ad, a stalled embed)
    # would cost every listing its whole grace time. Frames not loaded yet are listed as they are now.
    page = session.page
    worlds = await frame_worlds(session, page, main_first=True)
    main = main_view(session, page)

    async def children() -> list[FrameView]:
        try:
            if not worlds.children_matched:
                await worlds.match_children()  # meanwhile the main frame is walked
            views = await child_views(session, page, main, worlds.frame_box)
        except PlaywrightError as exc:
            raise BrowserOpsError(
                ErrorCode.ACTION_FAILED,
                f"Could not read the page's frames: {first_line(exc)}. Wait for the page to load, then "
                "retry.",
            ) from exc
        if not scope_frame:
            session.state.last_views[page] = {v.frame: v for v in views}
        if scope_frame and scope_frame != MAIN:
            views = [v for v in views if v.label == scope_frame]
            if not views:
                raise BrowserOpsError(
                    ErrorCode.ELEMENT_NOT_FOUND,
                    f"No visible frame {scope_frame!r} on this page. A full listing names the frames it found.",
                )
        return views

    if scope_frame == MAIN:
        return page, worlds, Frames([main], None)
    first = [] if scope_frame else [main]
    if len(page.frames) == 1 and not scope_frame:
        return page, worlds, Frames(first, None)
    guesses: list[FrameView] = []
    last = session.state.last_views.get(page)
    if not scope_frame and last and worlds.match_children_kept():  # the same frames as then: no round trip
        guesses = [v for v in last.values() if not v.frame.is_detached() and worlds.reaches(v.frame)]
    return page, worlds, Frames(first, children, guesses)
