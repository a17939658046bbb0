"""Watching a person use the page, for ``browserops record``: what they click, and when something changed.

A small listener is installed in every frame (an init script, so it also runs in documents opened later) and listens
in the capture phase to ``click``, ``input`` and ``change``. It never acts on the page. For a click it reports the
clicked element's ``data-blind-id`` (the numbering layer's stable id, found along the composed path, so through open
shadow roots), its tag, input type, whether it submits a form, and its visible label. For ``input``/``change`` it
reports the field's id and new state: the value (never a password field's, only that it is filled), the checked
state (and a radio group's ids), a file input's chosen file names, or a select's choice (a multiple select's
choices as a list) and the options it offered; for ``keydown`` only Escape while something is open and Enter in a
form without a submit button (the keys a replay must press too); and how the person answered a browser dialog
(DevTools' ``Page.javascriptDialogClosed``: OK or Cancel, with the dialog's message);
and the field's label texts, placeholder and title. A person can submit faster than a page can be listed, so the
state travels with the event. Events go through a DevTools binding of the page (``Runtime.addBinding``: its call
carries its text even when a submit navigates away at once), else (a cross-origin frame in its own process) as
``console.debug`` messages behind a random marker. The page-side listener is ``js/user_watch.js``. The recorder
reads everything else through the ordinary element layer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from typing import Any

from playwright.async_api import CDPSession, ConsoleMessage, Download, Frame, Page
from playwright.async_api import Error as PlaywrightError

from browserops.browser import scripts
from browserops.browser.errors import browser_errors
from browserops.browser.launch.cdp import page_cdp
from browserops.browser.launch.session import BrowserSession
from browserops.words import js_vocabulary

BINDING = "browserops-record"


def _script_source() -> str:
    return scripts.source("user_watch")


class UserWatch:
    """Events of a person using the session's pages, in the order they happened."""

    def __init__(self, session: BrowserSession) -> None:
        self.session = session
        self.events: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self._sends_mark = 0
        self._downloads_seen: set[Download] = set()
        # An init script cannot be removed from a context: each watch gets its own marker (a context reused for a
        # second recording keeps the first one's listener, whose messages nobody reads).
        self.binding = f"{BINDING}_{secrets.token_hex(6)}:"
        self.cdp_binding = f"browseropsRecord_{secrets.token_hex(6)}"
        self._script = (_script_source().replace("__CDP_BINDING__", self.cdp_binding)
                        .replace("__BINDING__", self.binding)
                        .replace("__VOCABULARY__", json.dumps(js_vocabulary())))
        self._cdp: CDPSession | None = None
        self._dialog: dict[str, str] = {}  # the dialog open now: its type and message
        self._documents: dict[Page, int] = {}  # page -> how many times its main frame navigated

    async def start(self) -> None:
        """Watch the session's pages from now on. A browser lost meanwhile (killed as it starts, or crashed) is
        BROWSER_CRASHED, another browser failure BROWSER_ACTION_FAILED: never a Playwright error."""
        async with browser_errors(self.session, "starting the recording"):
            await self._start()

    async def _start(self) -> None:
        context = self.session.context
        context.on("console", self._on_console)
        # The page's own DevTools binding first: its call arrives with its text even when a submit navigates away
        # at once (Playwright's bindings and console messages are resolved in a page context that may be gone).
        self._cdp = await page_cdp(self.session, self.session.page)
        if self._cdp is not None:
            try:
                await self._cdp.send("Runtime.addBinding", {"name": self.cdp_binding})
                self._cdp.on("Runtime.bindingCalled", self._on_binding)
                # How the person answered a dialog (OK or Cancel) is known only to the browser: DevTools says it.
                await self._cdp.send("Page.enable")
                self._cdp.on("Page.javascriptDialogOpening", self._on_dialog_opening)
                self._cdp.on("Page.javascriptDialogClosed", self._on_dialog_closed)
            except PlaywrightError:
                self._cdp = None
        await scripts.add_standalone(context, self._script)
        context.on("page", self._on_page)
        for page in context.pages:
            self._on_page(page)
        self._downloads_seen = set(self.session.downloads)
        self._sends_mark = self.session.requests.mark()
        for page in context.pages:
            for frame in page.frames:
                await self._install(frame)

    async def _install(self, frame: Frame) -> None:
        with contextlib.suppress(PlaywrightError):
            await scripts.run_standalone(frame, self._script)

    def _on_page(self, page: Page) -> None:
        self._documents.setdefault(page, 0)
        page.on("framenavigated", self._on_navigated)

    def _on_navigated(self, frame: Frame) -> None:
        if frame.parent_frame is None:
            self._documents[frame.page] = self._documents.get(frame.page, 0) + 1

    def document(self) -> tuple[int, int]:
        """Which document the active tab shows: (the tab, how many times its main frame navigated). The recorder
        compares it before and after a listing: a person may submit while the recorder is still reading the page,
        and a listing of the next page must not be read as changes on this one."""
        page = self.session.page
        return id(page), self._documents.get(page, 0)

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self.session.context.remove_listener("console", self._on_console)
            self.session.context.remove_listener("page", self._on_page)
        for page in list(self._documents):
            with contextlib.suppress(Exception):
                page.remove_listener("framenavigated", self._on_navigated)
        if self._cdp is not None:
            with contextlib.suppress(Exception):
                self._cdp.remove_listener("Runtime.bindingCalled", self._on_binding)
                self._cdp.remove_listener("Page.javascriptDialogOpening", self._on_dialog_opening)
                self._cdp.remove_listener("Page.javascriptDialogClosed", self._on_dialog_closed)

    def _on_binding(self, params: dict[str, Any]) -> None:
        if params.get("name") == self.cdp_binding:
            self._take(str(params.get("payload") or ""))

    def _on_dialog_opening(self, params: dict[str, Any]) -> None:
        self._dialog = {"dialogType": str(params.get("type") or ""), "message": str(params.get("message") or "")}

    def _on_dialog_closed(self, params: dict[str, Any]) -> None:
        # The person answered it in the window: it no longer blocks the page for the recorder's own reading.
        page = self.session.page
        self.session.dialogs = [d for d in self.session.dialogs if d.page is not page]
        self.session.state.person_acted(time.monotonic())
        self.events.put_nowait({"type": "dialog", "accepted": bool(params.get("result")), **self._dialog})
        self._dialog = {}

    def _on_console(self, message: ConsoleMessage) -> None:
        self._take(message.text)

    def _take(self, text: str) -> None:
        if not text.startswith(self.binding):
            return
        try:
            event = json.loads(text[len(self.binding):])
        except ValueError:
            return
        if isinstance(event, dict):
            # The person acted: a settle after it counts its quiet window from now, as after a tool's act. Without
            # it the quiet clock could call the page settled at once, before the browser told us of the request or
            # download the click started (the recorder would write a download as a plain click).
            self.session.state.person_acted(time.monotonic())
            keys = ("type", "blindId", "tag", "inputType", "submits", "label", "href", "files", "value", "checked",
                    "filled", "group", "groupLabel", "options", "labels", "values", "key", "moved", "widget")
            self.events.put_nowait({k: event.get(k) for k in keys})

    def new_downloads(self) -> list[str]:
        """Suggested file names of downloads that started since the last call."""
        # The session keeps a bounded list (oldest dropped), so downloads are told apart by identity, not index.
        fresh = [d for d in self.session.downloads if d not in self._downloads_seen]
        self._downloads_seen.update(fresh)
        return [d.suggested_filename for d in fresh]

    def new_sends(self) -> int:
        """How many requests that could change a server (the side-effect ledger's kinds: unsafe methods, beacons,
        WebSocket messages) the page sent since the last call."""
        mark = self.session.requests.mark()
        fresh, self._sends_mark = len(self.session.requests.since(self._sends_mark)), mark
        return fresh

    def closed(self) -> bool:
        """The person closed the window (every page of the context is gone)."""
        try:
            return not self.session.context.pages
        except Exception:  # the browser itself went away
            return True
