"""The one way every tool finds an element: by its number in the latest listing, or by its ``data-blind-id``.

:func:`locate` turns a target into the listing item and blind id (without touching the page), then finds the
element in the frame it was listed in first, then in the other frames (an element moves between frames only
by being re-created, but an id given by hand may name any frame), running a typed page call on it in the
same round trip (:func:`browserops.browser.scripts.run_on`). :func:`element_call` runs another call on an
element already found. An element that is not there raises :class:`ElementGone` (``BROWSER_STALE_INDEX`` for
a number, ``BROWSER_ELEMENT_NOT_FOUND`` for an id), so "stale number" and "element gone" read the same in
every tool. Playwright's own actions (click, fill, select_option, set_checked) act through
:attr:`Located.locator`.

An element the page's own world cannot see — inside a closed shadow root, which the listing reaches through
DevTools (:mod:`browserops.browser.numbering.isolated`) — is looked for last in the frames' isolated worlds,
where the listing found it: the calls then run there (:attr:`Located.world`), and Playwright acts on a handle
of it instead of a locator (Playwright acts inside closed roots; it only cannot find elements there).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeVar

from playwright.async_api import ElementHandle, Frame, Locator
from playwright.async_api import Error as PlaywrightError

from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.elements import BLIND_ID_ATTR, BLIND_ID_PATTERN, latest_listing
from browserops.browser.numbering.frames import frame_by_label
from browserops.browser.numbering.isolated import FrameWorlds, frame_worlds
from browserops.browser.numbering.worlds import closed_roots_known
from browserops.browser.scripts import ElementCall, NotInFrame, run_on
from browserops.browser.state.listing import ListedElement
from browserops.contract import BrowserOpsError, ElementRef, ErrorCode

R = TypeVar("R")
_FRAME_PREFIX = re.compile(r"^(f\d+)b\d+$")


class ElementGone(BrowserOpsError):
    """The element a number or id names is not on the page (any more)."""

    def __init__(self, element: ElementRef, item: ListedElement | None, blind_id: str, *, acting: bool = False) -> None:
        if acting:  # found a moment ago: the page removed or replaced it while we were acting on it
            code, message = ErrorCode.STALE_INDEX, (f"Element {coerce_element(element)!r} disappeared while acting. "
                                                    "Call browser_list_interactives again.")
        else:
            code = ErrorCode.STALE_INDEX if item is not None else ErrorCode.ELEMENT_NOT_FOUND
            message = (f"Element {coerce_element(element)!r} is no longer on the page (it changed since the listing). "
                       "Call browser_list_interactives again; if it is still missing, close banners or scroll.")
        super().__init__(code, message)
        self.element = element
        self.blind_id = blind_id


@dataclass(frozen=True)
class InWorld:
    """An element found only in its frame's isolated world (inside a closed shadow root): the world that sees
    it and a Playwright handle of it."""

    worlds: FrameWorlds
    handle: ElementHandle


@dataclass
class Located:
    """An element found on the page: the listing item (for a number), its blind id and its frame."""

    item: ListedElement | None
    blind_id: str
    frame: Frame
    element: ElementRef
    world: InWorld | None = None  # set when only the frame's isolated world sees it

    @property
    def locator(self) -> Locator | ElementHandle:
        """What Playwright's actions act on: a locator by blind id, or the handle for an element in a closed root."""
        if self.world is not None:
            return self.world.handle
        return blind_locator(self.frame, self.blind_id)


def blind_locator(frame: Frame, blind_id: str) -> Locator:
    return frame.locator(f'[{BLIND_ID_ATTR}="{blind_id}"]').first


async def other_element(located: Located, blind_id: str) -> Locator | ElementHandle | None:
    """Another element (e.g. an option a combobox just opened) where ``located`` was found, for Playwright to act
    on: a locator, or for an element seen only by the isolated world a handle of it (None when it is not there)."""
    if located.world is None:
        locator = blind_locator(located.frame, blind_id)
        return locator if await locator.count() else None
    return await located.world.worlds.element_handle(located.frame, blind_id)


def coerce_element(element: ElementRef) -> ElementRef:
    """A digit-only string is a number (callers, LLMs especially, quote numbers); blind ids never are."""
    if isinstance(element, str) and element.strip().isdigit():
        return int(element.strip())
    return element


def check_blind_id(blind_id: str) -> str:
    if not BLIND_ID_PATTERN.match(blind_id):
        raise BrowserOpsError(
            ErrorCode.INVALID_ARGS,
            f"{blind_id!r} is not an element id. Use an id from browser_list_interactives (e.g. 'b12').",
        )
    return blind_id


