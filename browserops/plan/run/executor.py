"""The run's phase of the step interpreter: executing a plan's steps in order, by number, with evidence.

For each step the interpreter lists the page again (the first step on a page uses the listing its page check took
just before), resolves the semantic target to the element's current number and acts through the catalogue
(``browser_overlay_act`` with that number, ``browser_upload``, ``browser_click_and_wait_download``). A step needing
``--confirm`` is skipped without it. Before the first such step on a page, the fields that page's steps will change
are read again: if any differs from what prepare saw, the plan is stale and nothing on that page is touched
(:mod:`.stale`). Every browser-act step gets a screenshot before and after, and a step that may commit a change waits
until it is saved (:mod:`.saved_check`); a failure leaves an error screenshot and the page's ARIA snapshot.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn

from browserops.contract import BrowserOpsError, ErrorCode, result_error
from browserops.evidence import BundleWriter, StepEvent, StepTarget
from browserops.plan.interpret.acting import Act, Unchanged
from browserops.plan.interpret.dialogs import answer_planned_dialog
from browserops.plan.interpret.export_check import ExportSeen, ReadOnlyWindow, after_click
from browserops.plan.interpret.field_values import current_value
from browserops.plan.interpret.guard import GuardedTools
from browserops.plan.interpret.interpreter import PhaseBase, Progress, StepInterpreter, StepRecord
from browserops.plan.interpret.pages import (
    open_url,
    page_name,
    screenshot_into,
    screenshot_png,
    settle,
    snapshot_into,
)
from browserops.plan.interpret.read_back import Mismatch
from browserops.plan.interpret.resolve import PageListing, Resolved, resolve_target
from browserops.plan.model.document import BrowserPlan, PlanAction, fill_keys, stale_fields
from browserops.plan.model.facts import signs_in_here
from browserops.plan.model.steps import CONFIRM_FREE, Action, Kind
from browserops.plan.run.confirmation import confirmation_page
from browserops.plan.run.ledger import RunLedger
from browserops.plan.run.outcome import StepFailed, StepOutcome, move_export
from browserops.plan.run.saved_check import SaveWatch
from browserops.plan.run.stale import PageChecks
from browserops.privacy import EnteredValues

DOWNLOAD_MS = 30_000


class RunPhase(PhaseBase, PageChecks):
    """One run attempt over a plan. ``confirmed`` decides whether browser-act steps run at all."""

    name = "the run"

    def __init__(self, tools: GuardedTools, writer: BundleWriter, plan: BrowserPlan, *, confirmed: bool,
                 secrets: Mapping[int, str], progress: Progress | None = None, login_wait_s: float = 0.0) -> None:
        super().__init__(tools, writer, progress)
        self.plan = plan
        self.confirmed = confirmed
        self.login_wait_s = login_wait_s
        self.outcomes: list[StepOutcome] = []
        self.keys = fill_keys(plan.actions)
        self.checked: set[int] = set()  # steps whose page values were checked against the fingerprint
        self.skipped_click: int | None = None  # a skipped click step: the page it leads to never came
        self.reference: str | None = None
        self.confirmation: dict[str, Any] | None = None
        self.exports: list[dict[str, Any]] = []
        self.snapshots = 0
        self.entered = EnteredValues()  # every form the run's values took in the page (masked out of a trace)
        self.last_after: bytes | None = None  # the latest after screenshot, while nothing happened since
        self.probe = tools.probe
        self.ledger = RunLedger(self.probe)
        self.watch: SaveWatch | None = None  # the running step's wait for its change to be saved
        self.listed: PageListing | None = None  # the listing the running step's page check took
        self.started = 0.0  # when the running step began (monotonic)
        self.settled_calls: int | None = None  # how many tool calls had run when the page last settled
        self.interpreter = StepInterpreter(self, tools, plan.actions, start_url=plan.start_url, secrets=secrets)
        # The plan's last step that acts on the page: after it, the page's own due work (an autosave) is waited for.
        self.last_act = max((b.number for b in plan.actions if b.side_effect not in CONFIRM_FREE
                             and b.action is not Action.DOWNLOAD), default=0)

    async def run(self) -> None:
        event = StepEvent.begin(step=0, kind="navigate", tool="browser_navigate", args={"url": self.plan.start_url})
        self.say(f"Opening {self.plan.start_url}")
        self.probe.requests.set_step(0)
        try:
            # What pages send as they unload reaches the ledger only through their DevTools tap (launch/wire.py).
            self.probe.requests.start_tapping()
            await self.probe.until_lost(self.probe.requests.tapped(), "starting the run")
            await open_url(self.tools, self.plan.start_url, self.seen, login_wait_s=self.login_wait_s,
                           on_wait=self.progress, signs_in=signs_in_here(self.plan.actions, 0))
            self.settled_calls = len(self.tools.calls)  # open_url waits for the page to settle
        except BrowserOpsError as exc:
            await self._fail(StepRecord(self.plan.actions[0], "start", event), exc, phase="error", step=0,
                             label="start")
        event.sent = self.ledger.take()
        self.writer.log_event(event.end(status="ok", page_url=self.seen.url, page_title=self.seen.title,
                                        note="start URL"))
        for action in self.plan.actions:
            await self.interpreter.step(action)

    async def finish(self) -> None:
        """Before the browser closes: wait (bounded) for what is still on its way, record what was sent last."""
        await self.ledger.close(self.writer)

    # ------------------------------------------------------------------ the phase's moves (interpret.Phase)

    async def admit(self, rec: StepRecord) -> bool:
        a = rec.action
        needs_confirm = a.side_effect not in CONFIRM_FREE
        if needs_confirm and not self.confirmed:
            if a.activates:
                self.skipped_click = a.number
            rec.note = "needs --confirm"
            return False
        if self.skipped_click is not None and a.action is not Action.NAVIGATE:
            rec.note = f"follows step {self.skipped_click}, which did not run"
            return False
        if not (needs_confirm and a.target is not None and a.action is not Action.DOWNLOAD):
            self.last_after = None  # anything but another act step: the page may move on meanwhile
        self.started = time.monotonic()
        self.listed = None
        self.watch = await SaveWatch.begin(self.probe, a, final=a.number == self.last_act)
        if needs_confirm and a.number not in self.checked:
            self.listed = await self._check_page(rec)
        return True

    async def open(self, rec: StepRecord, url: str, *, already: bool) -> None:
        if already:
            rec.note = "already on the start URL"
            return
        rec.event.args = {"url": url}
        await open_url(self.tools, url, self.seen, login_wait_s=self.login_wait_s, on_wait=self.progress,
                       signs_in=signs_in_here(self.plan.actions, rec.action.number))
        self.settled_calls = len(self.tools.calls)
        self.skipped_click = None

    async def text(self, rec: StepRecord, proof: dict[str, Any] | None) -> None:
        a = rec.action
        assert a.expect is not None
        if proof is None:
            raise BrowserOpsError(ErrorCode.SITE_CHANGED, f"Step {a.number} expects the page to show "
                                  f"{a.expect.text or a.expect.url_contains!r}; it did not within "
                                  f"{a.expect.timeout_ms} ms.")
        # As prepare did: the text may come before the data the next steps read. Unless it was there at the first
        # look at a page that settled just before with only reads since: then it has settled.
        if not (proof.get("at_once") and self.tools.only_reads_since(self.settled_calls)):
            await self.settle()
        rec.note = "expected text is on the page"

    async def snapshot(self, rec: StepRecord) -> None:
        self.snapshots += 1
        rel, _ = await snapshot_into(self.tools, self.writer, rec.action.number, page_name(self.seen.url))
        rec.note = f"snapshot {rel}"

    async def find(self, rec: StepRecord) -> Resolved | None:
        a = rec.action
        assert a.target is not None
        try:
            # The listing the page check just took, unless none was (it is the latest: no tool ran since).
            element = await (self.listed.resolve(a.target, seen_within=a.matched_within) if self.listed is not None
                             else resolve_target(self.tools, a.target, seen_within=a.matched_within,
                                                 patient=a.prepared_number is None))
        except BrowserOpsError as exc:
            if exc.code is ErrorCode.SITE_CHANGED and a.optional:
                rec.status, rec.note = "skipped", "optional target not on the page"
                return None
            raise
        rec.event.target = StepTarget(role=element.role, name=element.name, number=element.number, box=element.box,
                                      viewport=element.viewport)
        return element

    async def ready(self, rec: StepRecord, el: Resolved | None, act: Act | Unchanged | None) -> bool:
        a = rec.action
        key = self.keys.get(a.number)
        fingerprint = self.plan.fingerprint
        if el is not None and a.revealed_by is not None and key is not None and fingerprint is not None \
                and key in fingerprint.values:
            # not checked with its page: it was not there yet
            await self._stale(rec, stale_fields(self.plan, {**fingerprint.values, key: current_value(a, el) or None},
                                                el.lang))
        if a.action is Action.DOWNLOAD:
            if a.needs_confirm:  # an export that posts is a confirmed act: a screenshot before and after it
                rec.screenshots.append(await self._before(a))
            return True  # the interpreter asks for the export (:meth:`export`) and judges what it did
        if act is None:
            raise BrowserOpsError(ErrorCode.INTERNAL, f"Step {a.number} has no value to enter.")
        rec.screenshots.append(await self._before(a))
        return True

    async def perform(self, rec: StepRecord, act: Act) -> dict[str, Any] | None:
        """The acting call; a browser dialog it opens is answered as the step says (:mod:`..interpret.dialogs`)."""
        a = rec.action
        rec.event.tool, rec.event.args = act.tool, act.logged if act.logged is not None else act.args
        answered = ""
        if self.watch is not None:  # what the page sends from here on may carry the step's change
            self.watch.acting(self.seen.url)
        try:
            result = await self.tools.call(act.tool, act.args,
                                           dialog_announced=a.dialog is not None and act.answers_dialog)
            if result.get("status") != "ok":
                raise result_error(result)
            data = dict(result.get("data") or {})
            if data.get("navigated") or data.get("url_changed"):
                self.seen.update(data)
        except BrowserOpsError as exc:
            if exc.code is not ErrorCode.DIALOG_OPEN or not act.answers_dialog:
                raise
            answered, data = await answer_planned_dialog(self.tools, a, exc), {}
        finally:
            if self.watch is not None:  # the save check's look counts from here
                self.watch.acted()
        for one in act.entered:
            self.entered.add(one)
        if act.entered:
            self.entered.add_result(data)  # the page's own spelling: converted date, input mask, chosen option
        rec.note = act.did + answered
        return data

    async def mismatch(self, rec: StepRecord, found: Mismatch) -> None:
        raise found.error(" Nothing later in the plan ran; see the after screenshot.")

    async def expectation_missing(self, rec: StepRecord, act: Act, form_says: Sequence[str] = ()) -> None:
        a = rec.action
        assert a.expect is not None
        code = ErrorCode.SUBMIT_FAILED if a.kind in (Kind.SUBMIT, Kind.PAYMENT) else ErrorCode.ACTION_FAILED
        rec.screenshots.append(await screenshot_into(self.tools, self.writer, a.number, "after", a.label()))
        refused = self.watch.refusal_error() if self.watch is not None else None
        if refused is not None:  # the server's 4xx/5xx says more than "the text did not come"
            raise refused
        expected = a.expect.text or a.expect.url_contains
        if form_says:
            raise BrowserOpsError(code, f"Step {a.number} {act.did}, but instead of showing {expected!r} the page "
                                  f"marked fields invalid: {'; '.join(form_says[:5])}. See the after screenshot in "
                                  "the bundle; correct the value in the step file or the inputs, then prepare again.",
                                  details={"formSays": list(form_says[:20])})
        raise BrowserOpsError(code, f"Step {a.number} {act.did}, but the page did not show "
                              f"{expected!r} within {a.expect.timeout_ms} ms. See the after screenshot in the bundle.")

    def sending(self) -> bool:
        return self.watch is not None and any(e.in_flight for e in self.watch.carriers())

    def refused(self) -> bool:
        return self.watch is not None and self.watch.refused() is not None

    async def settle(self) -> None:
        await settle(self.tools)
        self.settled_calls = len(self.tools.calls)

    async def acted(self, rec: StepRecord, act: Act | Unchanged | None) -> None:
        a = rec.action
        if isinstance(act, Unchanged):
            rec.status, rec.note = "unchanged", act.note
        if self.watch is not None:  # done on the page: now the change must be sent and answered
            rec.note += await self.watch.settle(rec.saw) or ""
        rel, self.last_after = await screenshot_png(self.tools, self.writer, a.number, "after", a.label())
        rec.screenshots.append(rel)
        if a.kind in (Kind.SUBMIT, Kind.PAYMENT):
            await self._confirmation(rec)

    async def failed(self, rec: StepRecord, exc: BrowserOpsError) -> NoReturn:
        if isinstance(exc, StepFailed):
            raise exc
        # A lost lane stops the act before it starts: its screenshot is an error one, not an "after".
        acted = bool(rec.screenshots) and rec.action.needs_confirm and exc.code is not ErrorCode.LANE_LOST
        await self._fail(rec, exc, phase="after" if acted else "error")

    def done(self, rec: StepRecord) -> None:
        a = rec.action
        if not rec.admitted:  # for want of --confirm, or after a click that did not run
            self.writer.log_event(StepEvent.begin(step=a.number, kind=a.kind.value, side_effect=a.side_effect,
                                                  tool=a.tool).end(status="skipped", note=rec.note))
            self.outcomes.append(StepOutcome(a.number, a.kind.value, a.label(), a.side_effect.value, "skipped",
                                             rec.note))
            self.say(f"{rec.head}: skipped ({rec.note})")
            return
        outcome = self._outcome(rec)
        outcome.ms = (time.monotonic() - self.started) * 1000
        rec.event.sent = self.ledger.take(saves=self.watch.saves if self.watch is not None else frozenset())
        outcome.sent = [e.model_dump(mode="json", by_alias=True, exclude_none=True) for e in rec.event.sent]
        rec.event.end(status="skipped" if rec.status == "skipped" else "ok", page_url=self.seen.url,
                      page_title=self.seen.title, screenshots=rec.screenshots, exports=rec.exports,
                      note=rec.note or None)
        self.writer.log_event(rec.event)
        self.outcomes.append(outcome)
        detail = f" ({outcome.note})" if outcome.note else ""
        self.say(f"{rec.head}: {outcome.status}{detail} {outcome.ms:.0f} ms")

    # ------------------------------------------------------------------ evidence

    def _outcome(self, rec: StepRecord) -> StepOutcome:
        a = rec.action
        return StepOutcome(a.number, a.kind.value, a.label(), a.side_effect.value, rec.status,  # type: ignore[arg-type]
                           rec.note or None, screenshots=rec.screenshots, exports=rec.exports)

    async def _before(self, a: PlanAction) -> str:
        """The before screenshot. Right after another step's after screenshot, with only a (read-only) listing
        since, the page is the one that image shows: its bytes are stored again instead of shooting twice."""
        previous, self.last_after = self.last_after, None
        if previous is not None:
            return self.writer.add_screenshot(a.number, "before", previous, a.label())
        return await screenshot_into(self.tools, self.writer, a.number, "before", a.label())

    async def export(self, rec: StepRecord, el: Resolved, act: Act) -> ExportSeen:
        """Click and wait for the download in a read-only window of the ledger: the session's DevTools tap refuses
        every unsafe request of the click before it leaves (the page may have changed since prepare). A file that
        came goes into the bundle; what the click tried to send is judged by the interpreter."""
        a = rec.action
        rec.event.tool, rec.event.args = "browser_click_and_wait_download", {"id": el.number,
                                                                            "timeout_ms": DOWNLOAD_MS}
        # An export the step file says posts (its sideEffect raised, so it ran past --confirm) may send: no window.
        window = ReadOnlyWindow(self.probe.requests)
        with window if not a.needs_confirm else contextlib.nullcontext(window):
            result = await self.tools.call(rec.event.tool, rec.event.args)
            if result.get("status") == "ok":  # as the rehearsal did: what the click set going is under it too
                await after_click(self.tools)
        sent = window.sent()
        if a.needs_confirm:
            rel, self.last_after = await screenshot_png(self.tools, self.writer, a.number, "after", a.label())
            rec.screenshots.append(rel)
        if result.get("status") != "ok":
            exc = result_error(result)
            return ExportSeen(sent, downloaded=False, failure=BrowserOpsError(
                ErrorCode.EXPORT_FAILED, f"Step {a.number} ({el.role} \"{el.name}\") did not export a file: "
                f"{exc.message}", details={"cause": exc.code.value}))
        data = dict(result.get("data") or {})
        rel = move_export(self.writer, a.save_as or str(data.get("name") or "export"), Path(str(data["path"])))
        rec.exports.append(rel)
        rec.note = f"{rel} ({data.get('size')} bytes)"
        self.exports.append({"step": a.number, "path": rel, "sha256": data.get("sha256"), "size": data.get("size"),
                             "suggestedName": data.get("suggested_name")})
        return ExportSeen(sent, downloaded=True)

    async def _confirmation(self, rec: StepRecord) -> None:
        """Keep the page a submit led to: its ARIA snapshot in the bundle, its status messages, the reference."""
        self.confirmation, reference = await confirmation_page(self.tools, self.writer, rec.action, self.seen)
        if reference:
            self.reference = reference
            rec.note = f"{rec.note}; reference {reference}"

    async def _fail(self, rec: StepRecord, exc: BrowserOpsError, *, phase: str = "error", step: int | None = None,
                    label: str | None = None) -> NoReturn:
        """Record the failed step with a screenshot and the page's snapshot, then stop the run."""
        self.last_after = None
        step = rec.action.number if step is None else step
        label = rec.action.label() if label is None else label
        if not self.probe.alive and exc.code is not ErrorCode.CRASHED:
            # Whatever the step saw (a text that never came), the browser went away.
            exc = self.probe.crashed_error(f"running step {step}")
        shots = list(rec.screenshots)
        event = rec.event
        with contextlib.suppress(BrowserOpsError, OSError):
            if not (phase == "after" and any("_after_" in s for s in shots)):
                shots.append(await screenshot_into(self.tools, self.writer, step, phase, label))
            rel, _ = await snapshot_into(self.tools, self.writer, step, f"{phase}-{label}")
            event.note = f"page snapshot {rel}"
        event.sent = self.ledger.take(unanswered=True,
                                      saves=self.watch.saves if self.watch is not None else frozenset())
        event.end(status="error", page_url=self.seen.url, page_title=self.seen.title, screenshots=shots,
                  code=exc.code.value, error=exc.message)
        self.writer.log_event(event)
        if step:
            outcome = self._outcome(rec)
            outcome.status, outcome.code, outcome.screenshots = "error", exc.code.value, shots
            outcome.note = exc.message[:300]
            outcome.sent = [e.model_dump(mode="json", by_alias=True, exclude_none=True) for e in event.sent]
            self.outcomes.append(outcome)
        self.say(f"[{step}/{len(self.plan.actions)}] {label}: {exc.code.value}")
        raise StepFailed(exc, step) from exc
