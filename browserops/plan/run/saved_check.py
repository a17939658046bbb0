"""A step that changes something is done only when its change has been sent and answered ("complete means saved").

After a step acts — a click-like step (submit, payment, act, an activating press), and a typing, choosing or ticking
step too (an autosave after typing) — the run waits, at most the step's ``saveWaitMs`` (10 s by default), until no
request that carries the step's change (:mod:`.carriers`: sent after the act, to the page's own site or a form's
target, of a kind that carries data) is in flight; for a click, also until the page holds no new leave-page guard
(``beforeunload``) and shows no "Undo" offer (an undoable save or delete is sent only when that offer closes); and,
for a step that must send (``Step.must_send``: a submit or payment unless it says ``sends: false``), until such a
request was sent and answered — or the submit navigated by GET and the page answered (a link that approves and
comes back). The plan's last acting step also waits for the page's own due work: a timer due within
:data:`FINAL_DUE_S` of its act (a debounced autosave) and what it sends, so closing the browser drops nothing. Then:

- an answer 4xx/5xx *to a request that carried the change* fails the step with the status
  (``BROWSER_SUBMIT_FAILED`` / ``BROWSER_ACTION_FAILED``); a CSP report or an analytics beacon answered 4xx does not;
- a step that must send and sent nothing that carries a change, or whose request is still unanswered, or whose Undo
  offer is still up with nothing sent, ends the run ``BROWSER_NOT_SAVED``: the page may say "saved", the server
  does not have it.

The requests come from the session's ledger, read through the plan's door (:attr:`GuardedTools.probe`); what the step
sent becomes its ledger (``StepEvent.sent``), the carriers marked ``save``. Nothing here acts on the page.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence.events import SentRequest
from browserops.plan.model.document import PlanAction
from browserops.plan.model.steps import Kind
from browserops.plan.run.carriers import carries, heartbeats
from browserops.tools.save_probe import PendingSave, SaveProbe
from browserops.tools.save_probe import SentRequest as Sent

SAVE_WAIT_MS = 10_000
POLL_S = 0.25  # how often the page is read again while nothing is sent or answered
QUIET_S = 0.3  # a click that may send is watched this long before "it sent nothing" is believed
FINAL_DUE_S = 1.5  # after the plan's last act: the page's own work due this soon after it is waited for
CLOSE_WAIT_S = 10.0  # before the browser closes: the longest wait for a request still in flight


def ledger_entry(entry: Sent, saves: frozenset[int] | set[int] = frozenset()) -> SentRequest:
    """The bundle's ledger entry of a request; ``saves``: the ids of the requests that carried a step's change."""
    return SentRequest.model_validate({**entry.to_json(), **({"save": True} if entry.id in saves else {})})


def sent_line(entry: SentRequest | Sent) -> str:
    status = entry.status if entry.status is not None else (
        "sent" if entry.method == "WS" else entry.failure or "no answer")
    return f"{entry.method} {entry.url} → {status}"


@dataclass
class SaveWatch:
    """One step's watch: where the session's ledger stood and what guarded the page before the step acted."""

    session: SaveProbe
    step: PlanAction
    mark: int
    final: bool = False  # the plan's last acting step: the page's own due work is waited for after it
    before: PendingSave | None = None
    waited_s: float = 0.0
    held: list[str] = field(default_factory=list)
    acted_at: float | None = None  # when the step's acting call returned (monotonic)
    act_mark: int | None = None  # the ledger's mark as the acting call began: what carries the change is after it
    page_url: str = ""  # where the page was as the step acted (its own site)
    beats: frozenset[tuple[str, str]] = frozenset()  # WebSocket messages sent before the act (a repeat is a beat)
    saves: set[int] = field(default_factory=set)  # the ledger ids of the requests that carried the change

    @classmethod
    async def begin(cls, session: SaveProbe, step: PlanAction, *, final: bool = False) -> SaveWatch:
        session.requests.set_step(step.number)
        session.requests.navigations = False  # a GET navigation is recorded only while a submit acts
        watch = cls(session, step, session.requests.mark(), final=final)
        if _clicks(step):
            watch.before = await session.pending()
        return watch

    def acting(self, page_url: str) -> None:
        """The step's acting call begins on a page at ``page_url``: what the page sends from now on may carry its
        change; a submit's GET navigation is recorded from now on too."""
        self.act_mark, self.page_url = self.session.requests.mark(), page_url
        self.beats = heartbeats(self.session.requests.since(0))
        self.session.requests.navigations = self.step.must_send and self.step.activates

    def acted(self) -> None:
        """The step's acting call returned: the short look for a request it starts counts from now, so the
        waits the run does meanwhile (its expectation, the page settling) are part of that look, not added to it."""
        self.acted_at = time.monotonic()

    def sent(self) -> list[Sent]:
        return self.session.requests.since(self.mark)

    def carriers(self) -> list[Sent]:
        """The step's requests that carry its change (:mod:`.carriers`); none before it acted."""
        if self.act_mark is None:
            return []
        found = [e for e in self.session.requests.since(self.act_mark) if carries(e, self.page_url, self.beats)]
        self.saves.update(e.id for e in found)
        return found

    def refused(self) -> Sent | None:
        """The first request carrying the step's change that the server answered 4xx/5xx."""
        return next((e for e in self.carriers() if e.status is not None and e.status >= 400), None)

    def refusal_error(self) -> BrowserOpsError | None:
        bad = self.refused()
        if bad is None:
            return None
        code = ErrorCode.SUBMIT_FAILED if self.step.kind in (Kind.SUBMIT, Kind.PAYMENT) else ErrorCode.ACTION_FAILED
        return BrowserOpsError(code, f"Step {self.step.number}: the server answered {bad.method} {bad.url} with "
                               f"{bad.status}, so the change was refused. See the after screenshot and the page's "
                               "snapshot in the bundle, fix the cause in the application, then prepare again.",
                               details={"status": bad.status,
                                        "request": ledger_entry(bad, self.saves).model_dump(by_alias=True)})

    async def settle(self, saw: str | None) -> str | None:
        """Wait until the step's change is sent and answered (see the module); raise when it was refused or not
        saved. Returns a note for the step's outcome (what was sent), or None for a step not watched."""
        self.session.requests.navigations = False
        if not _watched(self.step) or (self.act_mark is None and not self.step.must_send):
            return None  # not a step that changes anything, or one that found nothing to change
        bound = (self.step.save_wait_ms if self.step.save_wait_ms is not None else SAVE_WAIT_MS) / 1000
        started = time.monotonic()
        await self._wait(started, bound)
        if self.final and self.refused() is None:
            await self._due_work(started, bound)
        self.waited_s = time.monotonic() - started
        error = self.refusal_error() or self._not_saved(saw, bound)
        if error is not None:
            raise error
        sent = self.sent()
        if not sent:  # a fill that sent nothing is the usual case: only a click says so
            return "; nothing sent" if _clicks(self.step) and (self.step.must_send is False
                                                              or self.step.sends is None) else None
        return f"; sent {', '.join(sent_line(e) for e in sent[:3])}" + (f" (+{len(sent) - 3})" if len(sent) > 3
                                                                        else "")

    async def _wait(self, started: float, bound: float) -> None:
        """Until the change is sent and answered, or a short look found nothing sent (see the module)."""
        must = self.step.must_send
        quiet_since: float | None = None
        first = True
        while True:
            pending = await self.session.pending() if _clicks(self.step) else PendingSave(None)
            # The ledger is read after that await, never before: a request that left while the page was read
            # (an editor's ping as the new page starts) must keep the step from looking calm.
            now = time.monotonic()
            carriers = self.carriers()
            answered = [e for e in carriers if _answered(e)]
            flying = [e for e in carriers if e.in_flight]
            self.held = pending.holds_back(self.before.guards if self.before else None,
                                           self.before.document if self.before else None)
            if self.refused() is not None:
                return
            calm = not flying and not self.held and (answered or not must)
            if calm:
                if quiet_since is None:
                    quiet_since = self._calm_since(now, first=first)
                # Something answered, or nothing at all after a short look: a request a click starts a moment
                # later (a debounced save) is still caught. The look ends early when the page has nothing of its own
                # due before it would end (no timer or animation frame): nothing can start that request.
                if answered or self.step.sends is False or now - quiet_since >= QUIET_S:
                    return
                if await self._nothing_due(QUIET_S - (now - quiet_since)):
                    return
            else:
                quiet_since = None
            if now - started >= bound:
                return
            left = bound - (now - started)
            if quiet_since is not None:  # wake when the look is over, not at the next poll after it
                left = min(left, QUIET_S - (now - quiet_since))
            await self.session.requests.changed(min(POLL_S, max(0.0, left)))
            first = False

    async def _due_work(self, started: float, bound: float) -> None:
        """After the plan's last act, before the browser closes: while the page has a timer of its own due within
        FINAL_DUE_S of the act (a debounced autosave), or a request it sent carrying the change is unanswered,
        wait (within the step's bound) — a save that would leave a moment later is not dropped."""
        acted = self.acted_at if self.acted_at is not None else started
        while True:
            now = time.monotonic()
            flying = [e for e in self.carriers() if e.in_flight]
            if self.refused() is not None or now - started >= bound:
                return
            due = FINAL_DUE_S - (now - acted)
            if not flying and (due <= 0 or await self._nothing_due(due)):
                return
            await self.session.requests.changed(min(POLL_S, max(0.05, due if not flying else POLL_S)))

    async def _nothing_due(self, within_s: float) -> bool:
        return await self.session.nothing_due(int(within_s * 1000))

    def _calm_since(self, now: float, *, first: bool) -> float:
        """Since when the step has been calm. On the first look, with nothing carrying a change sent since the step
        acted and nothing holding a change back now, that is since its acting call returned: a request it started
        would be in the ledger. Otherwise (something flew or held it back) since now."""
        if first and self.acted_at is not None and not self.carriers():
            return min(now, self.acted_at)
        return now

    def _not_saved(self, saw: str | None, bound: float) -> BrowserOpsError | None:
        sent = self.sent()
        carriers = self.carriers()
        flying = [e for e in carriers if e.in_flight]
        answered = [e for e in carriers if _answered(e)]
        said = f"the page said {saw!r}" if saw else "the step was done on the page"
        n = self.step.number
        if flying:
            what = f"{flying[0].method} {flying[0].url} was still unanswered after {self.waited_s:.0f} s"
        elif not answered and (self.step.must_send or any("Undo" in h for h in self.held)):
            failed = [e for e in carriers if e.failure]
            others = [e for e in sent if e.id not in self.saves]
            what = f"it sent nothing to the server in {bound:.0f} s" + (
                f" (held back by {' and '.join(self.held)})" if self.held else "") + (
                f"; {sent_line(failed[0])}" if failed else "") + (
                f"; what it did send carries no change of this page ({', '.join(sent_line(e) for e in others[:2])}: "
                "another site, a report or a repeat)" if others else "")
        else:
            return None
        return BrowserOpsError(ErrorCode.NOT_SAVED, f"Step {n}: {said}, but {what}. The change is probably not "
                               "saved: check the application before trying again. If this step truly saves "
                               "nothing on a server, say `sends: false` in the step file; if it saves later, "
                               "raise its `saveWaitMs`.", details={"step": n, "heldBy": self.held,
                                                                   "sent": [ledger_entry(e, self.saves).model_dump(
                                                                       by_alias=True) for e in sent]})


