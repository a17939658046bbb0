"""Warm browsers: one Playwright driver and one launched Chromium per launch configuration, kept for the event loop
that started them and shared by the sessions that run on it, each in a fresh context of its own.

A session of mode ``launch`` with ``reuse`` on (setting ``browser_reuse``) takes its browser from here instead of
starting a driver and a Chromium of its own, and closes only its context when it ends. The contexts of one browser
share nothing a site can see: cookies, storage, cache, service workers, permissions and downloads are per context
(Playwright Test gives each test a fresh context of a browser its worker shares, for the same reason). What a reuse
saves is the start: on this project's 2-core machines a driver costs about 0.45 CPU s to start and a headless
Chromium about 0.3 more, which a process running many phases (an MCP or HTTP server preparing and running plans, a
program calling the CLI in-process, the test suite) pays once instead of once per phase.

What is shared is also lost together: a Chromium that crashes ends every session using it (each is told
``BROWSER_CRASHED`` as before, and the next session start launches a new one). Persistent profiles never share a
browser (their context is their browser), nor do attached (CDP) and remote browsers, which are not started here;
with ``reuse`` on they share the loop's driver all the same (a persistent profile's Chromium is launched through it
and closed with its context).

The driver's pipe belongs to the loop that started it, so the browsers are kept per loop and a loop's browsers must
be closed on that loop before it ends: :func:`close_warm_browsers` (the CLI does it when its loop ends, see
``cli/plan_support.py``).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import weakref
from collections.abc import Awaitable
from typing import Any, TypeVar

from playwright.async_api import Browser, Playwright, async_playwright
from playwright.async_api import Error as PlaywrightError

log = logging.getLogger(__name__)
_T = TypeVar("_T")


class WarmBrowsers:
    """The driver and browsers of one event loop."""

    def __init__(self) -> None:
        self._pw: Playwright | None = None
        self._browsers: dict[str, Browser] = {}
        self._lock = asyncio.Lock()
        self.launches = 0  # how many Chromiums this loop started (a reuse does not count)

    async def driver(self) -> Playwright:
        async with self._lock:
            return await self._driver()

    async def _driver(self) -> Playwright:
        if self._pw is None:
            self._pw = await async_playwright().start()
        return self._pw

    async def browser(self, launch_kwargs: dict[str, Any]) -> Browser:
        """The live Chromium launched with ``launch_kwargs`` (Playwright's ``launch``), launching it if there is none
        or the last one is gone (crashed, killed, closed)."""
        key = json.dumps(launch_kwargs, sort_keys=True, default=str)
        async with self._lock:
            known = self._browsers.get(key)
            if known is not None and known.is_connected():
                return known
            self._browsers.pop(key, None)
            pw = await self._driver()
            try:
                browser = await pw.chromium.launch(**launch_kwargs)
            except PlaywrightError:
                # A driver that lost its own process can launch nothing more: the next try starts a new one.
                await self._drop_driver()
                raise
            self.launches += 1
            self._browsers[key] = browser
            return browser

    async def _drop_driver(self) -> None:
        pw, self._pw = self._pw, None
        self._browsers.clear()
        if pw is not None:
            with contextlib.suppress(Exception):
                await pw.stop()

    async def close(self) -> None:
        async with self._lock:
            for browser in list(self._browsers.values()):
                with contextlib.suppress(PlaywrightError):
                    await browser.close()
            await self._drop_driver()


_BY_LOOP: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, WarmBrowsers] = weakref.WeakKeyDictionary()


def warm_browsers() -> WarmBrowsers:
    """The warm browsers of the running event loop."""
    loop = asyncio.get_running_loop()
    found = _BY_LOOP.get(loop)
    if found is None:
        found = _BY_LOOP[loop] = WarmBrowsers()
    return found


async def close_warm_browsers() -> None:
    """Close the running loop's warm browsers and driver (nothing when it has none)."""
    found = _BY_LOOP.pop(asyncio.get_running_loop(), None)
    if found is not None:
        await found.close()
        log.debug("warm browsers closed after %d launches", found.launches)


async def closing_warm_browsers(work: Awaitable[_T]) -> _T:
    """``await work``, then close the loop's warm browsers: for a loop that ends with the work (``asyncio.run``)."""
    try:
        return await work
    finally:
        await close_warm_browsers()
