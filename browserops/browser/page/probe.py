"""A self-check (``browserops doctor``): start a session, open a page, report what happened.

It lives with the page tools, not in launch/, because it navigates: launch/ starts browsers and never opens a
document (the import contract keeps launch below page).
"""

from __future__ import annotations

import time
from typing import Any

from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.browser.page.navigation import goto


async def probe(options: SessionOptions, url: str) -> dict[str, Any]:
    started = time.monotonic()
    async with BrowserSession(options) as session:
        launched_ms = (time.monotonic() - started) * 1000
        info = await goto(session.page, url, options.navigation_timeout_ms)
        version = session.context.browser.version if session.context.browser else None
        return {
            "mode": options.mode,
            "chromium": session.chromium.path if session.chromium else None,
            "chromium_source": session.chromium.source if session.chromium else None,
            "browser_version": version,
            "launch_ms": round(launched_ms),
            "url": info["url"],
            "title": info["title"],
        }

