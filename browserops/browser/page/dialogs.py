"""JavaScript dialogs as an explicit blocked state.

A page that shows ``alert``/``confirm``/``prompt``/``beforeunload`` stops running script until someone answers,
and Playwright actions on it (a click whose handler calls ``confirm``) wait for that answer. The session
records every dialog (``session.dialogs``) without answering it; this module

- reports the pending dialog (:func:`dialog_info`, :func:`blocking_dialog`),
- answers it for ``browser_dialog`` (:func:`answer_dialog`),
- and keeps tool calls from hanging on one (:func:`run_watching_dialogs`): a call that makes a dialog appear
  returns ``BROWSER_DIALOG_OPEN`` shortly after instead of waiting for its timeout.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import Any, TypeVar

from playwright.async_api import Dialog
from playwright.async_api import Error as PlaywrightError

from browserops.browser.errors import first_line
from browserops.browser.launch.session import BrowserSession
from browserops.contract import BrowserOpsError, ErrorCode

T = TypeVar("T")

# How long a call may still run after a dialog appeared: long enough for a click whose handler opened the
# dialog to be reported as such, short enough that "nothing hangs on a dialog" holds.
DIALOG_GRACE_S = 0.4


def _tab_of(session: BrowserSession, dialog: Dialog) -> int | None:
    pages = session.pages
    return pages.index(dialog.page) if dialog.page in pages else None


def dialog_info(session: BrowserSession, dialog: Dialog) -> dict[str, Any]:
    info: dict[str, Any] = {"type": dialog.type, "message": dialog.message[:500], "tab": _tab_of(session, dialog)}
    if dialog.type == "prompt":
        info["default_value"] = dialog.default_value[:200]
    return info


def pending_dialogs(session: BrowserSession) -> list[dict[str, Any]]:
    """Every unanswered dialog, oldest first (for observations and tab lists)."""
    return [dialog_info(session, d) for d in session.dialogs]


def blocking_dialog(session: BrowserSession) -> Dialog | None:
    """The unanswered dialog of the active tab, if any: it blocks every tool that touches that tab."""
    if not session.dialogs or not session.alive:
        return None
    try:
        active = session.page
    except BrowserOpsError:
        return None
    for dialog in session.dialogs:
        if dialog.page is active or dialog.page is None:
            return dialog
    return None


def dialog_open_error(session: BrowserSession, dialog: Dialog, *, opened_now: bool = False) -> BrowserOpsError:
    info = dialog_info(session, dialog)
    what = "This call opened" if opened_now else "The page shows"
    kind = "a leave-page confirmation" if dialog.type == "beforeunload" else f"a {dialog.type} dialog"
    hint = (
        "browser_dialog(accept=true, text='...') to answer it, or accept=false to cancel"
        if dialog.type == "prompt"
        else "browser_dialog(accept=true) to press OK, or accept=false to cancel"
    )
    return BrowserOpsError(
        ErrorCode.DIALOG_OPEN,
        f"{what} {kind}: {info['message']!r}. The page is blocked until it is answered: call {hint}.",
        details={"dialog": info},
    )


def check_no_dialog(session: BrowserSession) -> None:
    """Fail fast with BROWSER_DIALOG_OPEN when the active tab is blocked by a dialog."""
    dialog = blocking_dialog(session)
    if dialog is not None:
        raise dialog_open_error(session, dialog)


async def run_watching_dialogs(session: BrowserSession, coro: Awaitable[T],
                               *, grace_s: float = DIALOG_GRACE_S) -> T:
    """Run ``coro``; if a dialog opens on the active tab meanwhile and the call does not finish within
    ``grace_s``, cancel it (Playwright aborts the pending protocol call) and raise BROWSER_DIALOG_OPEN (a caller
    that announced the dialog, a plan step saying how to answer it, passes 0: waiting to see whether the call
    finishes anyway would only delay the answer). If the
    browser goes away meanwhile, cancel it at once and raise BROWSER_CRASHED rather than wait on a protocol
    call that may never answer."""
    loop = asyncio.get_running_loop()
    opened: asyncio.Future[Dialog] = loop.create_future()
    closed: asyncio.Future[None] = loop.create_future()

    def listener(dialog: Dialog) -> None:
        # A dialog in a background tab does not block this call; it is reported by the next observation.
        if not opened.done() and (dialog.page is None or blocking_dialog(session) is dialog):
            opened.set_result(dialog)

    def on_close(_: object) -> None:
        if not closed.done():
            closed.set_result(None)

    context = session.context
    context.on("close", on_close)
    session.dialog_listeners.append(listener)
    task: asyncio.Future[T] = asyncio.ensure_future(coro)
    try:
        either: set[asyncio.Future[Any]] = {task, opened, closed}
        await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
        if not task.done() and closed.done():
            await _cancel(task)
            raise BrowserOpsError(ErrorCode.CRASHED, "The browser closed during the call.")
        if not task.done():
            racing: set[asyncio.Future[Any]] = {task, closed}
            done, _ = await asyncio.wait(racing, timeout=grace_s, return_when=asyncio.FIRST_COMPLETED)
            if task not in done:
                await _cancel(task)
                raise dialog_open_error(session, opened.result(), opened_now=True)
        return task.result()
    finally:
        context.remove_listener("close", on_close)
        with contextlib.suppress(ValueError):
            session.dialog_listeners.remove(listener)
        if not task.done():  # we were cancelled ourselves (a timeout above us)
            task.cancel()
        for future in (opened, closed):
            if not future.done():
                future.cancel()


async def _cancel(task: asyncio.Future[Any]) -> None:
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, PlaywrightError, BrowserOpsError):
        await task


async def answer_dialog(session: BrowserSession, accept: bool, text: str | None = None) -> dict[str, Any]:
    """Answer the active tab's dialog, or else the oldest one. ``text`` is typed into a prompt."""
    if not session.dialogs:
        raise BrowserOpsError(ErrorCode.NO_DIALOG, "No dialog is open, so there is nothing to answer. Carry on.")
    dialog = blocking_dialog(session) or session.dialogs[0]
    info = dialog_info(session, dialog)
    session.dialogs.remove(dialog)
    try:
        if accept:
            if dialog.type == "prompt" and text is not None:
                await dialog.accept(text)
            else:
                await dialog.accept()
        else:
            await dialog.dismiss()
    except PlaywrightError as exc:
        # The page went away under the dialog (closed tab, crash): nothing is blocked any more.
        raise BrowserOpsError(
            ErrorCode.NO_DIALOG, f"The dialog is gone ({first_line(exc)}); the page no longer waits for it."
        ) from exc
    out: dict[str, Any] = {"answered": info, "accepted": accept}
    if text is not None:
        # The typed answer is user data: report only that it was given and its length, never the text.
        out["text_used"] = dialog.type == "prompt" and accept
        out["text_length"] = len(text)
        if not out["text_used"]:
            out["note"] = "text is only used when accepting a prompt dialog; it was ignored."
    # Let the page run the code that was waiting on the answer before the caller looks again.
    await asyncio.sleep(0.05)
    out["remaining_dialogs"] = pending_dialogs(session)
    return out
