"""Reading the page: a summary, its text, its ARIA snapshot, a screenshot."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from browserops.browser.errors import first_line
from browserops.browser.js import fonts as fonts_js
from browserops.browser.js import text as text_js
from browserops.browser.launch.cdp import page_cdp
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.frames import MAIN, frame_ids
from browserops.browser.page.navigation import page_info
from browserops.browser.page.redaction import mask_snapshot, redacted
from browserops.browser.scripts import PageScriptError, call_in_frame, run_devtools
from browserops.contract import BrowserOpsError, ErrorCode

log = logging.getLogger(__name__)
_REF = re.compile(r" \[ref=[a-z0-9]+\]")


async def summary(session: BrowserSession, *, snippet_chars: int = 600, max_headings: int = 25) -> dict[str, Any]:
    """Title, URL, headings outline (level, text), a snippet of the main text, counts, live messages
    (role=alert/status), open dialogs, and the frames with their own headings."""
    page = session.page
    out = await page_info(page)
    try:
        data = await call_in_frame(page.main_frame, text_js.extract(snippet_chars, max_headings))
    except PlaywrightError as exc:
        raise BrowserOpsError(ErrorCode.ACTION_FAILED, f"Could not read the page: {first_line(exc)}. "
                              "Wait for it to load (browser_wait) and retry.") from exc
    out.update({k: v for k, v in data.items() if v not in (None, [], {}, "")})
    frames = []
    for frame in page.frames[1:]:
        if frame.is_detached():
            continue
        try:
            sub = await call_in_frame(frame, text_js.extract(160, 5))
        except PlaywrightError:
            continue
        entry: dict[str, Any] = {"frame": frame_ids(session, frame).label, "url": frame.url}
        if sub.get("headings"):
            entry["headings"] = sub["headings"]
        if sub.get("messages"):
            entry["messages"] = sub["messages"]
        if sub.get("text"):
            entry["text"] = sub["text"]
        frames.append(entry)
    if frames:
        out["frames"] = frames
    return out


async def page_text(session: BrowserSession, *, offset: int = 0, max_chars: int = 4000) -> dict[str, Any]:
    """The visible text of the page (open shadow roots and every frame included), paged by characters."""
    page = session.page
    parts: list[str] = []
    for frame in page.frames:
        if frame.is_detached():
            continue
        try:
            text = await call_in_frame(frame, text_js.page_text())
        except PlaywrightError:
            continue
        text = re.sub(r"[ \t]+", " ", re.sub(r"\n\s*\n+", "\n", str(text))).strip()
        if not text:
            continue
        label = frame_ids(session, frame).label
        parts.append(text if label == MAIN else f"[frame {label}]\n{text}")
    full = "\n".join(parts)
    chunk = full[offset : offset + max_chars]
    out = await page_info(page)
    out.update({"text": chunk, "offset": offset, "total_chars": len(full)})
    if offset + max_chars < len(full):
        out["more"] = len(full) - offset - max_chars
        out["next"] = f"offset={offset + max_chars}"
    return out


async def aria_snapshot(page: Page, *, timeout_ms: int, session: BrowserSession | None = None) -> str:
    """Playwright's ARIA snapshot of the page in YAML, iframes included (its own ``[ref=…]`` markers are
    dropped: no tool takes them). Given the ``session``, sensitive values are hidden (page/redaction.py)."""
    try:
        raw = await page.aria_snapshot(mode="ai", timeout=timeout_ms)
    except PlaywrightError as exc:
        raise BrowserOpsError(ErrorCode.ACTION_FAILED, f"Could not take the ARIA snapshot: "
                              f"{first_line(exc)}.") from exc
    text = _REF.sub("", raw)
    return mask_snapshot(text, session) if session is not None else text


async def screenshot(page: Page, path: Path, *, full_page: bool = False, timeout_ms: int,
                     session: BrowserSession | None = None, redact: BrowserSession | None = None) -> dict[str, Any]:
    """Save a PNG of the viewport (or the whole page) at ``path``.

    Given the ``session``, a viewport shot is taken straight from Chromium (``Page.captureScreenshot`` with
    its fast PNG encoder, once web fonts are ready): the same pixels, lossless, in about half the time of
    Playwright's ``page.screenshot`` — which also hides the text caret and re-encodes harder for a smaller
    file. Evidence takes one before and after every step, so this is most of a run's screenshot time. A full
    page, or a browser without the DevTools protocol, goes through Playwright. Given ``redact`` (the session),
    sensitive fields and the page's echoes of secrets typed into them are covered (page/redaction.py).

    Chromium refuses a shot it cannot draw in time ("Unable to capture screenshot": a renderer starved on a busy
    machine, or a page between two documents): it is taken again once the page's document has loaded; a second
    refusal is ``BROWSER_SCREENSHOT_FAILED`` (:func:`taken_again_if_refused`)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if redact is not None and page is redact.page:
        async with redacted(redact):
            return await screenshot(page, path, full_page=full_page, timeout_ms=timeout_ms, session=session)

    async def shoot() -> bytes:
        data = await _fast_png(session, page, timeout_ms) if session is not None and not full_page else None
        return data if data is not None else await page.screenshot(full_page=full_page, timeout=timeout_ms)

    data = await taken_again_if_refused(shoot, page, timeout_ms)
    await asyncio.to_thread(path.write_bytes, data)
    width, height = _png_size(data)
    return {"path": str(path), "bytes": len(data), "width": width, "height": height, "full_page": full_page}


