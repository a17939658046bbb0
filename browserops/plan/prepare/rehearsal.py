"""prepare's phase of the step interpreter: rehearsing what happens inside a page in a fenced, throwaway browser.

The walk runs in a :class:`~browserops.browser.launch.rehearsal.RehearsalSession` (a copy of the person's browser
whose fence refuses every request that could change a site, see that module). It follows ``navigate`` steps,
reads every field's current value for the diff, and then *does* the in-page steps — types, selects, ticks,
attaches, and clicks ``act`` steps (open a menu, add a row, switch a tab) — so that the steps after them are read
on the page as the run will find it. It never clicks a ``submit`` or ``payment`` step: the page such a click leads
to is not looked at (its steps are "not read"), and just before it the form's own validity is checked.

A step is "not read", with the reason, when the walk cannot see its page as the run will: behind a submit or a
payment, or after a step whose rehearsal the page answered with a request the fence refused (a save the page
waited for, a new page the plan does not name), or after a step that could not be rehearsed. A field not read is
marked so in the diff and the fingerprint, and never compared as empty. What the rehearsal finds wrong — a value
the field does not take or offer, a click that does not show what the step expects, a form that says it is
invalid — is a :class:`~browserops.plan.model.PrepareProblem` with a code, in the plan and in prepare's output.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence import BundleWriter, StepEvent, StepTarget
from browserops.plan.interpret.acting import Act, Unchanged
from browserops.plan.interpret.export_check import ExportSeen, after_click
from browserops.plan.interpret.field_values import current_value
from browserops.plan.interpret.form_says import form_problems
from browserops.plan.interpret.guard import GuardedTools
from browserops.plan.interpret.interpreter import PhaseBase, Progress, StepInterpreter, StepRecord
from browserops.plan.interpret.pages import (
    login_error,
    login_shown,
    open_url,
    page_name,
    settle,
    snapshot_into,
)
from browserops.plan.interpret.read_back import Mismatch
from browserops.plan.interpret.resolve import PageListing, Resolved, match_items
from browserops.plan.model.document import PageFingerprint, PlanAction
from browserops.plan.model.facts import signs_in_here, step_title
from browserops.plan.model.steps import Action, Kind
from browserops.plan.prepare.walk_record import Blind, WalkRecord
from browserops.tools.rehearsal import RequestFence

UNMADE_KINDS = frozenset({Kind.SUBMIT, Kind.PAYMENT})  # never rehearsed
CLICKED_KINDS = frozenset({Kind.ACT, Kind.PRESS})  # rehearsed clicks: what follows is another listing


class RehearsalPhase(PhaseBase):
    """One prepare pass over the steps in the rehearsal browser, recording into the bundle as it goes."""

    name = "prepare's rehearsal"

    def __init__(self, tools: GuardedTools, fence: RequestFence, writer: BundleWriter, actions: Sequence[PlanAction],
                 *, start_url: str, keys: Mapping[int, str], secrets: Mapping[int, str],
                 progress: Progress | None = None) -> None:
        super().__init__(tools, writer, progress)
        self.fence = fence
        self.actions = actions
        self.keys = dict(keys)  # a step found on the field of an earlier one takes that one's key
        self.fields: dict[tuple[str, str], PlanAction] = {}  # (frame, element id) -> the first fill step on it
        self.found = WalkRecord()
        self.blind: Blind | None = None
        self.unmade: PlanAction | None = None  # the latest click prepare did not make
        self.page = PageListing(tools)
        self.page_mark = 0  # refusals before this index happened on earlier pages
        self.mark = 0  # refusals before this index happened before the current step acted
        self.segment: tuple[list[dict[str, Any]], dict[str, str]] | None = None  # listing at the page's start
        self.last_rehearsed: int | None = None  # in the current segment
        self.interpreter = StepInterpreter(self, tools, actions, start_url=start_url, secrets=secrets)

    async def step(self, a: PlanAction) -> None:
        await self.interpreter.step(a)

    # ------------------------------------------------------------------ pages

    async def look(self) -> str:
        """Snapshot the page into the bundle and remember it in the fingerprint."""
        pages = self.found.pages
        rel, sha = await snapshot_into(self.tools, self.writer, len(pages) + 1, page_name(self.seen.url))
        pages.append(PageFingerprint(url=self.seen.url, title=self.seen.title, snapshot=rel, sha256=sha))
        return rel

    async def open_start(self, url: str) -> None:
        """The plan's start URL, before its steps."""
        event = StepEvent.begin(step=0, tool="browser_navigate", args={"url": url}, kind="navigate")
        rel = await self._open(url, 0)
        self.writer.log_event(event.end(status="ok", page_url=self.seen.url, page_title=self.seen.title,
                                        note=f"snapshot {rel}"))

    async def _open(self, url: str, step: int) -> str:
        self.fence.name_document(url)
        self.blind = None
        try:
            await open_url(self.tools, url, self.seen, signs_in=signs_in_here(self.actions, step))
        except BrowserOpsError as exc:
            if exc.code is not ErrorCode.LOGIN_REQUIRED or self.unmade is None:
                raise
            # Signed out because a sign-in click before it was not made here: the run will be signed in.
            self.blind = Blind(self.unmade.number, f"this page asks to sign in, because {step_title(self.unmade)} "
                               "signs in and prepare does not make that click")
        rel = await self.look()
        self.fields = {}  # element ids belong to a document
        self._new_segment()
        self.page_mark = len(self.fence.refusals)
        return rel

    def _same_field(self, a: PlanAction, el: Resolved) -> None:
        """A fill step on the element an earlier fill step of this page set is the same field: one diff line,
        whose baseline is the value before the first of them (the run checks that value, before either acts)."""
        first = self.fields.setdefault((el.frame, el.blind_id), a)
        if first is not a:
            a.same_field_as = first.number
            self.keys[a.number] = self.keys[first.number]

    def _new_segment(self) -> None:
        self.page.forget()
        self.segment = None
        self.last_rehearsed = None

    # ------------------------------------------------------------------ the phase's moves (interpret.Phase)

    async def admit(self, rec: StepRecord) -> bool:
        if self.blind is not None and rec.action.action is not Action.NAVIGATE:
            self._not_read(rec, self.blind.reason)
        return rec.status != "skipped"

    async def open(self, rec: StepRecord, url: str, *, already: bool) -> None:
        rec.event.args = {"url": url}
        if already and self.blind is None:
            rec.note, rec.said = "already on the start URL", f"already on {url}"
            return
        self.say(f"{rec.head}: opening {url}")
        rec.note = f"snapshot {await self._open(url, rec.action.number)}"

    async def text(self, rec: StepRecord, proof: dict[str, Any] | None) -> None:
        a, rec.event.tool = rec.action, "browser_wait"
        if proof is None:
            assert a.expect is not None
            await self._missing(rec, f"the page does not show {a.expect.text or a.expect.url_contains!r} "
                                f"({self.seen.url})")
            return
        await settle(self.tools)  # the text may come before the data the next steps read
        self.page.forget()  # the page may have changed while it was awaited
        rec.note, rec.said = "expected text is on the page", "found"

    async def snapshot(self, rec: StepRecord) -> None:
        rec.event.tool = "browser_snapshot"
        rel = await self.look()
        rec.note, rec.said = f"snapshot {rel}", rel

    async def find(self, rec: StepRecord) -> Resolved | None:
        a = rec.action
        assert a.target is not None
        rec.event.tool = "browser_list_interactives"
        try:
            element = await self.page.resolve(a.target)
        except BrowserOpsError as exc:
            if exc.code is not ErrorCode.SITE_CHANGED:
                raise
            if a.optional:
                rec.status, rec.note, rec.said = "skipped", "optional target not on the page", \
                    "optional target not found"
                return None
            await self._missing(rec, f"{a.target.describe()} is not on the page", exc)
            return None
        element = await self._note_revealed(a, element)
        a.prepared_number, a.matched_name = element.number, element.matched
        within = a.target.within
        if within is not None:
            a.matched_within = element.within
        inside = f' in {within.role} "{element.within}"' if within is not None and element.within else ""
        rec.event.target = StepTarget(role=element.role, name=element.name, number=element.number)
        rec.note = f"#{element.number}, matched {element.how} on {element.matched!r}{inside}"
        rec.said = f'{element.role} "{element.name}"{inside} is #{element.number}'
        return element

    async def ready(self, rec: StepRecord, el: Resolved | None, act: Act | Unchanged | None) -> bool:
        a = rec.action
        self.mark = len(self.fence.refusals)
        if el is None:  # a press on whatever has the focus
            rec.event.tool, rec.note = "browser_press", f"presses {a.key} on the focused element"
            if a.activates:  # Enter or Space may activate something: what follows is not read
                self.blind = Blind(a.number, f"on the page {step_title(a)} may lead to: prepare does not press "
                                   f"{a.key} on the focused element")
                rec.said = f"{a.key} on the focused element, not rehearsed"
                return False
            rec.said = f"{a.key} on the focused element"
            return True
        if a.kind is Kind.FILL:
            self._same_field(a, el)
            self.found.read(self.keys[a.number], a, current_value(a, el), lang=el.lang)
            return True
        if a.kind in UNMADE_KINDS:
            await self._check_form(a, el)
            self.unmade = a
            self.blind = Blind(a.number, f"on the page {step_title(a)} leads to: prepare never submits or pays")
            return False
        # An export is clicked here too, in the fence, to see it only downloads or reads (:meth:`export`); a read
        # is found, not acted on.
        return a.kind in CLICKED_KINDS or a.action is Action.DOWNLOAD

    async def perform(self, rec: StepRecord, act: Act) -> dict[str, Any] | None:
        a = rec.action
        if act.clicks:
            self.fence.expect_urls([a.expect.url_contains] if a.expect and a.expect.url_contains else [])
        try:
            data = await self.tools.need(act.tool, act.args)
        except BrowserOpsError as exc:
            await self._failed(a, exc)
            rec.note += f"; rehearsal failed: {exc.code.value}"
            return None
        if act.clicks:
            self.seen.update(data)
        return data

    async def export(self, rec: StepRecord, el: Resolved, act: Act) -> ExportSeen:
        """The export's click in the fence, which refuses whatever it would send (a download too: the run fetches
        the file); the page waits until it settled, so what the click started is seen. The tab stays on its page
        (a refused navigation is answered 204), so the steps after it are read on the page the run will have."""
        a = rec.action
        mark = len(self.fence.refusals)
        rec.event.tool, rec.event.args = act.tool, act.args
        try:
            await self.tools.need(act.tool, act.args)
            await after_click(self.tools)
        except BrowserOpsError as exc:
            await self._failed(a, exc)
            rec.note += f"; rehearsal failed: {exc.code.value}"
        refused = self.fence.since(mark)
        downloads = any(r.what == "download" for r in refused)
        self.found.rehearsed.append(a.number)
        self.page.forget()
        sent = tuple(r.describe() for r in refused if r.unsafe)
        if sent and a.needs_confirm:  # an export by post, as its step says: the run sends it once confirmed
            rec.note += "; rehearsed: sends on click (the fence held it back); runs only with --confirm"
        else:
            rec.note += "; rehearsed: starts a download" if downloads else "; rehearsed: only reads"
        return ExportSeen(sent, downloaded=downloads or None)

    async def mismatch(self, rec: StepRecord, found: Mismatch) -> None:
        self.found.problem(rec.action, ErrorCode.VALUE_MISMATCH, found.error().message)

    async def expectation_missing(self, rec: StepRecord, act: Act, form_says: Sequence[str] = ()) -> None:
        a = rec.action
        assert a.expect is not None
        needed = [r for r in self.fence.since(self.mark) if r.needed]
        if needed:  # the page waited for what the fence refused: not a problem of the plan
            self._rehearsed(a)
        else:
            said = f"; it marked fields invalid: {'; '.join(form_says[:5])}" if form_says else ""
            self.found.problem(a, ErrorCode.ACTION_FAILED, f"Rehearsing {step_title(a)}: after the click the page did "
                          f"not show {a.expect.text or a.expect.url_contains!r}{said}.")
            self.blind = Blind(a.number, f"{step_title(a)} did not show what it expects when rehearsed")
        rec.note += "; rehearsed: the expected text did not come"

    async def settle(self) -> None:
        await settle(self.tools)

    def refused(self) -> bool:
        # The fence refused a request the page waits for since the step acted: its expected text cannot come here.
        return any(r.needed for r in self.fence.since(self.mark))

    async def acted(self, rec: StepRecord, act: Act | Unchanged | None) -> None:
        a = rec.action
        if act is None:
            rec.note += "; not rehearsed (a value of several items)"
            return
        if isinstance(act, Unchanged) and a.action is not Action.CHECK:
            rec.note += "; already holds the value"
            return
        if isinstance(act, Act) and a.target is not None:
            rec.event.tool = "browser_overlay_act"
        self._rehearsed(a)
        if a.target is not None and a.kind in CLICKED_KINDS:
            self._new_segment()
        rec.note += "; rehearsed"

    async def failed(self, rec: StepRecord, exc: BrowserOpsError) -> NoReturn:
        raise exc

    def done(self, rec: StepRecord) -> None:
        self.fence.expect_urls([])
        if rec.said is not None:
            self.say(f"{rec.head}: {rec.said}")
        self.writer.log_event(rec.event.end(status="skipped" if rec.status == "skipped" else "ok",
                                            page_url=self.seen.url, page_title=self.seen.title, note=rec.note))

    # ------------------------------------------------------------------ what the walk cannot see

    def _not_read(self, rec: StepRecord, reason: str) -> None:
        a = rec.action
        self.found.not_read[a.number] = reason
        if a.kind is Kind.FILL:
            self.found.not_read_value(self.keys[a.number], a)
        rec.status, rec.note, rec.said = "skipped", f"not read: {reason}", f"not read ({reason})"

    async def _missing(self, rec: StepRecord, what: str, cause: BrowserOpsError | None = None) -> None:
        """Something a step needs is not on the page. Not read (with the reason) when the walk may not be on the
        page the run will see; a login page is a login wall; else the step file does not match the page."""
        a = rec.action
        needed = [r for r in self.fence.since(self.page_mark) if r.needed]
        if needed:
            self._not_read(rec, f"{what}; prepare refused {needed[-1].describe()} on this page (read-only), "
                           "which the page may have needed")
            return
        if self.unmade is not None:
            self._not_read(rec, f"{what}; {step_title(self.unmade)} was not made by prepare")
            return
        wall = await login_shown(self.tools, self.seen)
        if wall is not None and not signs_in_here(self.actions, a.number - 1):
            raise login_error(self.seen.url, wall)
        details: dict[str, Any] = dict(cause.details) if cause is not None else {}
        if details.get("ambiguous") and cause is not None:
            # Several elements fit the step's description on the first look: the step file must say which.
            raise BrowserOpsError(ErrorCode.TARGET_AMBIGUOUS, f"S{step_title(a)[1:]}: {cause.message}",
                                  details={**details, "step": a.number, "failedStep": a.number})
        # The resolver's own advice speaks of a change, which a first look cannot know: what it saw stays.
        seen = cause.message.split(" The site changed", 1)[0] if cause is not None else what + "."
        raise BrowserOpsError(
            ErrorCode.TARGET_NOT_FOUND,
            f"S{step_title(a)[1:]}: {seen} This is the first "
            "look at the page, so nothing changed: the step file's names do not match what the page offers, or the "
            "plan starts on the wrong page. Fix the target (or the start URL) and prepare again.",
            details={**details, "step": a.number, "failedStep": a.number},
        )

    async def _note_revealed(self, a: PlanAction, element: Resolved) -> Resolved:
        """Remember the page's listing at its first target; a later target missing from it appeared only after
        an earlier step was rehearsed (typing a search, opening a section), so the run looks for it then.

        The first target of a page may have been found only after waiting for the page to render: it is resolved
        once more in a fresh listing, which becomes the page's first listing and the one its number belongs to."""
        assert a.target is not None
        if self.segment is None:
            self.page.forget()
            element = await self.page.resolve(a.target)
            self.segment = self.page.listed()
            return element
        if self.last_rehearsed is not None:
            with contextlib.suppress(BrowserOpsError):  # ambiguous among the first listing: it was there
                if match_items(self.segment[0], a.target, self.segment[1]) is None:
                    a.revealed_by = self.last_rehearsed
        return element

    # ------------------------------------------------------------------ rehearsing

    def _rehearsed(self, a: PlanAction) -> None:
        self.found.rehearsed.append(a.number)
        self.last_rehearsed = a.number
        self.page.forget()
        needed = [r for r in self.fence.since(self.mark) if r.needed]
        if needed:
            self.blind = Blind(a.number, f"{step_title(a)} sent {needed[0].describe()}, which prepare refused "
                               "(read-only); the page may depend on it")

    async def _failed(self, a: PlanAction, exc: BrowserOpsError) -> None:
        """A step that could not be rehearsed is a problem; the page after it is not the run's."""
        self.found.problem(a, exc.code, f"Rehearsing {step_title(a)}: {exc.message}")
        self.blind = Blind(a.number, f"{step_title(a)} could not be rehearsed ({exc.code.value})")
        if exc.code is ErrorCode.DIALOG_OPEN:  # Cancel the page's question: the walk goes on reading
            with contextlib.suppress(BrowserOpsError):
                await self.tools.call("browser_dialog", {"accept": False})

    async def _check_form(self, a: PlanAction, el: Resolved) -> None:
        """Just before a submit: what the form itself says is wrong (constraint validation, aria-invalid, error
        text on the page), each a problem of this step."""
        for found in await form_problems(self.tools, el):
            self.found.problem(a, ErrorCode.FORM_INVALID, found)
