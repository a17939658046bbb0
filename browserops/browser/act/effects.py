"""What an action did to the page, and Playwright failures as errors a person can act on.

:class:`NavWatch` wraps an action and reports a navigation (document change), a same-document URL change
(single-page apps) and tabs the action opened; :func:`action_error` explains a Playwright failure.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from types import TracebackType
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Frame, Page, Request, Response
from playwright.async_api import TimeoutError as PlaywrightTimeout

from browserops.browser.errors import first_line
from browserops.browser.launch.session import BrowserSession
from browserops.browser.page.navigation import page_info
from browserops.browser.page.waiting import nothing_due
from browserops.contract import BrowserOpsError, ErrorCode

NEW_TAB_WAIT_S = 1.5
KEY_GRACE_S = 0.2  # after a key press: time for the page to start a navigation (Enter submitting a form)
GRACE_POLL_S = 0.05  # how often the page is asked again during that grace


class NavWatch:
    """Notices main-frame navigations (and new tabs) caused by an action.

    A click waits for the navigation it starts (Playwright does that, as for a key handler that navigates at once);
    a key press may start one a moment later (a handler that submits from a timer, a search that navigates once its
    request is answered), so keyboard actions give the page a short grace period to start one. The grace ends early
    once the page has nothing of its own due within it — no timer, animation frame or request it started since the
    act — because then nothing can start a navigation: an arrow key on a slider costs no fixed wait (an activating
    key, Enter or Space, waits the whole grace).
    """

    def __init__(self, session: BrowserSession, page: Page) -> None:
        self.session = session
        self.page = page
        self.navigated = False
        self.pending = False
        self.url_before = page.url
        self.tabs_before = len(session.pages)
        self.stopped = False
        self.expect_tab = False  # a target=_blank link: the new tab shows up just after the click
        self._navigations: set[Request] = set()  # the main frame's navigation requests not yet failed
        self._flying: set[Request] = set()  # other requests the page sent since the act, not yet ended
        self._event = asyncio.Event()
        self._tab_event = asyncio.Event()

    def _on_nav(self, frame: Frame) -> None:
        if frame is self.page.main_frame:
            self.navigated = True
            self._event.set()

    def _on_request(self, request: Request) -> None:
        if request.is_navigation_request() and request.frame is self.page.main_frame:
            self.pending = True
            self._navigations.add(request)
        else:
            self._flying.add(request)

    def _on_request_done(self, request: Request) -> None:
        self._flying.discard(request)

    def _on_response(self, response: Response) -> None:
        if response.status in (204, 205):  # no content: a browser stays on its page (prepare's fence answers so)
            self._on_request_failed(response.request)

    def _on_request_failed(self, request: Request) -> None:
        # A navigation that failed or was answered with no content (refused by a route, e.g. prepare's read-only
        # fence, or cancelled) commits nothing: no navigation event will come, and waiting for one would only run
        # out the action's clock.
        self._flying.discard(request)
        if request in self._navigations:
            self._navigations.discard(request)
            if not self._navigations:
                self._event.set()

    async def _grace(self, grace_s: float, activates: bool) -> None:
        """Up to ``grace_s`` for the page to start a navigation; over as soon as it started one, or — unless the key
        ``activates`` — has nothing due that could (see the class). An activating key's default action (Enter
        submitting a form) is a task of the browser's own that no page clock shows, started a moment after the key
        returned (a full run under load met a search submitted by Enter after the page said nothing was due): it
        gets the whole grace, as does a page that cannot say (no quiet clock)."""
        deadline = time.monotonic() + grace_s
        while not self.navigated and not self.pending:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            if not self._flying and not activates:
                try:
                    # No calm window: a change of the document starts nothing by itself, only what is due does.
                    # Nor a request the page sent since (its own count: the DevTools events come a moment later).
                    if await asyncio.wait_for(nothing_due(self.page, int(left * 1000), self.session, idle_ms=0,
                                                          requests=True), left):
                        return
                except TimeoutError:
                    return
            await asyncio.sleep(max(0.0, min(GRACE_POLL_S, deadline - time.monotonic())))

    def _on_page(self, page: Page) -> None:
        self._tab_event.set()

    async def __aenter__(self) -> NavWatch:
        self.page.on("framenavigated", self._on_nav)
        self.page.on("request", self._on_request)
        self.page.on("requestfailed", self._on_request_failed)
        self.page.on("requestfinished", self._on_request_done)
        self.page.on("response", self._on_response)
        self.session.context.on("page", self._on_page)
        return self

    async def __aexit__(
        self, et: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        if et is not None:
            self._stop()  # the action failed: nobody will ask for a report

    def _stop(self) -> None:
        if self.stopped:
            return
        self.stopped = True
        self.page.remove_listener("framenavigated", self._on_nav)
        self.page.remove_listener("request", self._on_request)
        self.page.remove_listener("requestfailed", self._on_request_failed)
        self.page.remove_listener("requestfinished", self._on_request_done)
        self.page.remove_listener("response", self._on_response)
        self.session.context.remove_listener("page", self._on_page)

    async def report(self, timeout_ms: int, *, grace_s: float = 0.0, activates: bool = False) -> dict[str, Any]:
        """What the action did; ``grace_s``: after a key press, how long a navigation may take to start (the whole of
        it for a key that ``activates``, see :meth:`_grace`)."""
        try:
            return await self._report(timeout_ms, grace_s, activates)
        finally:
            self._stop()

    async def _report(self, timeout_ms: int, grace_s: float, activates: bool) -> dict[str, Any]:
        if grace_s and not self.navigated:
            await self._grace(grace_s, activates)
        if self.pending and not self.navigated:
            # The response of a submitted form is on its way.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._event.wait(), timeout_ms / 1000)
        if self.expect_tab and len(self.session.pages) <= self.tabs_before:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._tab_event.wait(), NEW_TAB_WAIT_S)
            await asyncio.sleep(0)  # let the session register the page it was told about
        out: dict[str, Any] = {}
        if self.navigated and self.page.url != self.url_before and not self.pending:
            # pushState routing in a single-page app: same document, new URL, content probably swapped.
            out["url_changed"] = True
            out["url"] = self.page.url
            out["hint"] = "The app switched view: list the elements again before using numbers."
        elif self.navigated and (self.page.url != self.url_before or self.pending):
            # A new document — at the same URL too: a form posted to its own address and answered with the form
            # again (a server's validation errors). Its fields are new elements, read once it has loaded.
            try:
                await self.page.wait_for_load_state("domcontentloaded", timeout=timeout_ms)
            except PlaywrightError:
                out["loading"] = True  # still loading: browser_wait will tell when it is ready
            out["navigated"] = True
            out.update(await page_info(self.page))
            out["hint"] = "The page changed: call browser_list_interactives before using numbers."
        if len(self.session.pages) > self.tabs_before:
            out["new_tab"] = len(self.session.pages) - 1
            out["tab_hint"] = f"A new tab opened (index {out['new_tab']}); this tab stays active."
        return out


def action_error(what: str, exc: PlaywrightError) -> BrowserOpsError:
    """Turn a Playwright failure into a message that says what to do next."""
    text = str(exc)
    if "intercepts pointer events" in text:
        return BrowserOpsError(
            ErrorCode.ACTION_FAILED,
            f"{what}: another element lies on top of it (a banner, dialog or sticky bar). Close that first "
            "(browser_close_banners, or act on the dialog's own buttons), then retry.",
        )
    if "not enabled" in text or "disabled" in text:
        return BrowserOpsError(ErrorCode.ACTION_FAILED, f"{what}: the element is disabled. Fill the fields it "
                               "depends on first, or choose another element.")
    if "not editable" in text or "readonly" in text:
        return BrowserOpsError(ErrorCode.ACTION_FAILED, f"{what}: the field is read-only.")
    if "not visible" in text or "outside of the viewport" in text:
        return BrowserOpsError(ErrorCode.ACTION_FAILED, f"{what}: the element is not visible. Scroll to it or "
                               "open the section that holds it, then list again.")
    if "detached" in text or "not attached" in text:
        return BrowserOpsError(ErrorCode.STALE_INDEX, f"{what}: the element disappeared while acting. "
                               "Call browser_list_interactives again.")
    if isinstance(exc, PlaywrightTimeout):
        return BrowserOpsError(ErrorCode.ACTION_FAILED, f"{what}: the element did not become ready in time "
                               f"({first_line(exc)}). Close banners, scroll, list again and retry.")
    return BrowserOpsError(ErrorCode.ACTION_FAILED, f"{what} failed: {first_line(exc)}.")
