"""Waiting without sleeping blindly: DOM quiet, network idle, an element's state, text, URL, load states.

Two kinds of condition:
- *hard* ones (an element visible/hidden/attached/detached, a text, a URL fragment, a load state) fail with
  ``BROWSER_TIMEOUT`` when they are not met in time;
- *settling* ones (network idle, DOM quiet, settled) return in time whatever happens and say whether the page
  settled: on a single-page app that polls the server the network never goes idle, and a clock on the
  page keeps the DOM busy — the caller still gets control back.

*Settled* waits only for what the page's content waits for (:data:`WAITED_KINDS`: its data fetches and XHRs, a
frame's document, a script chunk), not images, fonts or beacons, and not a request in flight for longer than
:data:`LONG_LIVED_S` (a long poll, a stream): a single-page app's form is filled once its GETs are answered.
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from playwright.async_api import BrowserContext, Page
from playwright.async_api import Error as PlaywrightError

from browserops.browser import scripts
from browserops.browser.errors import first_line
from browserops.browser.js import element as element_js
from browserops.browser.js import text as text_js
from browserops.browser.js import watch as watch_js
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.locate import identify, locate
from browserops.browser.scripts import PageCall, call_in_frame
from browserops.browser.state.network import POLL_S, NetworkTracker
from browserops.contract import BrowserOpsError, ElementRef, ErrorCode

log = logging.getLogger(__name__)
ElementState = Literal["visible", "hidden", "attached", "detached"]
NETWORK_IDLE_MS = 500
# The DOM-quiet window is there for what a page's scripts may still do on their own after the last change. A
# document whose quiet clock sees none of that scheduled within the window (a timer due, an animation frame asked
# for, an animation ending) is quiet after IDLE_QUIET_MS; one with such work pending waits for it, at most the whole
# window (a page with a running clock: as if nothing were known).
IDLE_QUIET_MS = 50


def track_network(session: BrowserSession, page: Page | None = None) -> NetworkTracker:
    """Start (once per page) counting the page's requests; call early, e.g. before navigating."""
    page = page or session.page
    trackers = session.state.network
    for old in [p for p in trackers if p.is_closed()]:
        del trackers[old]
    tracker = trackers.get(page)
    if tracker is None:
        tracker = NetworkTracker(page)
        tracker.install()
        trackers[page] = tracker
    return tracker


# The contexts given the clock's init script. Kept with the context, not in the session's state: the script lives
# in the context for good, and a session whose state is forgotten (a test fixture does it per test) must not add it
# again on every navigation (each copy is one more script per document, and each add waits on every tab).
_CLOCKED: weakref.WeakSet[BrowserContext] = weakref.WeakSet()
CLOCK_INSTALL_S = 2.0


async def start_quiet_clock(session: BrowserSession) -> None:
    """Give every document the context opens from now on a quiet clock (once per context; before a navigation).

    Adding an init script waits on every tab of the context; a tab whose renderer is busy (a page spinning in its
    own script) never answers. The clock only saves waiting, so the add is bounded: past
    :data:`CLOCK_INSTALL_S` the navigation goes on without it (a document without a clock waits its whole window,
    as before) and it is not tried again in this context."""
    context = session.context
    if context in _CLOCKED:
        return
    _CLOCKED.add(context)
    try:
        await asyncio.wait_for(scripts.add_standalone(context, scripts.init_script(watch_js.start_clock())),
                               CLOCK_INSTALL_S)
    except TimeoutError:
        log.warning("quiet clock not installed: adding the init script took over %.0f s (a busy tab?)",
                    CLOCK_INSTALL_S)
    except PlaywrightError as exc:  # the context is closing: the navigation reports that itself
        log.debug("quiet clock not installed: %s", first_line(exc))


def _acted_ago_ms(session: BrowserSession | None) -> float | None:
    acted = session.state.acted_at if session is not None else None
    return None if acted is None else (time.monotonic() - acted) * 1000


async def _in_each_frame(page: Page, call: PageCall[Any]) -> list[Mapping[str, Any] | None]:
    """``call``'s answer in each frame of the page (None where the frame could not answer: it is navigating)."""

    async def one(frame: Any) -> Mapping[str, Any] | None:
        try:
            answer: Mapping[str, Any] = await call_in_frame(frame, call)
        except PlaywrightError:
            return None
        return answer

    return list(await asyncio.gather(*(one(f) for f in page.frames if not f.is_detached())))