_REFUSED = "Unable to capture screenshot"


async def taken_again_if_refused(shoot: Callable[[], Awaitable[bytes]], page: Page, timeout_ms: int) -> bytes:
    """``shoot()``; when Chromium refuses it ("Unable to capture screenshot"), once more after the page's document
    has loaded. A second refusal is ``BROWSER_SCREENSHOT_FAILED``; any other failure ``BROWSER_ACTION_FAILED``."""
    for attempt in (1, 2):
        try:
            return await shoot()
        except PlaywrightError as exc:
            if _REFUSED not in str(exc):
                raise BrowserOpsError(ErrorCode.ACTION_FAILED, f"Screenshot failed: {first_line(exc)}.") from exc
            if attempt == 2:
                raise BrowserOpsError(
                    ErrorCode.SCREENSHOT_FAILED,
                    "Chromium refused the screenshot twice (\"Unable to capture screenshot\"): the page could not be "
                    "drawn in time, usually on a busy machine. Take it again; if it keeps failing, run fewer "
                    "browsers at once or raise tool_timeout_ms.") from exc
        log.info("Chromium refused a screenshot; taking it again once the page has loaded")
        with contextlib.suppress(PlaywrightError):  # a page that does not load: the second shot says what is wrong
            await page.wait_for_load_state(timeout=timeout_ms)
    raise AssertionError("unreachable")


async def _fast_png(session: BrowserSession, page: Page, timeout_ms: int) -> bytes | None:
    """The viewport's PNG from DevTools, or None when that way is closed or timed out (Playwright's own screenshot
    then says what is wrong, if anything). Chromium's refusal is raised: it is the same on either way."""
    cdp = await page_cdp(session, page)
    if cdp is None:
        return None
    try:
        # As Playwright does before a screenshot: let web fonts load, so text shows in its own font.
        with contextlib.suppress(TimeoutError, PageScriptError):
            await asyncio.wait_for(run_devtools(cdp, fonts_js.fonts_ready()), timeout_ms / 2000)
        shot = await asyncio.wait_for(cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True}),
                                      timeout_ms / 2000)
        return base64.b64decode(shot["data"])
    except PlaywrightError as exc:
        if _REFUSED in str(exc):
            raise
        return None
    except (TimeoutError, KeyError, ValueError):
        return None


def _png_size(data: bytes) -> tuple[int, int]:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return 0, 0
