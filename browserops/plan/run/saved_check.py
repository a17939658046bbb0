"""A step that changes something is done only when its change has been sent and answered ("complete means saved").

After a click-like step (submit, payment, act, an activating press) the run waits — at most the step's
``saveWaitMs``, 10 s by default — until no request that could change a server is in flight, the page holds no new
leave-page guard (``beforeunload``) and shows no "Undo" offer (an undoable save or delete is sent only when that
offer closes), and, for a step that must send (``Step.must_send``: a submit or payment unless it says
``sends: false``), until something was sent and answered. Then:

- an answer 4xx/5xx fails the step with the status (``BROWSER_SUBMIT_FAILED`` / ``BROWSER_ACTION_FAILED``);
- a step that must send and sent nothing, or whose request is still unanswered, or whose Undo offer is still up
  with nothing sent, ends the run ``BROWSER_NOT_SAVED``: the page may say "saved", the server does not have it.

The requests come from the session's ledger, read through the plan's door (:attr:`GuardedTools.probe`); what the step
sent becomes its ledger (``StepEvent.sent``). Nothing here acts on the page: it only reads and waits.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence.events import SentRequest
from browserops.plan.model.document import PlanAction
from browserops.plan.model.steps import Kind
from browserops.tools.save_probe import PendingSave, SaveProbe
from browserops.tools.save_probe import SentRequest as Sent

SAVE_WAIT_MS = 10_000
POLL_S = 0.25  # how often the page is read again while nothing is sent or answered
QUIET_S = 0.3  # a click that may send is watched this long before "it sent nothing" is believed
CLOSE_WAIT_S = 10.0  # before the browser closes: the longest wait for a request still in flight


def ledger_entry(entry: Sent) -> SentRequest:
    return SentRequest.model_validate(entry.to_json())


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
    before: PendingSave | None = None
    waited_s: float = 0.0
    held: list[str] = field(default_factory=list)
    acted_at: float | None = None  # when the step's acting call returned (monotonic)

    @classmethod
    async def begin(cls, session: SaveProbe, step: PlanAction) -> SaveWatch:
        session.requests.set_step(step.number)
        watch = cls(session, step, session.requests.mark())
        if _watched(step):
            watch.before = await session.pending()
        return watch

    def acted(self) -> None:
        """The step's acting call returned: the short look for a request it starts counts from now, so the
        waits the run does meanwhile (its expectation, the page settling) are part of that look, not added to it."""
        self.acted_at = time.monotonic()

    def sent(self) -> list[Sent]:
        return self.session.requests.since(self.mark)

    def ledger(self) -> list[SentRequest]:
        return [ledger_entry(e) for e in self.sent()]

    def refused(self) -> Sent | None:
        """The first of the step's requests the server answered 4xx/5xx."""
        return next((e for e in self.sent() if e.status is not None and e.status >= 400), None)

    def refusal_error(self) -> BrowserOpsError | None:
        bad = self.refused()
        if bad is None:
            return None
        code = ErrorCode.SUBMIT_FAILED if self.step.kind in (Kind.SUBMIT, Kind.PAYMENT) else ErrorCode.ACTION_FAILED
        return BrowserOpsError(code, f"Step {self.step.number}: the server answered {bad.method} {bad.url} with "
                               f"{bad.status}, so the change was refused. See the after screenshot and the page's "
                               "snapshot in the bundle, fix the cause in the application, then prepare again.",
                               details={"status": bad.status, "request": ledger_entry(bad).model_dump(by_alias=True)})

    async def settle(self, saw: str | None) -> str | None:
        """Wait until the step's change is sent and answered (see the module); raise when it was refused or not
        saved. Returns a note for the step's outcome (what was sent), or None for a step not watched."""
        if not _watched(self.step):
            return None
        bound = (self.step.save_wait_ms if self.step.save_wait_ms is not None else SAVE_WAIT_MS) / 1000
        started = time.monotonic()
        must = self.step.must_send
        quiet_since: float | None = None
        first = True
        while True:
            pending = await self.session.pending()
            # The ledger is read after that await, never before: a request that left while the page was read
            # (an editor's ping as the new page starts) must keep the step from looking calm.
            now = time.monotonic()
            answered = [e for e in self.sent() if not e.in_flight and (e.status is not None or e.method == "WS")]
            flying = self.session.requests.in_flight()
            self.held = pending.holds_back(self.before.guards if self.before else None,
                                           self.before.document if self.before else None)
            if self.refused() is not None:
                break
            calm = not flying and not self.held and (answered or not must)
            if calm:
                if quiet_since is None:
                    quiet_since = self._calm_since(now, first=first)
                # Something answered, or nothing at all after a short look: a request a click starts a moment
                # later (a debounced save) is still caught. The look ends early when the page has nothing of its own
                # due before it would end (no timer or animation frame): nothing can start that request.
                if answered or self.step.sends is False or now - quiet_since >= QUIET_S:
                    break
                if await self._nothing_due(QUIET_S - (now - quiet_since)):
                    break
            else:
                quiet_since = None
            if now - started >= bound:
                break
            left = bound - (now - started)
            if quiet_since is not None:  # wake when the look is over, not at the next poll after it
                left = min(left, QUIET_S - (now - quiet_since))
            await self.session.requests.changed(min(POLL_S, max(0.0, left)))
            first = False
        self.waited_s = time.monotonic() - started
        error = self.refusal_error() or self._not_saved(saw, bound)
        if error is not None:
            raise error
        sent = self.sent()
        if not sent:
            return "; nothing sent" if must is False or self.step.sends is None else None
        return f"; sent {', '.join(sent_line(e) for e in sent[:3])}" + (f" (+{len(sent) - 3})" if len(sent) > 3
                                                                        else "")

    async def _nothing_due(self, within_s: float) -> bool:
        return await self.session.nothing_due(int(within_s * 1000))

    def _calm_since(self, now: float, *, first: bool) -> float:
        """Since when the step has been calm. On the first look, with nothing sent since the step began and nothing
        holding a change back now, that is since its acting call returned: a request it started would be in the
        ledger. Otherwise (something flew or held it back) since now."""
        if first and self.acted_at is not None and not self.sent():
            return min(now, self.acted_at)
        return now

    def _not_saved(self, saw: str | None, bound: float) -> BrowserOpsError | None:
        sent = self.sent()
        flying = [e for e in sent if e.in_flight]
        answered = [e for e in sent if not e.in_flight and (e.status is not None or e.method == "WS")]
        said = f"the page said {saw!r}" if saw else "the step was done on the page"
        n = self.step.number
        if flying:
            what = f"{flying[0].method} {flying[0].url} was still unanswered after {self.waited_s:.0f} s"
        elif not answered and (self.step.must_send or any("Undo" in h for h in self.held)):
            failed = [e for e in sent if e.failure]
            what = f"it sent nothing to the server in {bound:.0f} s" + (
                f" (held back by {' and '.join(self.held)})" if self.held else "") + (
                f"; {sent_line(failed[0])}" if failed else "")
        else:
            return None
        return BrowserOpsError(ErrorCode.NOT_SAVED, f"Step {n}: {said}, but {what}. The change is probably not "
                               "saved: check the application before trying again. If this step truly saves "
                               "nothing on a server, say `sends: false` in the step file; if it saves later, "
                               "raise its `saveWaitMs`.", details={"step": n, "heldBy": self.held,
                                                                   "sent": [ledger_entry(e).model_dump(by_alias=True)
                                                                            for e in sent]})


def _watched(step: PlanAction) -> bool:
    """Steps that may commit a change: clicks (submit, payment, act) and presses that activate; not typing."""
    return step.activates or step.sends is True


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
