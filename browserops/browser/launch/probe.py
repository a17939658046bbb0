"""A self-check: find Chromium, start a session, open a page, report what happened."""

from __future__ import annotations

import time
from typing import Any

from playwright.async_api import async_playwright

from browserops.browser.launch.discovery import find_chromium
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


async def locate_chromium(configured: str | None) -> dict[str, Any]:
    """Discovery only, without launching: which binary would be used and why."""
    async with async_playwright() as pw:
        pw_path = pw.chromium.executable_path
    found = find_chromium(configured=configured, playwright_path=pw_path)
    return {"chromium": found.path, "chromium_source": found.source}
