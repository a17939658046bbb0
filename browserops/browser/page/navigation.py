"""Navigation primitives with Playwright errors turned into stable codes."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlparse

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page
from playwright.async_api import TimeoutError as PlaywrightTimeout

from browserops.browser.errors import first_line
from browserops.browser.launch.targets import workers_guarded
from browserops.contract import BrowserOpsError, ErrorCode

ALLOWED_SCHEMES = ("http", "https", "file", "about", "data")


def normalise_url(url: str) -> str:
    """Accept ``example.com`` like a browser's address bar would; refuse ``javascript:`` URLs."""
    url = url.strip()
    if not url:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, "url is empty. Give a full URL such as https://example.com.")
    scheme = urlparse(url).scheme.lower()
    if scheme == "javascript":
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, "javascript: URLs are not allowed; tools never run caller code.")
    if "://" not in url and scheme not in ALLOWED_SCHEMES:
        local = url.startswith(("localhost", "127.", "[::1]"))
        url = ("http://" if local else "https://") + url
        scheme = urlparse(url).scheme.lower()
    if scheme not in ALLOWED_SCHEMES:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"Unsupported URL scheme {scheme!r}; use http or https.")
    return url


async def page_info(page: Page) -> dict[str, Any]:
    try:
        title = await page.title()
    except PlaywrightError:
        title = ""
    return {"url": page.url, "title": title}


async def _run(page: Page, what: str, coro: Any, timeout_ms: int) -> dict[str, Any]:
    try:
        response = await coro
    except PlaywrightTimeout as exc:
        raise BrowserOpsError(
            ErrorCode.TIMEOUT,
            f"{what} did not finish loading within {timeout_ms} ms. The page may still be usable: "
            "call browser_wait or browser_list_interactives.",
        ) from exc
    except PlaywrightError as exc:
        first = first_line(exc)
        raise BrowserOpsError(
            ErrorCode.NAVIGATION_FAILED, f"{what} failed: {first}. Check the URL and that the site is reachable."
        ) from exc
    info = await page_info(page)
    info["http_status"] = response.status if response is not None else None
    return info


async def _navigate(page: Page, what: str, coro: Any, timeout_ms: int) -> dict[str, Any]:
    """A navigation browserops makes itself: once the page's held workers have their guards (a navigation lets go
    of them, and one to ``about:blank`` passes no tap that could wait: launch/targets.py), then :func:`_run`."""
    await workers_guarded(page)
    return await _run(page, what, coro, timeout_ms)


async def goto(page: Page, url: str, timeout_ms: int) -> dict[str, Any]:
    target = normalise_url(url)
    return await _navigate(page, f"Navigation to {target}",
                           page.goto(target, wait_until="domcontentloaded", timeout=timeout_ms), timeout_ms)


async def back(page: Page, timeout_ms: int) -> dict[str, Any]:
    return await _navigate(page, "Going back", page.go_back(wait_until="domcontentloaded", timeout=timeout_ms),
                           timeout_ms)


async def forward(page: Page, timeout_ms: int) -> dict[str, Any]:
    return await _navigate(page, "Going forward",
                           page.go_forward(wait_until="domcontentloaded", timeout=timeout_ms), timeout_ms)


async def reload(page: Page, timeout_ms: int) -> dict[str, Any]:
    return await _navigate(page, "Reload", page.reload(wait_until="domcontentloaded", timeout=timeout_ms),
                           timeout_ms)