def identify(session: BrowserSession, element: ElementRef) -> tuple[ListedElement | None, str]:
    """The listing item (for a number) and the blind id a target names, without touching the page. A number
    not in the latest listing of the active page raises ``BROWSER_STALE_INDEX`` saying what to do."""
    if isinstance(element, bool):
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, "Element must be a number or an id string.")
    element = coerce_element(element)
    if not isinstance(element, int):
        return None, check_blind_id(str(element))
    page = session.page
    listing = latest_listing(session)
    if listing is None or listing.page is not page:
        raise BrowserOpsError(
            ErrorCode.STALE_INDEX,
            f"No current listing for this page, so number {element} means nothing yet. "
            "Call browser_list_interactives first, then use its numbers.",
        )
    item = listing.by_number(element)
    if item is not None:
        return item, item.blind_id
    if listing.url and listing.url != page.url:
        raise BrowserOpsError(
            ErrorCode.STALE_INDEX,
            f"Number {element} belongs to the listing of {listing.url}, but the tab now shows {page.url}. "
            "Call browser_list_interactives for this page and use its numbers.",
        )
    if listing.items:
        span = f"numbers {listing.items[0].number}..{listing.items[-1].number} of {listing.total}"
    else:
        span = f"no items of {listing.total}"
    raise BrowserOpsError(
        ErrorCode.STALE_INDEX,
        f"Number {element} is not in the latest listing ({span}). "
        "Re-list with browser_list_interactives (same limit/offset) and use the new numbers.",
    )


def _likely_frame(session: BrowserSession, item: ListedElement | None, blind_id: str) -> Frame | None:
    """The frame the element was listed in (or whose id prefix it carries), if still attached. No round trip."""
    page = session.page
    frame: Frame | None = None
    if item is not None:
        listing = latest_listing(session)
        if listing is not None and listing.page is page:
            frame = listing.frames.get(item.frame)
    else:
        m = _FRAME_PREFIX.match(blind_id)
        frame = frame_by_label(session, page, m.group(1)) if m else page.main_frame
    return frame if frame is not None and not frame.is_detached() else None


def _navigating(exc: PlaywrightError) -> bool:
    """A frame that navigated (or is navigating) mid-call: the element is simply not there any more."""
    text = str(exc).lower()
    return "context was destroyed" in text or "navigat" in text or "detached" in text


async def locate(session: BrowserSession, element: ElementRef, call: ElementCall[R]) -> tuple[Located, R]:
    """Find ``target`` (a number of the latest listing or a blind id) and run ``call`` on it, in one round
    trip when it is where it was listed. Raises the stale-number errors of :func:`identify_target`,
    :class:`ElementGone`, or the Playwright error of the frame it was listed in (not a navigation: the
    caller says what was being done)."""
    item, blind_id = identify(session, element)
    first = _likely_frame(session, item, blind_id)
    frames = ([first] if first is not None else []) + [f for f in session.page.frames if f is not first]
    failure: PlaywrightError | None = None
    for frame in frames:
        if frame.is_detached():
            continue
        try:
            result = await run_on(frame, blind_id, call)
        except NotInFrame:
            continue
        except PlaywrightError as exc:  # a frame navigating away mid-search is just not a match
            failure = failure or (exc if frame is first else None)
            continue
        return Located(item, blind_id, frame, element), result
    found = await _in_isolated_worlds(session, first, blind_id, call)
    if found is not None:
        frame, world, result = found
        return Located(item, blind_id, frame, element, world), result
    if failure is not None and first is not None and not first.is_detached() and not _navigating(failure):
        raise failure
    raise ElementGone(element, item, blind_id)


async def _in_isolated_worlds(session: BrowserSession, first: Frame | None, blind_id: str,
                              call: ElementCall[R]) -> tuple[Frame, InWorld, R] | None:
    """The element as the frames' isolated worlds see it, where the page's own world did not (a closed shadow
    root the listing reached through DevTools); None when no world has it either."""
    page = session.page
    if not closed_roots_known(session, page):
        return None
    worlds = await frame_worlds(session, page)
    frames = ([first] if first is not None else []) + [f for f in page.frames if f is not first]
    for frame in frames:
        if frame.is_detached() or not worlds.holds_closed_roots(frame):
            continue
        try:
            result = await worlds.run_on(frame, blind_id, call)
            handle = await worlds.element_handle(frame, blind_id)
        except (NotInFrame, PlaywrightError):
            continue
        if handle is not None:
            return frame, InWorld(worlds, handle), result
    return None


async def element_call(located: Located, call: ElementCall[R]) -> R:
    """Run ``call`` on an element found before; :class:`ElementGone` when it has gone meanwhile."""
    try:
        if located.world is not None:
            return await located.world.worlds.run_on(located.frame, located.blind_id, call)
        return await run_on(located.frame, located.blind_id, call)
    except NotInFrame:
        raise ElementGone(located.element, located.item, located.blind_id, acting=True) from None
