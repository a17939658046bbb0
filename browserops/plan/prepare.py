"""``browserops prepare``: look at the site read-only and write the plan people review before they confirm.

Prepare opens the start URL, saves an ARIA snapshot of every page it visits into the evidence bundle, resolves
every step's target to the element it would act on, and reads each field's current value to compute the diff.
It follows ``navigate`` steps, but it never clicks: the fields on a page that only a click would reach (after a
submit, say) are planned without reading them (their ``before`` counts as empty and is checked when ``run``
gets there). It talks to the browser only through :class:`GuardedTools` allowing read-only and local-write
tools, so nothing it does can change the site.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from browserops.contract import BrowserOpsError, ErrorCode, SideEffect
from browserops.evidence import BundleWriter, StepEvent, StepTarget, new_request_id
from browserops.plan.build import PlanDraft, build_plan
from browserops.plan.guard import PREPARE_CLASSES, GuardedTools
from browserops.plan.loader import describe_errors
from browserops.plan.model import (
    BrowserPlan,
    DiffEntry,
    Fingerprint,
    PageFingerprint,
    PlanAction,
    PlanSource,
    Requirement,
    fill_keys,
    number_steps,
)
from browserops.plan.pages import PageSeen, open_url, page_name, screenshot_into, snapshot_into, wait_expect
from browserops.plan.phrase import confirm_phrase
from browserops.plan.resolve import PageListing, current_value, wanted_value
from browserops.plan.steps import Action, Kind, Step, absolute_url
from browserops.privacy import text_digest
from browserops.tools.context import ToolContext

Progress = Callable[[str], None]
_CLICK_KINDS = frozenset({Kind.SUBMIT, Kind.PAYMENT, Kind.ACT})


@dataclass
class PlanRequest:
    """What to prepare: steps from a pack or a step file, with the absolute start URL."""

    title: str
    start_url: str
    steps: Sequence[Step]
    source: PlanSource
    requirements: Sequence[Requirement] = ()
    inputs: Mapping[str, Any] | None = None  # input data for valueRef steps


@dataclass
class PreparedPlan:
    plan: BrowserPlan
    bundle: Path
    phrase: str
    unread: list[int] = field(default_factory=list)  # fill steps behind a click: current value not read
    snapshots: list[str] = field(default_factory=list)


def bind_values(steps: Sequence[Step], inputs: Mapping[str, Any] | None) -> list[Step]:
    """Give ``valueRef`` steps their values: a non-sensitive value is copied into the plan (with its digest,
    so the reviewer sees it); a sensitive one must exist in the input but stays out of the plan."""
    bound: list[Step] = []
    for n, step in enumerate(steps, start=1):
        ref = step.value_ref
        if ref is None:
            bound.append(step)
            continue
        if inputs is None or ref.key not in inputs or inputs[ref.key] is None:
            raise BrowserOpsError(
                ErrorCode.INPUT_INVALID,
                f"Step {n} takes its value from input key {ref.key!r}, but "
                + ("no input file was given (--input FILE)." if inputs is None else "the input has no such key."),
                details={"step": n, "key": ref.key},
            )
        if ref.sensitive:
            bound.append(step)
            continue
        value = inputs[ref.key]
        data = step.model_dump(by_alias=True, exclude_none=True)
        data["value"] = value
        data["valueRef"] = {**data["valueRef"], "digest": text_digest(str(value))}
        try:
            bound.append(type(step).model_validate(data))
        except ValidationError as exc:
            raise BrowserOpsError(ErrorCode.INPUT_INVALID,
                                  f"Input key {ref.key!r} (step {n}): {describe_errors(exc)}.") from None
    return bound


class _Walk:
    """One prepare pass over the steps, recording into the bundle as it goes."""

    def __init__(self, tools: GuardedTools, writer: BundleWriter, start_url: str, progress: Progress | None,
                 login_wait_s: float, keys: dict[int, str]) -> None:
        self.tools = tools
        self.writer = writer
        self.start_url = start_url
        self.progress = progress
        self.login_wait_s = login_wait_s
        self.keys = keys
        self.seen = PageSeen()
        self.pages: list[PageFingerprint] = []
        self.values: dict[str, str | None] = {}
        self.diff: list[DiffEntry] = []
        self.unread: list[int] = []
        self.behind: int | None = None  # the click step whose resulting page prepare cannot see
        self.page = PageListing(tools)  # prepare never acts, so one listing serves a whole page

    def say(self, line: str) -> None:
        if self.progress:
            self.progress(line)

    async def look(self) -> str:
        """Snapshot the page into the bundle and remember it in the fingerprint."""
        rel, sha = await snapshot_into(self.tools, self.writer, len(self.pages) + 1, page_name(self.seen.url))
        self.pages.append(PageFingerprint(url=self.seen.url, title=self.seen.title, snapshot=rel, sha256=sha))
        return rel

    async def open(self, url: str, step: int, kind: str) -> None:
        event = StepEvent.begin(step=step, tool="browser_navigate", args={"url": url}, kind=kind,
                                side_effect=SideEffect.READ_ONLY)
        await open_url(self.tools, url, self.seen, login_wait_s=self.login_wait_s, on_wait=self.progress)
        rel = await self.look()
        self.writer.log_event(event.end(status="ok", page_url=self.seen.url, page_title=self.seen.title,
                                        note=f"snapshot {rel}"))
        self.behind = None
        self.page.forget()

    async def step(self, a: PlanAction, total: int) -> None:
        head = f"[{a.number}/{total}] {a.kind.value}" + (f" {a.field}" if a.field else "")
        if a.action is Action.NAVIGATE:
            assert a.url is not None
            url = absolute_url(self.start_url, a.url)
            if a.number == 1 and url == self.start_url and self.behind is None:
                self.say(f"{head}: already on {url}")
                self.writer.log_event(StepEvent.begin(step=a.number, tool=a.tool, kind=a.kind.value,
                                                      side_effect=a.side_effect).end(
                    status="ok", page_url=self.seen.url, page_title=self.seen.title, note="already on the start URL"))
                return
            self.say(f"{head}: opening {url}")
            await self.open(url, a.number, a.kind.value)
            return
        event = StepEvent.begin(step=a.number, kind=a.kind.value, side_effect=a.side_effect,
                                tool="browser_list_interactives")
        if self.behind is not None:
            note = f"on the page step {self.behind} leads to: prepare does not click, so this was not looked at"
            if a.kind is Kind.FILL:
                self._fill_unread(a)
            self.say(f"{head}: not read ({note})")
            self.writer.log_event(event.end(status="skipped", note=note))
            return
        if a.target is not None:
            try:
                element = await self.page.resolve(a.target)
            except BrowserOpsError as exc:
                if exc.code is ErrorCode.SITE_CHANGED and a.optional:
                    self.say(f"{head}: optional target not found")
                    self.writer.log_event(event.end(status="skipped", note="optional target not on the page"))
                    return
                raise
            a.prepared_number = element.number
            a.matched_name = element.matched
            if a.kind is Kind.FILL:
                self._fill(a, current_value(a, element))
            if a.kind in _CLICK_KINDS:
                self.behind = a.number
            self.say(f'{head}: {element.role} "{element.name}" is #{element.number}')
            self.writer.log_event(event.end(status="ok", target=StepTarget(
                role=element.role, name=element.name, number=element.number),
                note=f"#{element.number}, matched {element.how} on {element.matched!r}"))
            return
        if a.action is Action.WAIT_TEXT:
            assert a.expect is not None
            proof = await wait_expect(self.tools, a.expect, self.seen)
            if proof is None:
                raise BrowserOpsError(
                    ErrorCode.SITE_CHANGED,
                    f"Step {a.number} expects the page to show {a.expect.text or a.expect.url_contains!r}, and it "
                    f"does not ({self.seen.url}). The site changed, or the plan starts on the wrong page.",
                    details={"step": a.number},
                )
            self.page.forget()  # the page may have changed while it was awaited
            self.say(f"{head}: found")
            self.writer.log_event(event.end(status="ok", tool="browser_wait", note="expected text is on the page"))
            return
        rel = await self.look()  # a snapshot step
        self.say(f"{head}: {rel}")
        self.writer.log_event(event.end(status="ok", tool="browser_snapshot", note=f"snapshot {rel}"))

    def _fill(self, a: PlanAction, before: str | None) -> None:
        key = self.keys[a.number]
        if a.sensitive:
            # Only whether it changes: '+' into an empty field, '~' over a filled one. Never a value or digest.
            entry = DiffEntry.compute(key, a.number, before, "(new)", sensitive=True)
        else:
            self.values[key] = before or None
            entry = DiffEntry.compute(key, a.number, before, wanted_value(a))
        if entry is not None:
            self.diff.append(entry)

    def _fill_unread(self, a: PlanAction) -> None:
        self.unread.append(a.number)
        self._fill(a, None)


async def prepare_plan(ctx: ToolContext, workspace: Path, request: PlanRequest, *, progress: Progress | None = None,
                       login_wait_s: float = 0.0) -> PreparedPlan:
    """Look read-only, write ``plan.json`` and the snapshots into a new bundle finished as ``prepared``."""
    steps = bind_values(request.steps, request.inputs)
    actions = number_steps(steps)
    created = dt.datetime.now(dt.UTC)
    request_id = new_request_id(created)
    tools = GuardedTools(ctx, PREPARE_CLASSES, who="prepare")
    with BundleWriter.create(workspace, request_id, phase="prepare") as writer:
        walk = _Walk(tools, writer, request.start_url, progress, login_wait_s, fill_keys(actions))
        try:
            walk.say(f"Opening {request.start_url}")
            await walk.open(request.start_url, 0, "navigate")
            for a in actions:
                await walk.step(a, len(actions))
        except BrowserOpsError as exc:
            await _error_evidence(tools, writer, walk, exc)
            raise BrowserOpsError(exc.code, f"{exc.message} (Evidence: {writer.path})",
                                  details={**exc.details, "bundle": str(writer.path)}) from exc
        try:
            plan = build_plan(PlanDraft(
                title=request.title, start_url=request.start_url, steps=actions, workspace=str(writer.workspace),
                source=request.source, requirements=list(request.requirements), diff=walk.diff,
                fingerprint=Fingerprint(pages=walk.pages, values=walk.values), request_id=request_id,
                created=created,
            ))
        except ValidationError as exc:
            raise BrowserOpsError(ErrorCode.PLAN_INVALID, f"The plan is not valid: {describe_errors(exc)}.") from None
        writer.write_plan(plan)
        writer.finish("prepared")
    return PreparedPlan(plan=plan, bundle=writer.path, phrase=confirm_phrase(plan), unread=walk.unread,
                    snapshots=[p.snapshot for p in walk.pages if p.snapshot])


async def _error_evidence(tools: GuardedTools, writer: BundleWriter, walk: _Walk, exc: BrowserOpsError) -> None:
    """What the page looked like when prepare gave up (best effort: the error is what matters)."""
    with contextlib.suppress(BrowserOpsError, OSError):
        shot = await screenshot_into(tools, writer, 0, "error", exc.code.value.removeprefix("BROWSER_").lower())
        rel = await walk.look()
        writer.log_event(StepEvent.begin(step=0, tool="browser_screenshot").end(
            status="error", page_url=walk.seen.url, page_title=walk.seen.title, screenshots=[shot],
            code=exc.code.value, error=exc.message, note=f"page when prepare stopped; snapshot {rel}"))
