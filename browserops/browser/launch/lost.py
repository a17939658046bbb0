"""Racing an await against "the browser is gone".

Playwright leaves some calls unanswered forever when the browser dies under them (a new page being opened as the
process is killed: the call's future is never settled). The session owns one ``asyncio.Event`` set on browser
``disconnected``, context ``close`` and page ``crash``; every await that may outlive the browser (starting it,
routes, each tool call) goes through :func:`until_lost` instead of each getting a timeout of its own.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from browserops.contract import BrowserOpsError

_T = TypeVar("_T")
# After the browser is lost, how long a cancelled await may take to unwind before it is left behind.
CANCEL_GRACE_S = 2.0


async def until_lost(lost: asyncio.Event, work: Awaitable[_T], crashed: Callable[[], BrowserOpsError]) -> _T:
    """``await work``, unless ``lost`` is set first: then ``work`` is cancelled and ``crashed()`` is raised.
    When this await is itself cancelled, ``work`` is cancelled with it."""
    task = asyncio.ensure_future(work)
    if lost.is_set():
        task.cancel()
    else:
        waiter = asyncio.ensure_future(lost.wait())
        try:
            await asyncio.wait({task, waiter}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            waiter.cancel()
            if not task.done():  # lost, or this await itself cancelled
                task.cancel()
    if task.done() and not task.cancelled():
        return task.result()
    # Let the cancelled work unwind (its finally blocks), but never wait on a browser that is gone.
    await asyncio.wait({task}, timeout=CANCEL_GRACE_S)
    if task.done() and not task.cancelled():
        task.exception()  # retrieved: what it raised while unwinding is superseded by the crash
    raise crashed()
