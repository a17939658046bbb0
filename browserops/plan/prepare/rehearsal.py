"""prepare's walk over a plan's steps, rehearsing what happens inside a page in a fenced, throwaway browser.

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
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence import BundleWriter, StepEvent, StepTarget
from browserops.plan.interpret.acting import press_call, word_call
from browserops.plan.interpret.guard import GuardedTools
from browserops.plan.interpret.pages import (
    PageSeen,
    login_error,
    login_shown,
    open_url,
    page_name,
    settle,
    snapshot_into,
    wait_expect,
)
from browserops.plan.interpret.resolve import (
    PageListing,
    Resolved,
    current_value,
    match_items,
    upload_files,
    wanted_value,
)
from browserops.plan.model.document import DiffEntry, PageFingerprint, PlanAction, PrepareProblem
from browserops.plan.model.facts import signs_in_here, step_title
from browserops.plan.model.steps import Action, Kind, absolute_url, word_action
from browserops.plan.prepare.form_check import form_problems
from browserops.plan.prepare.walk_record import Blind, WalkRecord
from browserops.privacy import mask_pii
from browserops.tools.rehearsal import RequestFence

Progress = Callable[[str], None]
UNMADE_KINDS = frozenset({Kind.SUBMIT, Kind.PAYMENT})  # never rehearsed


class Walk:
    """One prepare pass over the steps in the rehearsal browser, recording into the bundle as it goes."""

    def __init__(self, tools: GuardedTools, fence: RequestFence, writer: BundleWriter, actions: Sequence[PlanAction],
                 *, start_url: str, keys: Mapping[int, str], secrets: Mapping[int, str],
                 progress: Progress | None = None) -> None:
        self.tools = tools
        self.fence = fence
        self.writer = writer
        self.actions = actions
        self.start_url = start_url
        self.keys = keys
        self.secrets = secrets
        self.progress = progress
        self.seen = PageSeen()
        self.found = WalkRecord()
        self.blind: Blind | None = None
        self.unmade: PlanAction | None = None  # the latest click prepare did not make
        self.page = PageListing(tools)
        self.page_mark = 0  # refusals before this index happened on earlier pages
        self.segment: tuple[list[dict[str, Any]], dict[str, str]] | None = None  # listing at the page's start
        self.last_rehearsed: int | None = None  # in the current segment

    def say(self, line: str) -> None:
        if self.progress:
            self.progress(line)

    # ------------------------------------------------------------------ pages

    async def look(self) -> str:
        """Snapshot the page into the bundle and remember it in the fingerprint."""
        pages = self.found.pages
        rel, sha = await snapshot_into(self.tools, self.writer, len(pages) + 1, page_name(self.seen.url))
        pages.append(PageFingerprint(url=self.seen.url, title=self.seen.title, snapshot=rel, sha256=sha))
        return rel

    async def open(self, url: str, step: int, kind: str) -> None:
        event = StepEvent.begin(step=step, tool="browser_navigate", args={"url": url}, kind=kind)
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
        self.writer.log_event(event.end(status="ok", page_url=self.seen.url, page_title=self.seen.title,
                                        note=f"snapshot {rel}"))
        self._new_segment()
        self.page_mark = len(self.fence.refusals)

    def _new_segment(self) -> None:
        self.page.forget()
        self.segment = None
        self.last_rehearsed = None

    # ------------------------------------------------------------------ steps

    async def step(self, a: PlanAction) -> None:
        head = f"[{a.number}/{len(self.actions)}] {a.kind.value}" + (f" {a.field}" if a.field else "")
        if a.action is Action.NAVIGATE:
            assert a.url is not None
            url = absolute_url(self.start_url, a.url)
            if a.number == 1 and url == self.start_url and self.blind is None:
                self.say(f"{head}: already on {url}")
                self.writer.log_event(StepEvent.begin(step=a.number, tool=a.tool, kind=a.kind.value,
                                                      side_effect=a.side_effect).end(
                    status="ok", page_url=self.seen.url, page_title=self.seen.title, note="already on the start URL"))
                return
            self.say(f"{head}: opening {url}")
            await self.open(url, a.number, a.kind.value)
            return
        if self.blind is not None:
            self._not_read(a, head, self.blind.reason)
            return
        if a.action is Action.WAIT_TEXT:
            await self._wait_text(a, head)
        elif a.target is None and a.action is Action.PRESS:
            await self._press_on_focus(a, head)
        elif a.target is None:
            rel = await self.look()  # a snapshot step
            self.say(f"{head}: {rel}")
            self.writer.log_event(StepEvent.begin(step=a.number, kind=a.kind.value, tool="browser_snapshot").end(
                status="ok", note=f"snapshot {rel}"))
        else:
            await self._target_step(a, head)

    def _not_read(self, a: PlanAction, head: str, reason: str) -> None:
        self.found.not_read[a.number] = reason
        if a.kind is Kind.FILL:
            self._fill_unread(a)
        self.say(f"{head}: not read ({reason})")
        self.writer.log_event(StepEvent.begin(step=a.number, kind=a.kind.value, side_effect=a.side_effect,
                                              tool=a.tool).end(status="skipped", note=f"not read: {reason}"))

    async def _wait_text(self, a: PlanAction, head: str) -> None:
        assert a.expect is not None
        if await wait_expect(self.tools, a.expect, self.seen) is None:
            wanted = a.expect.text or a.expect.url_contains
            await self._missing(a, head, f"the page does not show {wanted!r} ({self.seen.url})")
            return
        await settle(self.tools)  # the text may come before the data the next steps read
        self.page.forget()  # the page may have changed while it was awaited
        self.say(f"{head}: found")
        self.writer.log_event(StepEvent.begin(step=a.number, kind=a.kind.value, tool="browser_wait").end(
            status="ok", note="expected text is on the page"))

    async def _missing(self, a: PlanAction, head: str, what: str, cause: BrowserOpsError | None = None) -> None:
        """Something a step needs is not on the page. Not read (with the reason) when the walk may not be on the
        page the run will see; a login page is a login wall; else the step file does not match the page."""
        needed = [r for r in self.fence.since(self.page_mark) if r.needed]
        if needed:
            self._not_read(a, head, f"{what}; prepare refused {needed[-1].describe()} on this page (read-only), "
                           "which the page may have needed")
            return
        if self.unmade is not None:
            self._not_read(a, head, f"{what}; {step_title(self.unmade)} was not made by prepare")
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

    async def _target_step(self, a: PlanAction, head: str) -> None:
        assert a.target is not None
        event = StepEvent.begin(step=a.number, kind=a.kind.value, side_effect=a.side_effect,
                                tool="browser_list_interactives")
        try:
            element = await self.page.resolve(a.target)
        except BrowserOpsError as exc:
            if exc.code is not ErrorCode.SITE_CHANGED:
                raise
            if a.optional:
                self.say(f"{head}: optional target not found")
                self.writer.log_event(event.end(status="skipped", note="optional target not on the page"))
                return
            await self._missing(a, head, f"{a.target.describe()} is not on the page", exc)
            return
        element = await self._note_revealed(a, element)
        a.prepared_number, a.matched_name = element.number, element.matched
        within = a.target.within
        if within is not None:
            a.matched_within = element.within
        inside = f' in {within.role} "{element.within}"' if within is not None and element.within else ""
        event.target = StepTarget(role=element.role, name=element.name, number=element.number)
        note = f"#{element.number}, matched {element.how} on {element.matched!r}{inside}"
        if a.kind is Kind.FILL:
            self._fill(a, current_value(a, element))
            note += await self._rehearse_fill(a, element, event)
        elif a.kind in UNMADE_KINDS:
            await self._check_form(a, element)
            self.unmade = a
            self.blind = Blind(a.number, f"on the page {step_title(a)} leads to: prepare never submits or pays")
        elif a.kind in (Kind.ACT, Kind.PRESS):
            note += await self._rehearse_click(a, element, event)
        self.say(f'{head}: {element.role} "{element.name}"{inside} is #{element.number}')
        self.writer.log_event(event.end(status="ok", note=note))

    async def _press_on_focus(self, a: PlanAction, head: str) -> None:
        """A press step without a target acts on whatever has the focus: Escape, Tab and arrows are rehearsed
        (they stay on the page); Enter or Space may activate something, so what follows is not read."""
        event = StepEvent.begin(step=a.number, kind=a.kind.value, side_effect=a.side_effect, tool="browser_press")
        if a.activates:
            self.blind = Blind(a.number, f"on the page {step_title(a)} may lead to: prepare does not press "
                               f"{a.key} on the focused element")
            self.say(f"{head}: {a.key} on the focused element, not rehearsed")
            self.writer.log_event(event.end(status="ok", note=f"presses {a.key} on the focused element"))
            return
        mark = len(self.fence.refusals)
        tool, args, _ = press_call(a, None)
        result = await self.tools.call(tool, args)
        if result.get("status") != "ok":
            await self._failed(a, BrowserOpsError(ErrorCode.ACTION_FAILED, str(result.get("error"))))
        else:
            self._rehearsed(a, mark)
        self.say(f"{head}: {a.key} on the focused element")
        self.writer.log_event(event.end(status="ok", note=f"presses {a.key} on the focused element; rehearsed"))

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

    # ------------------------------------------------------------------ values

    def _fill(self, a: PlanAction, before: str | None) -> None:
        key = self.keys[a.number]
        if a.sensitive:
            # Only whether it changes: '+' into an empty field, '~' over a filled one. Never a value or digest.
            entry = DiffEntry.compute(key, a.number, before, "(new)", sensitive=True)
        else:
            self.found.values[key] = before or None
            entry = DiffEntry.compute(key, a.number, before, wanted_value(a))
        if entry is not None:
            self.found.diff.append(entry)

    def _fill_unread(self, a: PlanAction) -> None:
        key = self.keys[a.number]
        self.found.unread.append(a.number)
        if not a.sensitive:
            self.found.unread_fields.append(key)
        self.found.diff.append(DiffEntry.not_read(key, a.number, wanted_value(a), sensitive=a.sensitive))

    # ------------------------------------------------------------------ rehearsing

    def _problem(self, a: PlanAction, code: ErrorCode, message: str) -> None:
        self.found.problems.append(PrepareProblem(step=a.number, code=code.value, message=mask_pii(message)[:1000]))

    async def _act(self, args: dict[str, Any]) -> dict[str, Any]:
        result = await self.tools.call("browser_overlay_act" if "index" in args else "browser_upload", args)
        if result.get("status") != "ok":
            raise BrowserOpsError(ErrorCode(str(result.get("code"))) if result.get("code") in
                                  ErrorCode._value2member_map_ else ErrorCode.ACTION_FAILED, str(result.get("error")))
        return dict(result.get("data") or {})

    async def _rehearse_fill(self, a: PlanAction, el: Resolved, event: StepEvent) -> str:
        value = self.secrets.get(a.number) if a.sensitive else a.value
        where = f'{el.role} "{el.name}"'
        mark = len(self.fence.refusals)
        try:
            if word_action(a.action) is not None:  # an acting word the plan has no verb of its own for
                await self._act(word_call(a, el, value)[0])
            elif a.action in (Action.TYPE, Action.SELECT) and isinstance(value, str | list):
                verb = "type" if a.action is Action.TYPE else "select"
                if not a.sensitive and current_value(a, el) == wanted_value(a):
                    return "; already holds the value"
                chosen = {"options": value} if isinstance(value, list) else {"text": value}
                data = await self._act({"index": el.number, "action": verb, **chosen, **el.act_args()})
                if verb == "type" and data.get("matches") is False:
                    self._problem(a, ErrorCode.ACTION_FAILED, f"{where} holds something other than the planned "
                                  "value after typing it (an input mask, a picker or a length limit?).")
            elif a.action is Action.CHECK:
                if (el.state.get("checked") is True) != (a.value is True):
                    await self._act({"index": el.number, "action": "click", **el.act_args()})
            elif a.action is Action.UPLOAD:
                await self._act({"id": el.number, "files": upload_files(a)})
            else:
                return "; not rehearsed (a value of several items)"
        except BrowserOpsError as exc:
            await self._failed(a, exc)
            return f"; rehearsal failed: {exc.code.value}"
        self._rehearsed(a, mark)
        event.tool = "browser_overlay_act"
        return "; rehearsed"

    async def _rehearse_click(self, a: PlanAction, el: Resolved, event: StepEvent) -> str:
        mark = len(self.fence.refusals)
        self.fence.expect_urls([a.expect.url_contains] if a.expect and a.expect.url_contains else [])
        try:
            if a.action is Action.PRESS:
                tool, args, _ = press_call(a, el)
                result = await self.tools.call(tool, args)
                if result.get("status") != "ok":
                    raise BrowserOpsError(ErrorCode.ACTION_FAILED, str(result.get("error")))
                data = dict(result.get("data") or {})
            elif word_action(a.action) is not None:
                data = await self._act(word_call(a, el, self.secrets.get(a.number) if a.sensitive else a.value)[0])
            else:
                data = await self._act({"index": el.number, "action": "click", **el.act_args()})
            self.seen.update(data)
            if a.expect is not None and await wait_expect(self.tools, a.expect, self.seen) is None:
                wanted = a.expect.text or a.expect.url_contains
                self._blind_after(a, mark, f"after the click the page did not show {wanted!r}")
                return "; rehearsed: the expected text did not come"
            # The expected text may come before the data the next steps read (a record's title before its
            # form's choices): the page is read once it has settled.
            await settle(self.tools)
        except BrowserOpsError as exc:
            await self._failed(a, exc)
            return f"; rehearsal failed: {exc.code.value}"
        finally:
            self.fence.expect_urls([])
        event.tool = "browser_overlay_act"
        self._rehearsed(a, mark)
        self._new_segment()
        return "; rehearsed"

    def _rehearsed(self, a: PlanAction, mark: int) -> None:
        self.found.rehearsed.append(a.number)
        self.last_rehearsed = a.number
        self.page.forget()
        needed = [r for r in self.fence.since(mark) if r.needed]
        if needed:
            self.blind = Blind(a.number, f"{step_title(a)} sent {needed[0].describe()}, which prepare refused "
                               "(read-only); the page may depend on it")

    def _blind_after(self, a: PlanAction, mark: int, what: str) -> None:
        needed = [r for r in self.fence.since(mark) if r.needed]
        if needed:  # the page waited for what the fence refused: not a problem of the plan
            self._rehearsed(a, mark)
            return
        self._problem(a, ErrorCode.ACTION_FAILED, f"Rehearsing {step_title(a)}: {what}.")
        self.blind = Blind(a.number, f"{step_title(a)} did not show what it expects when rehearsed")

    async def _failed(self, a: PlanAction, exc: BrowserOpsError) -> None:
        """A step that could not be rehearsed is a problem; the page after it is not the run's."""
        self._problem(a, exc.code, f"Rehearsing {step_title(a)}: {exc.message}")
        self.blind = Blind(a.number, f"{step_title(a)} could not be rehearsed ({exc.code.value})")
        if exc.code is ErrorCode.DIALOG_OPEN:  # Cancel the page's question: the walk goes on reading
            with contextlib.suppress(BrowserOpsError):
                await self.tools.call("browser_dialog", {"accept": False})

    async def _check_form(self, a: PlanAction, el: Resolved) -> None:
        """Just before a submit: what the form itself says is wrong (constraint validation, aria-invalid, error
        text on the page), each a problem of this step."""
        for found in await form_problems(self.tools, el):
            self._problem(a, ErrorCode.FORM_INVALID, found)
