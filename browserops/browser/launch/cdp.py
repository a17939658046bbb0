"""One DevTools-protocol session per page, for the few things Playwright's API has no cheap call for: asking
which event listeners an element has (:mod:`browserops.browser.act.keylisteners`) and a viewport screenshot with
fast PNG encoding (:func:`browserops.browser.page.reading.screenshot`). Chromium only: where a session cannot be
had, callers fall back to Playwright's own way."""

from __future__ import annotations

from playwright.async_api import CDPSession, Page
from playwright.async_api import Error as PlaywrightError

from browserops.browser.launch.session import BrowserSession


async def page_cdp(session: BrowserSession, page: Page) -> CDPSession | None:
    """The page's DevTools session (opened once), or None when the browser does not offer one."""
    sessions = session.state.cdp
    for old in [p for p in sessions if p.is_closed()]:
        del sessions[old]
    if page not in sessions:
        try:
            sessions[page] = await session.context.new_cdp_session(page)
        except PlaywrightError:
            sessions[page] = None
    return sessions[page]