async def dom_quiet(page: Page, quiet_ms: int, timeout_ms: int, session: BrowserSession | None = None,
                    answered_ago_ms: float | None = None, idle_ms: int = IDLE_QUIET_MS) -> dict[str, Any]:
    """Wait until no frame's DOM has changed for ``quiet_ms`` (at most ``timeout_ms``), or for IDLE_QUIET_MS in
    frames whose quiet clock sees nothing scheduled before the window would end (``idle`` in the result). With
    ``session``, a document that has a quiet clock counts the window from its last change, never from before the
    session's latest acting call (``SessionState.acted_at``), nor from before an answer that came ``answered_ago_ms``
    ago; and the page's clocks started before that act are not waited for."""
    acted = _acted_ago_ms(session)
    since = acted if acted is None or answered_ago_ms is None else min(acted, answered_ago_ms)
    call = watch_js.quiet(quiet_ms, max(timeout_ms, 1), since, min(idle_ms, quiet_ms), acted)
    results = [r for r in await _in_each_frame(page, call) if r]
    quiet = bool(results) and all(r.get("quiet") for r in results)
    return {"quiet": quiet, "mutations": sum(int(r.get("mutations", 0)) for r in results),
            "waited": max((int(r.get("waited", 0)) for r in results), default=0),
            "idle": quiet and all(r.get("idle") for r in results)}


async def nothing_due(page: Page, within_ms: int, session: BrowserSession | None = None, *,
                      idle_ms: int = IDLE_QUIET_MS, requests: bool = False) -> bool:
    """Whether no frame of the page has a timer or an animation frame due within ``within_ms`` (or a navigation
    started lately), ``idle_ms`` after its last change and its last scheduled work: nothing of the page's own can
    start a request meanwhile (with ``session``: nothing the session's latest act set off; a clock the page started
    before it ticks whatever was done; ``requests``: nor a fetch or XMLHttpRequest sent since that act still
    unanswered). False when a frame cannot say (no quiet clock, or it cannot be read)."""
    answers = await _in_each_frame(page, watch_js.nothing_due(max(0, within_ms), idle_ms, _acted_ago_ms(session),
                                                              requests=requests))
    return bool(answers) and all(bool(a and a.get("known") and a.get("none")) for a in answers)


async def settled(page: Page, tracker: NetworkTracker, quiet_ms: int, budget: _Budget,
                  session: BrowserSession | None = None) -> dict[str, Any]:
    """Until no awaited request is in flight *and* the DOM has been quiet for ``quiet_ms`` at the same time (what
    an agent, prepare and a run wait for after acting: an answer on its way keeps it waiting, a page that only
    renders does not; a long poll or a beacon does not either)."""
    rounds: list[str] = []
    while True:
        began = time.monotonic()
        await tracker.wait_answered(budget.left_s())
        answered = time.monotonic()
        # The window never counts from before the latest answer: what it set off (the render of its data, or the
        # download a navigation turned into, which the browser reports just after the request ends) comes after.
        # Such a download is nothing a page's script scheduled: the whole window is given to it.
        unloaded = tracker.unloaded_ago_ms()
        quiet = await dom_quiet(page, quiet_ms, max(1, budget.left_ms()), session, tracker.answered_ago_ms(),
                                quiet_ms if unloaded is not None and unloaded < quiet_ms else IDLE_QUIET_MS)
        rounds.append(f"answers {(answered - began) * 1000:.0f} ms, DOM quiet after {quiet['waited']} ms "
                      f"({quiet['mutations']} mutations{', nothing scheduled' if quiet['idle'] else ''})")
        if (quiet["quiet"] and not tracker.awaited()) or budget.left_s() <= 0:
            break
    log.debug("settled: %s", "; ".join(rounds))
    done = quiet["quiet"] and not tracker.awaited()
    out: dict[str, Any] = {"settled": done, "dom_quiet": quiet["quiet"], "nothing_scheduled": quiet["idle"]}
    if not done:
        out["note"] = ("The page kept changing or loading until the timeout (a clock, a ticker or polling); going "
                       "on anyway. List the elements to see the current state.")
    return out


async def page_has_text(page: Page, text: str) -> bool:
    for frame in page.frames:
        if frame.is_detached():
            continue
        try:
            if await call_in_frame(frame, text_js.has_text(text)):
                return True
        except PlaywrightError:
            continue
    return False


async def _element_state(session: BrowserSession, blind_id: str) -> tuple[bool, bool]:
    """(attached, visible) of the element, found as every tool finds one; gone or unreadable is neither."""
    try:
        _, seen = await locate(session, blind_id, element_js.visibility())
    except (BrowserOpsError, PlaywrightError):
        return False, False
    return True, seen["visible"]


