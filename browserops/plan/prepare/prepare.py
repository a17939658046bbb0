"""``browserops prepare``: look at the site without changing it and write the plan people review before they confirm.

Prepare saves an ARIA snapshot of every page it opens into the evidence bundle, resolves every step's target to
the element it would act on, and reads each field's current value to compute the diff. It does all that in a
fenced, throwaway copy of the browser (:mod:`browserops.browser.launch.rehearsal`): cookies and storage of the
person's browser (a ``--profile`` too), in which every request that could change a site is refused before it
leaves — "read-only" means exactly that: only the safe methods of RFC 9110 (GET, HEAD, OPTIONS) reach a server.
In that copy it rehearses the in-page steps (fills, selects, ``act`` clicks; never a submit or a payment) so it
sees the fields they reveal (:mod:`browserops.plan.prepare.rehearsal`), and nothing it types stays in the profile.

The person's own browser is only used, headed, to wait for them to log in (``--login-wait``): their login is
theirs to send. Everything else goes through :class:`GuardedTools` on the copy.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence import BundleWriter, StepEvent, new_request_id
from browserops.plan.interpret.guard import PREPARE_CLASSES, REHEARSAL_CLASSES, GuardedTools
from browserops.plan.interpret.interpreter import Progress
from browserops.plan.interpret.pages import PageSeen, open_url, screenshot_into
from browserops.plan.model.build import PlanDraft, build_plan
from browserops.plan.model.document import (
    BrowserPlan,
    Fingerprint,
    PlanAction,
    PlanSource,
    Requirement,
    fill_keys,
    number_steps,
)
from browserops.plan.model.facts import signs_in_here, step_title
from browserops.plan.model.loader import describe_errors
from browserops.plan.model.phrase import confirm_phrase
from browserops.plan.model.steps import Step
from browserops.plan.prepare.rehearsal import RehearsalPhase
from browserops.privacy import text_digest
from browserops.tools.context import ToolContext
from browserops.tools.rehearsal import rehearsal_context


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
    unread: list[int] = field(default_factory=list)  # fill steps whose current value was not read
    snapshots: list[str] = field(default_factory=list)
    not_read: dict[int, str] = field(default_factory=dict)  # step -> why prepare did not look at it
    rehearsed: list[int] = field(default_factory=list)  # in-page steps prepare carried out in its copy
    refused: list[str] = field(default_factory=list)  # requests the copy's fence kept from leaving


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


def secret_values(actions: Sequence[PlanAction], inputs: Mapping[str, Any] | None) -> dict[int, str]:
    """step -> the sensitive value to type in the rehearsal (never written anywhere)."""
    out: dict[int, str] = {}
    for a in actions:
        if a.sensitive and a.value_ref is not None and inputs is not None and inputs.get(a.value_ref.key) is not None:
            out[a.number] = str(inputs[a.value_ref.key])
    return out


async def prepare_plan(ctx: ToolContext, workspace: Path, request: PlanRequest, *, progress: Progress | None = None,
                       login_wait_s: float = 0.0) -> PreparedPlan:
    """Look without changing anything, write ``plan.json`` and the snapshots into a new bundle finished as
    ``prepared``."""
    steps = bind_values(request.steps, request.inputs)
    actions = number_steps(steps)
    created = dt.datetime.now(dt.UTC)
    request_id = new_request_id(created)
    with BundleWriter.create(workspace, request_id, phase="prepare") as writer:
        if login_wait_s > 0 and not signs_in_here(actions, 0):
            # Headed: the person may have to log in, in their own browser (the copy would refuse their login).
            await open_url(GuardedTools(ctx, PREPARE_CLASSES, who="prepare"), request.start_url, PageSeen(),
                           login_wait_s=login_wait_s, on_wait=progress)
        async with rehearsal_context(ctx) as (copy, fence):
            tools = GuardedTools(copy, REHEARSAL_CLASSES, who="prepare's rehearsal")
            walk = RehearsalPhase(tools, fence, writer, actions, start_url=request.start_url, keys=fill_keys(actions),
                        secrets=secret_values(actions, request.inputs), progress=progress)
            current = 0
            try:
                walk.say(f"Opening {request.start_url}")
                await walk.open_start(request.start_url)
                for a in actions:
                    current = a.number
                    await walk.step(a)
            except BrowserOpsError as exc:
                failed = _named(exc, actions[current - 1] if current else None)
                await _error_evidence(tools, writer, walk, failed, actions[current - 1] if current else None)
                raise BrowserOpsError(failed.code, f"{failed.message} (Evidence: {writer.path})",
                                      details={**failed.details, "bundle": str(writer.path)}) from exc
        found = walk.found
        try:
            plan = build_plan(PlanDraft(
                title=request.title, start_url=request.start_url, steps=actions, workspace=str(writer.workspace),
                source=request.source, requirements=list(request.requirements), diff=found.diff,
                fingerprint=Fingerprint(pages=found.pages, values=found.values, unread=found.unread_fields),
                problems=found.problems, request_id=request_id, created=created,
            ))
        except ValidationError as exc:
            raise BrowserOpsError(ErrorCode.PLAN_INVALID, f"The plan is not valid: {describe_errors(exc)}.") from None
        writer.write_plan(plan)
        writer.finish("prepared")
    return PreparedPlan(plan=plan, bundle=writer.path, phrase=confirm_phrase(plan), unread=found.unread,
                        snapshots=[p.snapshot for p in found.pages if p.snapshot], not_read=found.not_read,
                        rehearsed=found.rehearsed, refused=[r.describe() for r in fence.refusals])


def _named(exc: BrowserOpsError, step: PlanAction | None) -> BrowserOpsError:
    """The error as it names the step it stopped at (step N, its field and its target), once."""
    if step is None or "step" in exc.details:
        return exc
    return BrowserOpsError(exc.code, f"S{step_title(step)[1:]}: {exc.message}",
                           details={**exc.details, "step": step.number})


async def _error_evidence(tools: GuardedTools, writer: BundleWriter, walk: RehearsalPhase, exc: BrowserOpsError,
                          step: PlanAction | None) -> None:
    """What the page looked like when prepare gave up, on the event of the step it stopped at (best effort: the
    error is what matters)."""
    number = step.number if step is not None else 0
    event = StepEvent.begin(step=number, kind=step.kind.value if step is not None else "navigate",
                            side_effect=step.side_effect if step is not None else None,
                            tool=step.tool if step is not None else "browser_navigate")
    shots: list[str] = []
    note = "page when prepare stopped"
    with contextlib.suppress(BrowserOpsError, OSError):
        label = step.label() if step is not None else exc.code.value.removeprefix("BROWSER_").lower()
        shots.append(await screenshot_into(tools, writer, number, "error", label))
        note += f"; snapshot {await walk.look()}"
    writer.log_event(event.end(status="error", page_url=walk.seen.url, page_title=walk.seen.title,
                               screenshots=shots, code=exc.code.value, error=exc.message, note=note))
