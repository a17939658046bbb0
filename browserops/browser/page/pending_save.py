"""Whether the page still holds back a change it said was made: a ``beforeunload`` guard (a page that has not
finished saving asks before it is left) and a visible "Undo" offer in an alert, status or live region (an undoable
save or delete is sent only when that offer closes).

Read through DevTools' command-line API (``getEventListeners``), which page scripts cannot call and which changes
nothing on the page: the guard is counted, never triggered. Where the browser offers no DevTools session only the
Undo offer is read (in the page), and the guard count is unknown (``None``).
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field

from playwright.async_api import Error as PlaywrightError

from browserops.browser.launch.cdp import page_cdp
from browserops.browser.launch.session import BrowserSession
from browserops.browser.scripts import PageCall, call_in_frame, run_devtools

# The word of an "Undo" control in the languages the rest of browserops reads (lower case, whole words).
UNDO_WORDS: tuple[str, ...] = (
    "undo", "undo delete", "rückgängig", "rückgängig machen", "annuler", "deshacer", "annulla", "desfazer",
    "ongedaan maken", "cofnij", "ångra", "fortryd", "angre", "kumoa", "peruuta", "zpět", "visszavonás",
    "geri al", "отменить", "отмена", "скасувати", "撤销", "復原", "元に戻す", "실행 취소",
)


@dataclass(frozen=True)
class PendingSave:
    guards: int | None  # beforeunload listeners on the window; None when they could not be counted
    undo: list[str] = field(default_factory=list)  # names of the visible Undo controls
    document: float | None = None  # the document's time origin: another one after a navigation

    def holds_back(self, guards_before: int | None, document_before: float | None = None) -> list[str]:
        """What still holds the change back, compared with the guards of the same document before the step acted
        (a page the step led to may guard its own form: that is no change of this step's held back)."""
        out: list[str] = []
        same = document_before is not None and self.document == document_before
        if same and self.guards is not None and guards_before is not None and self.guards > guards_before:
            out.append("a leave-page guard (beforeunload)")
        if self.undo:
            out.append(f"an Undo offer ({self.undo[0]!r})")
        return out


async def pending_save(session: BrowserSession) -> PendingSave:
    """The active page's guards and Undo offers now; nothing known (0 guards unknown, no offer) when the page
    cannot be read (it is navigating, or gone)."""
    call: PageCall[dict[str, object]] = PageCall("pending_save", "pendingSave", {"undo": list(UNDO_WORDS)})
    try:
        page = session.page
    except Exception:
        return PendingSave(None)
    cdp = await page_cdp(session, page)
    raw: object = None
    with contextlib.suppress(PlaywrightError):
        if cdp is not None:
            raw = await run_devtools(cdp, call, command_line_api=True)
        else:
            raw = await call_in_frame(page.main_frame, call)
    if not isinstance(raw, dict):
        return PendingSave(None)
    guards, undo, document = raw.get("guards"), raw.get("undo"), raw.get("doc")
    return PendingSave(guards if isinstance(guards, int) and cdp is not None else None,
                       [str(u)[:40] for u in undo] if isinstance(undo, list) else [],
                       float(document) if isinstance(document, int | float) else None)
