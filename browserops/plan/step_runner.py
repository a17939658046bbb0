"""Executing a plan's steps in order, by number, with evidence: the inside of ``browserops run``.

For each step the executor lists the page again (the first step on a page uses the listing its page check took just
before), resolves the semantic target to the element's current number and acts through the catalogue
(``browser_overlay_act`` with that number, ``browser_upload``, ``browser_click_and_wait_download``). A step needing
``--confirm`` is skipped without it. Before the first such step on a page, the fields that page's steps will change
are read again: if any differs from what prepare saw, the plan is stale and nothing on that page is touched. Every
browser-act step gets a screenshot before and after; a failure leaves an error screenshot and the page's ARIA
snapshot.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, NoReturn

from browserops.contract import BrowserOpsError, ErrorCode, result_error
from browserops.evidence import BundleWriter, StepEvent, StepTarget
from browserops.evidence.events import SentRequest
from browserops.plan.guard import GuardedTools
from browserops.plan.model import BrowserPlan, PlanAction, fill_keys, stale_fields
from browserops.plan.pages import (
    PageSeen,
    open_url,
    page_name,
    screenshot_into,
    screenshot_png,
    settle,
    snapshot_into,
    wait_expect,
)
from browserops.plan.resolve import PageListing, Resolved, current_value, resolve_target, upload_files, wanted_value
from browserops.plan.saved_check import SaveWatch, before_close, ledger_entry
from browserops.plan.step_acting import answer_planned_dialog, confirmation_page, press_call, word_call
from browserops.plan.step_checks import PageChecks
from browserops.plan.step_facts import signs_in_here
from browserops.plan.step_outcome import StepFailed, StepOutcome, move_export
from browserops.plan.steps import CONFIRM_FREE, Action, Kind, absolute_url, word_action
from browserops.privacy import SECRET, EnteredValues

Progress = Callable[[str], None]
DOWNLOAD_MS = 30_000


class StepExecutor(PageChecks):
    """One run attempt over a plan. ``confirmed`` decides whether browser-act steps run at all."""

    def __init__(self, tools: GuardedTools, writer: BundleWriter, plan: BrowserPlan, *, confirmed: bool,
                 secrets: Mapping[int, str], progress: Progress | None = None, login_wait_s: float = 0.0) -> None:
        self.tools = tools
        self.writer = writer
        self.plan = plan
        self.confirmed = confirmed
        self.secrets = secrets
        self.progress = progress
        self.login_wait_s = login_wait_s
        self.seen = PageSeen()
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
        self.session = tools.ctx.session
        self.watch: SaveWatch | None = None  # the running step's wait for its change to be saved
        self.saw: str | None = None  # the expected text the running step's click brought
        self.ledger_mark = self.session.requests.mark()  # what the session sent before this run is not its ledger
        self.settled_calls: int | None = None  # how many tool calls had run when the page last settled

    def say(self, line: str) -> None:
        if self.progress:
            self.progress(line)

    # ------------------------------------------------------------------ the walk

    async def run(self) -> None:
        event = StepEvent.begin(step=0, kind="navigate", tool="browser_navigate", args={"url": self.plan.start_url})
        self.say(f"Opening {self.plan.start_url}")
        self.session.requests.set_step(0)
        try:
            # What pages send as they unload reaches the ledger only through their DevTools tap (launch/wire.py).
            self.session.requests.start_tapping()
            await self.session.until_lost(self.session.requests.tapped(), "starting the run")
            await open_url(self.tools, self.plan.start_url, self.seen, login_wait_s=self.login_wait_s,
                           on_wait=self.progress, signs_in=signs_in_here(self.plan.actions, 0))
            self.settled_calls = len(self.tools.calls)  # open_url waits for the page to settle
        except BrowserOpsError as exc:
            await self._fail(event, 0, "start", exc, phase="error")
        event.sent = self._take_ledger()
        self.writer.log_event(event.end(status="ok", page_url=self.seen.url, page_title=self.seen.title,
                                        note="start URL"))
        for action in self.plan.actions:
            await self.step(action)

    async def step(self, a: PlanAction) -> None:
        total = len(self.plan.actions)
        head = f"[{a.number}/{total}] {a.kind.value}" + (f" {a.field}" if a.field else "")
        needs_confirm = a.side_effect not in CONFIRM_FREE
        if needs_confirm and not self.confirmed:
            if a.activates:
                self.skipped_click = a.number
            self._skip(a, head, "needs --confirm")
            return
        if self.skipped_click is not None and a.action is not Action.NAVIGATE:
            self._skip(a, head, f"follows step {self.skipped_click}, which did not run")
            return
        if not (needs_confirm and a.target is not None and a.action is not Action.DOWNLOAD):
            self.last_after = None  # anything but another act step: the page may move on meanwhile
        started = time.monotonic()
        outcome = StepOutcome(a.number, a.kind.value, a.label(), a.side_effect.value, "ok")
        event = StepEvent.begin(step=a.number, kind=a.kind.value, side_effect=a.side_effect, tool=a.tool)
        listed: PageListing | None = None
        self.watch, self.saw = await SaveWatch.begin(self.session, a), None
        if needs_confirm and a.number not in self.checked:
            listed = await self._check_page(a, event, outcome)
        try:
            await self._dispatch(a, event, outcome, listed)
        except StepFailed:
            raise
        except BrowserOpsError as exc:
            # A lost lane stops the act before it starts: its screenshot is an error one, not an "after".
            acted = bool(outcome.screenshots) and needs_confirm and exc.code is not ErrorCode.LANE_LOST
            await self._fail(event, a.number, a.label(), exc, outcome=outcome, phase="after" if acted else "error")
        outcome.ms = (time.monotonic() - started) * 1000
        self._record_sent(event, outcome)
        event.end(status="skipped" if outcome.status == "skipped" else "ok", page_url=self.seen.url,
                  page_title=self.seen.title, screenshots=outcome.screenshots, exports=outcome.exports,
                  note=outcome.note)
        self.writer.log_event(event)
        self.outcomes.append(outcome)
        detail = f" ({outcome.note})" if outcome.note else ""
        self.say(f"{head}: {outcome.status}{detail} {outcome.ms:.0f} ms")

    def _take_ledger(self, *, unanswered: bool = False) -> list[SentRequest]:
        """What the pages sent since the last step recorded its ledger (a request that leaves between two steps
        goes with the next one). A request still unanswered (a heartbeat in flight as a step navigated) waits, with
        every one after it, for a later event, so it is written with its answer: only the run's last event (and a
        failed step's) takes it ``unanswered``. Each entry keeps the step it left during."""
        sent = self.session.requests.since(self.ledger_mark)
        if not unanswered:
            sent = sent[:next((i for i, e in enumerate(sent) if e.in_flight), len(sent))]
        self.ledger_mark = max([self.ledger_mark, *(e.id for e in sent)])
        return [ledger_entry(e) for e in sent]

    def _record_sent(self, event: StepEvent, outcome: StepOutcome | None, *, unanswered: bool = False) -> None:
        event.sent = self._take_ledger(unanswered=unanswered)
        if outcome is not None:
            outcome.sent = [e.model_dump(mode="json", by_alias=True, exclude_none=True) for e in event.sent]

    async def finish(self) -> None:
        """Before the browser closes: wait (bounded) for what is still on its way to the server, and record
        whatever was sent after the last step."""
        pending = await before_close(self.session) if self.session.alive else None
        sent = self._take_ledger(unanswered=True)
        blind = self.session.requests.blind
        if sent or pending or blind:
            event = StepEvent.begin(step=0, kind="close", sent=sent)
            self.writer.log_event(event.end(status="ok", note="sent after the last step" + (
                f"; still pending when the browser closed: {pending}" if pending else "") + (
                f"; the ledger may lack what pages sent as they unloaded: {blind}" if blind else "")))

    def _skip(self, a: PlanAction, head: str, why: str) -> None:
        self.writer.log_event(StepEvent.begin(step=a.number, kind=a.kind.value, side_effect=a.side_effect,
                                              tool=a.tool).end(status="skipped", note=why))
        self.outcomes.append(StepOutcome(a.number, a.kind.value, a.label(), a.side_effect.value, "skipped", why))
        self.say(f"{head}: skipped ({why})")

    # ------------------------------------------------------------------ steps

    async def _dispatch(self, a: PlanAction, event: StepEvent, outcome: StepOutcome,
                        listed: PageListing | None = None) -> None:
        if a.action is Action.NAVIGATE:
            assert a.url is not None
            url = absolute_url(self.plan.start_url, a.url)
            if a.number == 1 and url == self.plan.start_url:
                outcome.note = "already on the start URL"
                return
            event.args = {"url": url}
            await open_url(self.tools, url, self.seen, login_wait_s=self.login_wait_s, on_wait=self.progress,
                           signs_in=signs_in_here(self.plan.actions, a.number))
            self.settled_calls = len(self.tools.calls)
            self.skipped_click = None
            return
        if a.action is Action.WAIT_TEXT:
            assert a.expect is not None
            proof = await wait_expect(self.tools, a.expect, self.seen)
            if proof is None:
                raise BrowserOpsError(ErrorCode.SITE_CHANGED, f"Step {a.number} expects the page to show "
                                      f"{a.expect.text or a.expect.url_contains!r}; it did not within "
                                      f"{a.expect.timeout_ms} ms.")
            # As prepare did: the text may come before the data the next steps read. Unless it was there at the
            # first look at a page that settled just before with only reads since: then it has settled.
            if not (proof.get("at_once") and self.tools.only_reads_since(self.settled_calls)):
                await self._settle()
            outcome.note = "expected text is on the page"
            return
        if a.action is Action.SNAPSHOT:
            self.snapshots += 1
            rel, _ = await snapshot_into(self.tools, self.writer, a.number, page_name(self.seen.url))
            outcome.note = f"snapshot {rel}"
            return
        element: Resolved | None = None
        try:
            # A fresh listing, unless the page check just took one (it is the latest: no tool ran since). A press
            # without a target acts on what has the focus.
            element = None if a.target is None else await (
                listed.resolve(a.target, seen_within=a.matched_within) if listed is not None
                else resolve_target(self.tools, a.target, seen_within=a.matched_within,
                                    patient=a.prepared_number is None))
        except BrowserOpsError as exc:
            if exc.code is ErrorCode.SITE_CHANGED and a.optional:
                outcome.status, outcome.note = "skipped", "optional target not on the page"
                return
            raise
        if element is not None:
            event.target = StepTarget(role=element.role, name=element.name, number=element.number, box=element.box,
                                      viewport=element.viewport)
        key = self.keys.get(a.number)
        if element is not None and a.revealed_by is not None and key is not None \
                and self.plan.fingerprint is not None and key in self.plan.fingerprint.values:
            # not checked with its page: it was not there yet
            await self._stale(a, event, outcome, stale_fields(self.plan, {**self.plan.fingerprint.values,
                                                                           key: current_value(a, element) or None}))
        if a.action is Action.DOWNLOAD:
            assert element is not None
            await self._download(a, element, event, outcome)
            return
        outcome.screenshots.append(await self._before(a))
        await self._act(a, element, event, outcome)
        if self.watch is not None:  # done on the page: now the change must be sent and answered
            outcome.note = (outcome.note or "") + (await self.watch.settle(self.saw) or "")
        rel, self.last_after = await screenshot_png(self.tools, self.writer, a.number, "after", a.label())
        outcome.screenshots.append(rel)
        if a.kind in (Kind.SUBMIT, Kind.PAYMENT):
            await self._confirmation(a, outcome)

    async def _before(self, a: PlanAction) -> str:
        """The before screenshot. Right after another step's after screenshot, with only a (read-only) listing
        since, the page is the one that image shows: its bytes are stored again instead of shooting twice."""
        previous, self.last_after = self.last_after, None
        if previous is not None:
            return self.writer.add_screenshot(a.number, "before", previous, a.label())
        return await screenshot_into(self.tools, self.writer, a.number, "before", a.label())

    async def _call(self, name: str, args: dict[str, Any], event: StepEvent, logged: dict[str, Any] | None = None,
                    *, dialog_announced: bool = False) -> dict[str, Any]:
        event.tool, event.args = name, logged if logged is not None else args
        result = await self.tools.call(name, args, dialog_announced=dialog_announced)
        if result.get("status") != "ok":
            raise result_error(result)
        data = dict(result.get("data") or {})
        if data.get("navigated") or data.get("url_changed"):
            self.seen.update(data)
        return data

    async def _act(self, a: PlanAction, el: Resolved | None, event: StepEvent, outcome: StepOutcome) -> None:
        if a.action is Action.PRESS:  # on the element, or (no target) on what has the focus
            await self._click(a, *press_call(a, el), event, outcome)
            return
        assert el is not None
        where = f'{el.role} "{el.name}" (#{el.number})'
        if word_action(a.action) is not None:  # an acting word the plan has no verb of its own for
            args, logged = word_call(a, el, self.secrets.get(a.number) if a.sensitive else a.value)
            await self._click(a, "browser_overlay_act", args, f"{a.action} on {where}", event, outcome, logged)
        elif a.action in (Action.TYPE, Action.SELECT):
            value = self.secrets.get(a.number) if a.sensitive else a.value
            assert isinstance(value, str | list)
            if not a.sensitive and current_value(a, el) == wanted_value(a):
                outcome.status, outcome.note = "unchanged", f"{where} already holds the value"
                return
            verb = "type" if a.action is Action.TYPE else "select"
            # Several options (a multiple select, a two-list chooser, a tag input): one call picks them all.
            chosen = {"options": value} if isinstance(value, list) else {"text": value}
            args = {"index": el.number, "action": verb, **chosen, **el.act_args()}
            logged = {**args, "text": dict(SECRET)} if a.sensitive else None  # no length, no digest
            data = await self._call("browser_overlay_act", args, event, logged)
            for one in value if isinstance(value, list) else [value]:
                self.entered.add(one)
            self.entered.add_result(data)  # the page's own spelling: converted date, input mask, chosen option
            if verb == "type" and data.get("matches") is False:
                raise BrowserOpsError(ErrorCode.ACTION_FAILED, f"{where} holds something other than the planned "
                                      "value after typing (an input mask or length limit?). See the after screenshot.")
            outcome.note = f"{'typed into' if verb == 'type' else 'chose in'} {where}"
        elif a.action is Action.CHECK:
            want = a.value is True
            if (el.state.get("checked") is True) == want:
                outcome.status, outcome.note = "unchanged", f"{where} is already {'on' if want else 'off'}"
                return
            data = await self._acting(a, "browser_overlay_act", {"index": el.number, "action": "click",
                                                                 **el.act_args()}, event, outcome)
            state = (data.get("element") or {}).get("state") or {}
            if "checked" in state and (state["checked"] is True) != want:
                raise BrowserOpsError(ErrorCode.ACTION_FAILED, f"{where} did not turn {'on' if want else 'off'} "
                                      "when clicked.")
            outcome.note = f"{'checked' if want else 'unchecked'} {where}" + (outcome.note or "")
        elif a.action is Action.UPLOAD:
            files = upload_files(a)
            await self._call("browser_upload", {"id": el.number, "files": files}, event)
            outcome.note = f"attached {len(files)} file{'s' if len(files) != 1 else ''} to {where}"
        else:  # a click: submit, payment or another action
            await self._click(a, "browser_overlay_act", {"index": el.number, "action": "click", **el.act_args()},
                              f"clicked {where}", event, outcome)

    async def _click(self, a: PlanAction, name: str, args: dict[str, Any], did: str, event: StepEvent,
                     outcome: StepOutcome, logged: dict[str, Any] | None = None) -> None:
        """A click (or a press, which acts like one): the call, its dialog, then the step's expectation."""
        await self._acting(a, name, args, event, outcome, logged)
        outcome.note = did + (outcome.note or "")
        if a.expect is not None:
            proof = await wait_expect(self.tools, a.expect, self.seen)
            if proof is None:
                code = ErrorCode.SUBMIT_FAILED if a.kind in (Kind.SUBMIT, Kind.PAYMENT) else ErrorCode.ACTION_FAILED
                outcome.screenshots.append(
                    await screenshot_into(self.tools, self.writer, a.number, "after", a.label()))
                refused = self.watch.refusal_error() if self.watch is not None else None
                if refused is not None:  # the server's 4xx/5xx says more than "the text did not come"
                    raise refused
                wanted = a.expect.text or a.expect.url_contains
                raise BrowserOpsError(code, f"Step {a.number} {did}, but the page did not show "
                                      f"{wanted!r} within {a.expect.timeout_ms} ms. See the after screenshot "
                                      "in the bundle.")
            outcome.note += "; confirmation seen"
            self.saw = str(proof.get("text") or proof.get("url") or "") or None
        # The expected text may come before the data the next page check reads (a record's title before its form's
        # choices): as prepare did, the run reads the page once settled. After the plan's last step nothing does.
        if a.expect is None or a.number != self.plan.actions[-1].number:
            await self._settle()

    async def _settle(self) -> None:
        await settle(self.tools)
        self.settled_calls = len(self.tools.calls)

    async def _acting(self, a: PlanAction, name: str, args: dict[str, Any], event: StepEvent,
                      outcome: StepOutcome, logged: dict[str, Any] | None = None) -> dict[str, Any]:
        """An acting call of step ``a``; a browser dialog it opens is answered as the step says
        (:mod:`.step_acting`)."""
        try:  # a dialog the step answers is answered as it opens
            return await self._call(name, args, event, logged, dialog_announced=a.dialog is not None)
        except BrowserOpsError as exc:
            if exc.code is not ErrorCode.DIALOG_OPEN:
                raise
            outcome.note = await answer_planned_dialog(self.tools, a, exc)
            return {}
        finally:
            if self.watch is not None:  # the save check's look for a request the act starts counts from here
                self.watch.acted()

    async def _download(self, a: PlanAction, el: Resolved, event: StepEvent, outcome: StepOutcome) -> None:
        try:
            data = await self._call("browser_click_and_wait_download", {"id": el.number, "timeout_ms": DOWNLOAD_MS},
                                    event)
        except BrowserOpsError as exc:
            raise BrowserOpsError(ErrorCode.EXPORT_FAILED, f"Step {a.number} ({el.role} \"{el.name}\") did not "
                                  f"export a file: {exc.message}", details={"cause": exc.code.value}) from exc
        rel = move_export(self.writer, a.save_as or str(data.get("name") or "export"), Path(str(data["path"])))
        outcome.exports.append(rel)
        outcome.note = f"{rel} ({data.get('size')} bytes)"
        self.exports.append({"step": a.number, "path": rel, "sha256": data.get("sha256"), "size": data.get("size"),
                             "suggestedName": data.get("suggested_name")})

    async def _confirmation(self, a: PlanAction, outcome: StepOutcome) -> None:
        """Keep the page a submit led to: its ARIA snapshot in the bundle, its status messages, the reference."""
        self.confirmation, reference = await confirmation_page(self.tools, self.writer, a, self.seen)
        if reference:
            self.reference = reference
            outcome.note = f"{outcome.note}; reference {reference}"

    # ------------------------------------------------------------------ failure

    async def _fail(self, event: StepEvent, step: int, label: str, exc: BrowserOpsError, *,
                    outcome: StepOutcome | None = None, phase: str = "error") -> NoReturn:
        """Record the failed step with a screenshot and the page's snapshot, then stop the run."""
        self.last_after = None
        session = self.tools.ctx.session
        if not session.alive and exc.code is not ErrorCode.CRASHED:
            # Whatever the step saw (a text that never came), the browser went away.
            exc = session.crashed_error(f"running step {step}")
        shots = list(outcome.screenshots) if outcome else []
        with contextlib.suppress(BrowserOpsError, OSError):
            if not (phase == "after" and any("_after_" in s for s in shots)):
                shots.append(await screenshot_into(self.tools, self.writer, step, phase, label))
            rel, _ = await snapshot_into(self.tools, self.writer, step, f"{phase}-{label}")
            event.note = f"page snapshot {rel}"
        self._record_sent(event, outcome, unanswered=True)
        event.end(status="error", page_url=self.seen.url, page_title=self.seen.title, screenshots=shots,
                  code=exc.code.value, error=exc.message)
        self.writer.log_event(event)
        if outcome is not None:
            outcome.status, outcome.code, outcome.screenshots = "error", exc.code.value, shots
            outcome.note = exc.message[:300]
            self.outcomes.append(outcome)
        self.say(f"[{step}/{len(self.plan.actions)}] {label}: {exc.code.value}")
        raise StepFailed(exc, step) from exc
