"""Playwright's exceptions turned into the project's error codes, by type, at one boundary.

Everything that drives the page may fail with a Playwright exception; code in ``browser/`` often wraps one in a
:class:`~browserops.contract.BrowserOpsError` of its own (``raise ... from exc``). :func:`browser_errors` is put
around a whole tool call (the tool runner's invoke step) and around starting a session, and decides what the
failure *means*:

- the browser is gone (SIGKILL, OOM, a remote endpoint that dropped): ``BROWSER_CRASHED`` naming what was being
  done, whatever the inner code said. A Playwright failure alone is not proof (a site may close its own tab, a
  navigation may be aborted by the next one), so the session is asked with one cheap round trip
  (:func:`browser_gone`);
- a Playwright timeout: ``BROWSER_TIMEOUT``; any other Playwright error: ``BROWSER_ACTION_FAILED``.

Like httpx's ``map_exceptions``: callers above ``browser/`` never see a Playwright type.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Protocol

from playwright._impl._errors import TargetClosedError  # not in the public API; what "closed under us" is
from playwright.async_api import BrowserContext
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from browserops.contract import BrowserOpsError, ErrorCode

PROBE_TIMEOUT_S = 2.0


class LiveSession(Protocol):
    """What this module needs of a session (launch/session.py imports this module, so not the class itself)."""

    @property
    def alive(self) -> bool: ...

    @property
    def context(self) -> BrowserContext: ...

    @property
    def where(self) -> str:
        """Which browser, for messages: a remote or attached one by its endpoint."""


def crashed_error(doing: str, *, restarts: bool = False, browser: str | None = None) -> BrowserOpsError:
    """``BROWSER_CRASHED``; ``browser`` names it (a remote one by its endpoint: the user must know which to check)."""
    nxt = "the next call restarts it" if restarts else "nothing after that point ran"
    if browser is None:
        return BrowserOpsError(ErrorCode.CRASHED, f"The browser crashed while {doing}; {nxt}.")
    return BrowserOpsError(ErrorCode.CRASHED, f"The browser crashed while {doing}; {nxt}. It was {browser}: it "
                           "crashed, was closed, or the connection to it was lost.", details={"browser": browser})


def _chain(exc: BaseException) -> list[BaseException]:
    out: list[BaseException] = []
    node: BaseException | None = exc
    while node is not None and node not in out and len(out) < 20:
        out.append(node)
        node = node.__cause__ or node.__context__
    return out


async def browser_gone(session: LiveSession) -> bool:
    """True when the session's browser no longer answers: its own crash flag, else one cheap round trip to the
    browser process (listing cookies), bounded by ``PROBE_TIMEOUT_S``."""
    if not session.alive:
        return True
    try:
        await asyncio.wait_for(session.context.cookies(), PROBE_TIMEOUT_S)
    except (PlaywrightError, TimeoutError, BrowserOpsError):
        return True
    return not session.alive


@asynccontextmanager
async def browser_errors(session: LiveSession, doing: str, *, restarts: bool = False) -> AsyncIterator[None]:
    """Map whatever escapes the block: a dead browser → CRASHED (``doing`` names the work, e.g. "running
    browser_navigate"; ``restarts``: whether the caller restarts it on the next call); Playwright timeout →
    TIMEOUT; other Playwright errors → ACTION_FAILED. A BrowserOpsError from a live browser passes unchanged.
    (A context manager, so it adds no frame between a tool call and Playwright.)"""
    try:
        yield
    except BrowserOpsError as exc:
        if exc.code is ErrorCode.CRASHED or await _died(session, exc):
            raise crashed_error(doing, restarts=restarts, browser=session.where) from exc
        raise
    except PlaywrightTimeoutError as exc:
        if await browser_gone(session):
            raise crashed_error(doing, restarts=restarts, browser=session.where) from exc
        raise BrowserOpsError(ErrorCode.TIMEOUT, f"Timed out while {doing}: {first_line(exc)}. The page may be "
                              "busy: try browser_wait, then list the elements again.") from exc
    except PlaywrightError as exc:
        if await browser_gone(session):
            raise crashed_error(doing, restarts=restarts, browser=session.where) from exc
        what = "the tab was closed" if isinstance(exc, TargetClosedError) else first_line(exc)
        raise BrowserOpsError(ErrorCode.ACTION_FAILED, f"Failed while {doing}: {what}.") from exc


async def _died(session: LiveSession, exc: BrowserOpsError) -> bool:
    # Only a failure Playwright raised is worth a round trip; the crash flag is free. Not only a closed target: a
    # navigation under way as the browser is killed fails as aborted, and Playwright reports the failed navigation
    # a moment before the browser's disconnection (the sweep in tests/plan_e2e/test_startup_crash.py caught it).
    if not session.alive:
        return True
    return any(isinstance(e, PlaywrightError) for e in _chain(exc)) and await browser_gone(session)


def first_line(exc: BaseException) -> str:
    """The first line of a foreign error's message (at most 300 characters), or its type when it says nothing."""
    text = str(exc).strip().splitlines()
    return text[0][:300] if text else type(exc).__name__
