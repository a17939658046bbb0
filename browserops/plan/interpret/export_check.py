"""An export is an export: the one rule, for both phases, on what an ``export`` step's click may do.

An export step runs without ``--confirm`` (it only brings a file into the bundle), so its click must not be anything
else: a step file — hand-written, or written by ``prepare --goal``'s model — that puts ``kind: export`` on "Delete"
or on a form's submit button would otherwise change the site on a plain ``run``. Each phase makes the export's click
its own way and reports what that click did as an :class:`ExportSeen`:

- prepare's rehearsal clicks it in its fenced copy (:mod:`browserops.plan.prepare.rehearsal`), where every unsafe
  request is refused before it leaves anyway; what the fence refused for that click is what it tried to send;
- the run clicks it in a read-only window of the session's request ledger
  (:attr:`~browserops.browser.launch.requests.RequestMonitor.read_only`): the session's DevTools tap refuses every
  unsafe request of the click before it leaves (a run always has origin rules, so its tap pauses every request),
  and what the ledger holds since then says what it tried; WebSocket messages are recorded, not refused.

:func:`export_refusal` judges both the same way: an export may start a download or only read (GET/HEAD/OPTIONS,
a new page it opens); anything it sent or tried to send that could change a site (any other method, a beacon, a
WebSocket message) refuses it with ``BROWSER_EXPORT_UNSAFE`` — prepare refuses the plan, the run stops there.

An export a site makes by a form POST answered with the file (django-import-export's form) sends by design: its
step file says so by raising the step's ``sideEffect`` (``browser-act``), which makes it a step that runs only with
``--confirm`` — the person confirms the POST, so it is neither refused nor fenced in the run (prepare's fence still
refuses it: the rehearsal never sends).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from types import TracebackType

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.plan.interpret.guard import GuardedTools
from browserops.plan.interpret.pages import settle
from browserops.plan.interpret.resolve import Resolved
from browserops.plan.model.document import PlanAction
from browserops.plan.model.facts import step_title
from browserops.tools.save_probe import RequestMonitor

# What the run's read-only window says when it refuses a request (the ledger keeps it as the refusal's reason).
READ_ONLY_WHY = "an export step may only download or read"
DUE_MS = 1500  # a timer the click set that fires within this long is still the click's
QUIET_S = 4.0  # at most this long is waited for the click's timers (a page that polls forever is never quiet)
POLL_S = 0.1


async def after_click(tools: GuardedTools) -> None:
    """Both phases, after an export's click: the page settles, then no timer is due soon — a change sent from a
    timer the click set (a second later, once the page went quiet) is still the export's, so it is seen (and
    refused) while its phase is watching."""
    await settle(tools)
    deadline = time.monotonic() + QUIET_S
    # Polled: what is due is a fact of the page's timers, which tell nobody when they change.
    for _ in range(int(QUIET_S / POLL_S)):
        if time.monotonic() >= deadline or await tools.probe.nothing_due(DUE_MS):
            return
        await asyncio.sleep(POLL_S)


@dataclass(frozen=True)
class ExportSeen:
    """What an export step's click did, as its phase saw it."""

    sent: tuple[str, ...]  # what it sent or tried to send that could change a site: "POST http://host/path"
    downloaded: bool | None = None  # a download started (None: the phase cannot tell: a refused GET only read)
    failure: BrowserOpsError | None = None  # the phase's own failure of the step (no file came)


def export_refusal(a: PlanAction, el: Resolved, seen: ExportSeen, *, phase: str) -> BrowserOpsError | None:
    """``BROWSER_EXPORT_UNSAFE`` when the click sent (or tried to send) a change; else the phase's own failure,
    if any. ``phase`` says where it was seen ("prepare's rehearsal", "the run")."""
    if seen.sent and not a.needs_confirm:
        sent = list(dict.fromkeys(seen.sent))
        then = ("so the plan is refused; nothing was sent (the rehearsal is fenced)" if phase == "prepare's rehearsal"
                else "so the run stops here; the browser refused those requests before they left")
        return BrowserOpsError(
            ErrorCode.EXPORT_UNSAFE,
            f"{step_title(a)[0].upper()}{step_title(a)[1:]} is an export, but clicking {el.role} \"{el.name}\" "
            f"in {phase} tried to send {', '.join(sent[:3])}{' …' if len(sent) > 3 else ''}: an export may only "
            f"download a file or read, {then}. Point the step at the control that downloads the file; if the site "
            "exports by a form post answered with the file, say so with 'sideEffect: browser-act' on the step (it "
            "then runs only with --confirm); then prepare again.",
            details={"step": a.number, "failedStep": a.number, "sent": sent[:10]},
        )
    return seen.failure


class ReadOnlyWindow:
    """The run's export click: while open, the session's DevTools tap refuses every unsafe request before it leaves
    (the ledger's :attr:`~RequestMonitor.read_only`); :meth:`sent` is what the click sent or tried to send — the
    refused requests, and whatever else reached the ledger meanwhile (a WebSocket message)."""

    def __init__(self, ledger: RequestMonitor) -> None:
        self.ledger = ledger
        self.mark = ledger.mark()
        self.refused = len(ledger.refused)

    def __enter__(self) -> ReadOnlyWindow:
        self.mark, self.refused = self.ledger.mark(), len(self.ledger.refused)
        self.ledger.read_only = READ_ONLY_WHY
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.ledger.read_only = None

    def sent(self) -> tuple[str, ...]:
        # Every ledger entry is an unsafe request or a WebSocket message; a refused one Playwright reported is in
        # both lists, under the same words.
        return (*self.ledger.refused[self.refused:], *(f"{e.method} {e.url}" for e in self.ledger.since(self.mark)))