@dataclass
class _Budget:
    deadline: float

    def left_s(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    def left_ms(self) -> int:
        return int(self.left_s() * 1000)


async def _poll(check: Any, budget: _Budget) -> bool:
    while True:
        if await check():
            return True
        if budget.left_s() <= 0:
            return False
        await asyncio.sleep(min(POLL_S, budget.left_s()))


async def _load_state(page: Page, state: str, budget: _Budget, timeout_ms: int) -> bool:
    """Wait for a load state; ``networkidle`` not reached is an answer (False), the others a timeout error."""
    try:
        await page.wait_for_load_state(state, timeout=max(1, budget.left_ms()))  # type: ignore[arg-type]
        return True
    except PlaywrightError as exc:
        if state != "networkidle":
            raise BrowserOpsError(ErrorCode.TIMEOUT, f"The page did not reach '{state}' within {timeout_ms} "
                                  "ms. It may still be usable: list its elements.") from exc
        return False


async def wait(
    session: BrowserSession,
    *,
    element: ElementRef | None = None,
    state: str | None = None,
    network_idle: bool = False,
    ms: int | None = None,
    text: str | None = None,
    url_contains: str | None = None,
    timeout_ms: int,
    quiet_ms: int,
) -> dict[str, Any]:
    """Wait for every given condition (in this order: pause, load state, element, text, URL, network idle,
    DOM quiet). With no condition at all it waits for DOM quiet."""
    page = session.page
    tracker = track_network(session, page)
    started = time.monotonic()
    out: dict[str, Any] = {}
    if ms:
        await asyncio.sleep(ms / 1000)
        out["paused_ms"] = ms
    budget = _Budget(time.monotonic() + timeout_ms / 1000)
    element_states = ("visible", "hidden", "attached", "detached")
    if state in ("load", "domcontentloaded", "networkidle"):
        out[state] = await _load_state(page, state, budget, timeout_ms)
    if element is not None:
        want = state if state in element_states else "visible"
        _, blind_id = identify(session, element)  # a number means the element it has now, while we wait

        async def element_ok() -> bool:
            attached, visible = await _element_state(session, blind_id)
            return {"visible": visible, "hidden": not visible, "attached": attached, "detached": not attached}[want]

        if not await _poll(element_ok, budget):
            raise BrowserOpsError(ErrorCode.TIMEOUT, f"Element {element!r} did not become {want} within "
                                  f"{timeout_ms} ms. List the elements to see the page as it is now.")
        out["element"] = want
    elif state in element_states:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"state={state!r} needs selector: the element number or id "
                              "to wait for.")
    if text:
        if not await _poll(lambda: page_has_text(page, text), budget):
            raise BrowserOpsError(ErrorCode.TIMEOUT, f"The text did not appear within {timeout_ms} ms. "
                                  "Check the page with browser_extract.")
        out["text"] = True
    if url_contains:
        async def url_ok() -> bool:
            return url_contains in page.url

        if not await _poll(url_ok, budget):
            raise BrowserOpsError(ErrorCode.TIMEOUT, f"The URL did not come to contain {url_contains!r} within "
                                  f"{timeout_ms} ms; it is {page.url}.")
        out["url"] = page.url
    if network_idle:
        idle = await tracker.wait_idle(NETWORK_IDLE_MS, budget.left_s())
        out["network_idle"] = idle
        if not idle:
            # The SPA case: requests never stop. Settle on the DOM instead, briefly, and say so.
            quiet = await dom_quiet(page, quiet_ms, min(2000, max(quiet_ms * 4, 500)))
            out["dom_quiet"] = quiet["quiet"]
            out["note"] = ("The network never went idle (the page keeps polling)"
                           + ("; the DOM is quiet, so the page has settled." if quiet["quiet"]
                              else " and the DOM keeps changing; list the elements and go on."))
    if state == "settled":
        out.update(await settled(page, tracker, quiet_ms, budget, session))
    conditions = any([element is not None, text, url_contains, network_idle, ms, state])
    if (state == "dom_quiet" or not conditions) and state != "settled":
        quiet = await dom_quiet(page, quiet_ms, max(1, budget.left_ms()))
        out["dom_quiet"], out["nothing_scheduled"] = quiet["quiet"], quiet["idle"]
        if not quiet["quiet"]:
            out["note"] = (f"The DOM kept changing for {timeout_ms} ms (a clock, ticker or animation); "
                           "going on anyway. List the elements to see the current state.")
    out["waited_ms"] = int((time.monotonic() - started) * 1000)
    return out
