"""Playwright tracing of a session's browser context (``run --trace``).

Recorded with DOM snapshots but without screencast frames: pictures of typed text could not be masked, and the
evidence bundle has its own screenshots. The caller masks typed values and the session (cookies, authorization
headers, stored values: :func:`session_values`) out of the zip (``evidence/trace.py``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.async_api import Error as PlaywrightError

from browserops.browser.errors import first_line
from browserops.browser.launch.session import BrowserSession
from browserops.contract import BrowserOpsError, ErrorCode


async def start_tracing(session: BrowserSession, title: str) -> None:
    try:
        await session.until_lost(session.context.tracing.start(title=title, snapshots=True, screenshots=False,
                                                               sources=False), "starting a trace")
    except PlaywrightError as exc:
        raise BrowserOpsError(ErrorCode.LAUNCH_FAILED, f"Could not start a Playwright trace: "
                              f"{first_line(exc)}. Run without --trace.") from exc


async def stop_tracing(session: BrowserSession, path: Path) -> None:
    """Write the trace to ``path`` (a zip ``playwright show-trace`` opens)."""
    try:
        await session.until_lost(session.context.tracing.stop(path=str(path)), "saving the trace")
    except PlaywrightError as exc:
        raise BrowserOpsError(ErrorCode.INTERNAL, f"Could not save the Playwright trace: "
                              f"{first_line(exc)}.") from exc


async def session_values(session: BrowserSession) -> list[str]:
    """The values of the context's cookies and local storage now (read after the trace stopped, so the reading is
    not traced): what the trace must not hold anywhere."""
    try:
        state: Any = await session.until_lost(session.context.storage_state(), "reading the session to mask it")
    except PlaywrightError as exc:
        raise BrowserOpsError(ErrorCode.INTERNAL, f"Could not read the session to keep it out of the trace: "
                              f"{first_line(exc)}.") from exc
    cookies = [str(c.get("value", "")) for c in state.get("cookies", [])]
    stored = [str(e.get("value", "")) for o in state.get("origins", []) for e in o.get("localStorage", [])]
    return [v for v in [*cookies, *stored] if v]