def _answered(entry: Sent) -> bool:
    """Answered: a status came, or it is a WebSocket message (sent whole; no answer belongs to it)."""
    return not entry.in_flight and (entry.status is not None or entry.method == "WS")


def _clicks(step: PlanAction) -> bool:
    """Steps that may commit a change by activating something: clicks (submit, payment, act), presses that
    activate, a step that says it sends. Their leave-page guards and Undo offers are watched too."""
    return step.activates or step.sends is True


def _watched(step: PlanAction) -> bool:
    """Steps whose requests are judged: those of :func:`_clicks`, and every step that changes a field (typing,
    choosing, ticking, attaching: a page may save each change as it is made)."""
    return _clicks(step) or step.kind is Kind.FILL


async def before_close(session: SaveProbe, timeout_s: float = CLOSE_WAIT_S) -> dict[str, Any] | None:
    """Before the browser closes after a run: wait (bounded) while a request that could change a server is in
    flight or an Undo offer is up, so closing the browser does not drop a change on the way. Returns what was
    still pending at the bound, or None."""
    started = time.monotonic()
    while True:
        pending = await session.pending() if session.alive else PendingSave(None)
        flying = session.requests.in_flight()  # after the await: what left meanwhile counts
        if not flying and not pending.undo:
            return None
        if time.monotonic() - started >= timeout_s:
            return {"inFlight": [sent_line(e) for e in flying], "undo": pending.undo}
        await session.requests.changed(POLL_S)
