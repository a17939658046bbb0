"""The run's side-effect ledger: what the pages sent while each step ran, taken from the session's request log into
the step's event (``StepEvent.sent``) and outcome, and what was still on its way when the browser was to close."""

from __future__ import annotations

from browserops.evidence import BundleWriter, StepEvent
from browserops.evidence.events import SentRequest
from browserops.plan.run.saved_check import before_close, ledger_entry
from browserops.tools.save_probe import SaveProbe


class RunLedger:
    """The part of the session's request log that belongs to this run, handed out step by step."""

    def __init__(self, probe: SaveProbe) -> None:
        self.probe = probe
        self.mark = probe.requests.mark()  # what the session sent before this run is not its ledger

    def take(self, *, unanswered: bool = False, saves: frozenset[int] | set[int] = frozenset()) -> list[SentRequest]:
        """What the pages sent since the last step recorded its ledger (a request that leaves between two steps
        goes with the next one). A request still unanswered (a heartbeat in flight as a step navigated) waits, with
        every one after it, for a later event, so it is written with its answer: only the run's last event (and a
        failed step's) takes it ``unanswered``. Each entry keeps the step it left during; those whose ids are in
        ``saves`` carried the step's change (``save``)."""
        sent = self.probe.requests.since(self.mark)
        if not unanswered:
            sent = sent[:next((i for i, e in enumerate(sent) if e.in_flight), len(sent))]
        self.mark = max([self.mark, *(e.id for e in sent)])
        return [ledger_entry(e, saves) for e in sent]

    async def close(self, writer: BundleWriter) -> None:
        """Before the browser closes: wait (bounded) for what is still on its way to the server, and record
        whatever was sent after the last step."""
        pending = await before_close(self.probe) if self.probe.alive else None
        sent = self.take(unanswered=True)
        blind = self.probe.requests.blind
        if sent or pending or blind:
            event = StepEvent.begin(step=0, kind="close", sent=sent)
            writer.log_event(event.end(status="ok", note="sent after the last step" + (
                f"; still pending when the browser closed: {pending}" if pending else "") + (
                f"; the ledger may lack what pages sent as they unloaded: {blind}" if blind else "")))
