"""What the plan's run reads of its browser between tool calls, to tell whether a step's change was saved: the
unsafe requests the session's pages sent (the side-effect ledger), the page's leave-page guards and Undo offers, and
whether the page has work of its own due. It only reads and waits; the plan engine reaches it through its door
(:class:`browserops.plan.interpret.guard.GuardedTools`), never through ``browser/`` itself."""

from __future__ import annotations

from collections.abc import Awaitable
from typing import TypeVar

from browserops.browser.launch.requests import RequestMonitor, SentRequest
from browserops.browser.launch.session import BrowserSession
from browserops.browser.page.pending_save import PendingSave, pending_save
from browserops.browser.page.waiting import nothing_due
from browserops.contract import BrowserOpsError

__all__ = ["PendingSave", "RequestMonitor", "SaveProbe", "SentRequest"]

_T = TypeVar("_T")


class SaveProbe:
    """The run's reads of one browser session (see the module)."""

    def __init__(self, session: BrowserSession) -> None:
        self._session = session

    @property
    def requests(self) -> RequestMonitor:
        """The session's ledger of unsafe requests and WebSocket messages, in the order they left."""
        return self._session.requests

    @property
    def alive(self) -> bool:
        return self._session.alive

    async def pending(self) -> PendingSave:
        """The active page's leave-page guards and Undo offers now (nothing known when it cannot be read)."""
        return await pending_save(self._session)

    async def nothing_due(self, within_ms: int) -> bool:
        """Whether no frame of the page has a timer or an animation frame due within ``within_ms`` (False when
        there is no page to ask, or it cannot say)."""
        try:
            page = self._session.page
        except BrowserOpsError:  # closed, or the browser gone: nothing known
            return False
        return await nothing_due(page, within_ms, self._session)

    async def until_lost(self, work: Awaitable[_T], doing: str) -> _T:
        """``work``, unless the browser goes away first (``BROWSER_CRASHED``)."""
        return await self._session.until_lost(work, doing)

    def crashed_error(self, doing: str) -> BrowserOpsError:
        return self._session.crashed_error(doing)
