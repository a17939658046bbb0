"""The one walk of a plan step, shared by prepare's rehearsal and the run: resolve → act → read back → check → record.

:class:`StepInterpreter` turns each step into the same sequence — open a page, wait for a text, snapshot, or find the
element, work out the call that acts on it (:func:`~browserops.plan.interpret.acting.act_for`), make it, read back
what it left (:func:`~browserops.plan.interpret.read_back.read_back`), await the step's expectation and let the page
settle — and a :class:`Phase` decides what each move means in its phase:

- prepare's rehearsal (:class:`browserops.plan.prepare.rehearsal.RehearsalPhase`) acts in a fenced copy of the
  browser and never submits; it records each field's value for the diff, and what it cannot see as the run will is
  "not read"; a mismatch is a problem of the plan;
- the run (:class:`browserops.plan.run.executor.RunPhase`) acts after ``--confirm``, checks the page against the
  plan's fingerprint first, shoots before and after, waits until the change is saved; a mismatch stops it.

``record`` watches a person rather than walking steps: it shares the reading side (listing, naming by meaning,
reading values), not this walk.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol

from browserops.contract import BrowserOpsError
from browserops.evidence import BundleWriter, StepEvent
from browserops.plan.interpret.acting import Act, StepInput, Unchanged, act_for
from browserops.plan.interpret.export_check import ExportSeen, export_refusal
from browserops.plan.interpret.form_says import FormVerdict
from browserops.plan.interpret.guard import GuardedTools
from browserops.plan.interpret.pages import PageSeen, wait_expect
from browserops.plan.interpret.read_back import Mismatch, read_back
from browserops.plan.interpret.refind import refinder
from browserops.plan.interpret.resolve import Resolved
from browserops.plan.model.document import PlanAction
from browserops.plan.model.steps import Action, absolute_url

Progress = Callable[[str], None]


@dataclass
class StepRecord:
    """One step as it is walked: its event for the bundle's log and what its outcome says so far."""

    action: PlanAction
    head: str  # "[3/9] fill amount": how progress lines name it
    event: StepEvent
    note: str = ""
    status: str = "ok"  # ok | unchanged | skipped
    admitted: bool = True  # False: the phase did not walk it at all (it said why)
    said: str | None = None  # the progress line's text after the head, when the phase words it itself
    saw: str | None = None  # the expected text (or URL) a click brought
    screenshots: list[str] = field(default_factory=list)
    exports: list[str] = field(default_factory=list)


class Phase(Protocol):
    """What a phase decides in the walk of one step (see the module)."""

    seen: PageSeen
    name: str  # how messages name the phase: "prepare's rehearsal", "the run"

    async def admit(self, rec: StepRecord) -> bool:
        """Whether the step is walked at all (run: --confirm; prepare: a page it cannot see is "not read")."""

    async def open(self, rec: StepRecord, url: str, *, already: bool) -> None:
        """A navigate step (``already``: step 1 to the start URL, which is open)."""

    async def text(self, rec: StepRecord, proof: dict[str, Any] | None) -> None:
        """A wait_text step, with the proof found or None."""

    async def snapshot(self, rec: StepRecord) -> None:
        """A snapshot step."""

    async def find(self, rec: StepRecord) -> Resolved | None:
        """The step's element in the page (None: not there and the phase said why)."""

    async def ready(self, rec: StepRecord, el: Resolved | None, act: Act | Unchanged | None) -> bool:
        """Before acting: whether this phase acts at all (prepare never submits; an export is the run's)."""

    async def perform(self, rec: StepRecord, act: Act) -> dict[str, Any] | None:
        """Make the acting call; its data, or None when it failed and the phase recorded why."""

    async def export(self, rec: StepRecord, el: Resolved, act: Act) -> ExportSeen:
        """An export step's click, made the phase's way, and what it did (judged by :func:`export_refusal`)."""

    async def mismatch(self, rec: StepRecord, found: Mismatch) -> None:
        """The read-back found the element not as planned."""

    async def expectation_missing(self, rec: StepRecord, act: Act, form_says: Sequence[str] = ()) -> None:
        """A click's expected text (or URL) did not come (``form_says``: the fields the page marked invalid since
        the click, which ended the wait early)."""

    def sending(self) -> bool:
        """Whether a request carrying the step's change is still on its way (the page's form is not read meanwhile:
        only its answer says how the submit went)."""

    def refused(self) -> bool:
        """Whether the server already refused the step's change (4xx/5xx): its expected text will not come."""

    async def settle(self) -> None:
        """Wait until the page settled after a click, before the next step reads it."""

    async def acted(self, rec: StepRecord, act: Act | Unchanged | None) -> None:
        """After the act (or after finding nothing to do): what the phase keeps of it."""

    async def failed(self, rec: StepRecord, exc: BrowserOpsError) -> NoReturn:
        """The step failed: record it and stop."""

    def done(self, rec: StepRecord) -> None:
        """The step is over: log its event and say its progress line."""


