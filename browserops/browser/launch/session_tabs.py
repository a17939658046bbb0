"""A browser session's tabs and what they raise: the pages of its context, which one is active, the dialogs,
downloads and new tabs the site opens, kept for the next tool call (``BrowserSession`` is one of these)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from playwright.async_api import BrowserContext, Dialog, Download, Page

from browserops.contract import BrowserOpsError, ErrorCode

if TYPE_CHECKING:
    from browserops.browser.launch.requests import RequestMonitor
    from browserops.browser.launch.targets import PageWires


class SessionTabs:
    """The tab part of :class:`~browserops.browser.launch.session.BrowserSession`, which sets these fields."""

    _pages: list[Page]
    _active: int
    notices: list[dict[str, Any]]
    dialogs: list[Dialog]
    downloads: list[Download]
    dialog_listeners: list[Callable[[Dialog], None]]
    download_listeners: list[Callable[[Download], None]]
    requests: RequestMonitor
    wires: PageWires

    _mark_dead: Callable[[str], None]  # the session's: a tab's crash is the session's loss

    if TYPE_CHECKING:  # the session's (it says how a stopped session fails)
        @property
        def context(self) -> BrowserContext: ...

    def _watch_page(self, page: Page) -> None:
        self.requests.watch_page(page)
        self.wires.watch_page(page)
        page.on("close", self._on_page_close)
        page.on("dialog", self._on_dialog)
        page.on("download", self._on_download)
        # A tab's renderer that died (killed, out of memory) leaves a tab nothing can be done with: the session
        # counts as crashed, like the browser itself, so the call ends as BROWSER_CRASHED and the next one (where
        # the front door restarts) gets a fresh browser. When the whole browser is being killed its renderers
        # often die first, and this is how that call learns it.
        page.on("crash", lambda _: self._mark_dead("a tab's page crashed"))

    def _on_dialog(self, dialog: Dialog) -> None:
        self.dialogs.append(dialog)
        tab = self._pages.index(dialog.page) if dialog.page in self._pages else None
        self.notices.append({"kind": "dialog", "type": dialog.type, "message": dialog.message[:300], "tab": tab})
        for listener in list(self.dialog_listeners):
            listener(dialog)

    def _on_download(self, download: Download) -> None:
        # Unclaimed downloads are kept for browser_download_wait; a bounded list, oldest dropped first.
        self.downloads = [*self.downloads[-49:], download]
        for listener in list(self.download_listeners):
            listener(download)

    def _on_new_page(self, page: Page) -> None:
        if page in self._pages:
            return
        self._pages.append(page)
        self._watch_page(page)
        opener_known = len(self._pages) > 1
        if opener_known:
            self.notices.append({"kind": "new_tab", "index": len(self._pages) - 1, "url": page.url})

    def _on_page_close(self, page: Page) -> None:
        if page in self._pages:
            idx = self._pages.index(page)
            self._pages.remove(page)
            if self._active >= idx and self._active > 0:
                self._active -= 1
        self.dialogs = [d for d in self.dialogs if d.page is not page]

    @property
    def pages(self) -> list[Page]:
        return list(self._pages)

    @property
    def active_index(self) -> int:
        return self._active

    async def new_page(self) -> Page:
        page = await self.context.new_page()
        if page not in self._pages:
            self._on_new_page(page)
        self._active = self._pages.index(page)
        return page

    def switch_to(self, index: int) -> Page:
        if not 0 <= index < len(self._pages):
            raise BrowserOpsError(
                ErrorCode.TAB_NOT_FOUND, f"No tab {index}; open tabs are 0..{len(self._pages) - 1}."
            )
        self._active = index
        return self._pages[index]

    def take_notices(self) -> list[dict[str, Any]]:
        out, self.notices = self.notices, []
        return out