class PhaseBase:
    """What every phase that walks steps holds: the door to the browser, the bundle it records into, where its
    progress lines go and where the tab is."""

    name = "the phase"

    def __init__(self, tools: GuardedTools, writer: BundleWriter, progress: Progress | None) -> None:
        self.tools = tools
        self.writer = writer
        self.progress = progress
        self.seen = PageSeen()

    def say(self, line: str) -> None:
        if self.progress:
            self.progress(line)

    def sending(self) -> bool:
        return False

    def refused(self) -> bool:
        return False


class StepInterpreter:
    """Walks steps one at a time for a phase (see the module)."""

    def __init__(self, phase: Phase, tools: GuardedTools, actions: Sequence[PlanAction], *, start_url: str,
                 secrets: dict[int, str] | Any) -> None:
        self.phase = phase
        self.tools = tools
        self.actions = actions
        self.start_url = start_url
        self.secrets = secrets
        self.last = actions[-1].number if actions else 0

    def value(self, a: PlanAction) -> StepInput:
        """The value the step enters: the plan's, or for a sensitive step the secret from the input."""
        return self.secrets.get(a.number) if a.sensitive else a.value

    async def step(self, a: PlanAction) -> None:
        head = f"[{a.number}/{len(self.actions)}] {a.kind.value}" + (f" {a.field}" if a.field else "")
        rec = StepRecord(a, head, StepEvent.begin(step=a.number, kind=a.kind.value, side_effect=a.side_effect,
                                                  tool=a.tool))
        try:
            if await self.phase.admit(rec):
                await self._walk(rec)
            else:
                rec.admitted = False
        except BrowserOpsError as exc:
            await self.phase.failed(rec, exc)
        self.phase.done(rec)

    async def _walk(self, rec: StepRecord) -> None:
        a = rec.action
        if a.action is Action.NAVIGATE:
            assert a.url is not None
            url = absolute_url(self.start_url, a.url)
            await self.phase.open(rec, url, already=a.number == 1 and url == self.start_url)
            return
        if a.action is Action.WAIT_TEXT:
            assert a.expect is not None
            await self.phase.text(rec, await wait_expect(self.tools, a.expect, self.phase.seen))
            return
        if a.target is None and a.action is not Action.PRESS:
            await self.phase.snapshot(rec)
            return
        el: Resolved | None = None
        if a.target is not None:  # a press without a target acts on what has the focus
            el = await self.phase.find(rec)
            if el is None:
                return
        act = act_for(a, el, self.value(a))
        if not await self.phase.ready(rec, el, act):
            return
        if a.action is Action.DOWNLOAD and el is not None and isinstance(act, Act):
            # One rule for both phases: an export's click may download or read, never send a change.
            refused = export_refusal(a, el, await self.phase.export(rec, el, act), phase=self.phase.name)
            if refused is not None:
                raise refused
            return
        if isinstance(act, Act):
            # A submit's form, read before its click: fields the page marks invalid after it say it was refused.
            verdict = await FormVerdict(self.tools).start() if (
                act.clicks and a.expect is not None and a.must_send) else None
            # The element found a moment ago may be redrawn away before the act lands (refind.py): found again
            # once, exactly, in either phase.
            hook = self.tools.find_again = refinder(self.tools, act.tool, el)
            try:
                data = await self.phase.perform(rec, act)
            finally:
                used = hook is not None and self.tools.find_again is None
                self.tools.find_again = None
            if used:
                rec.note += "; found again after the page redrew it"
            if data is None:
                return
            for closed in data.get("closed_popups") or ():  # a field's own popup lay over this one (moving_on.py)
                rec.note += f"; left {closed.get('field')} ({closed.get('how')}) to close its popup, its value kept"
            found = read_back(a, act, data, self.value(a), lang=el.lang if el is not None else None)
            if found is not None:
                await self.phase.mismatch(rec, found)
            if act.clicks and not await self._after_click(rec, act, verdict):
                return
        await self.phase.acted(rec, act)

    async def _after_click(self, rec: StepRecord, act: Act, verdict: FormVerdict | None) -> bool:
        """A click's expectation, then the page settles; False when the expectation did not come. A submit's wait
        ends early once the server refused its change, or, with nothing of it on its way, the page marked fields
        invalid since the click (``verdict``): the text will not come, and what the form says is the reason."""
        a = rec.action
        if a.expect is not None:

            async def gave_up() -> bool:
                if self.phase.refused():
                    return True
                return verdict is not None and not self.phase.sending() and await verdict.refused()

            proof = await wait_expect(self.tools, a.expect, self.phase.seen, gave_up)
            if proof is None:
                await self.phase.expectation_missing(rec, act, verdict.lines if verdict is not None else ())
                return False
            rec.note += "; confirmation seen"
            rec.saw = str(proof.get("text") or proof.get("url") or "") or None
        # The expected text may come before the data the next step reads (a record's title before its form's
        # choices): the page is read once settled. After the plan's last step with its proof seen nothing reads it.
        if a.expect is None or a.number != self.last:
            await self.phase.settle()
        return True
