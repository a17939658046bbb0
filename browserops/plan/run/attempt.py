"""``browserops run``: execute a prepared plan in the workspace lane and record it in the plan's bundle.

Order of checks, so that a refused run changes nothing (not even the bundle):

1. ``plan.json`` must still be the file prepare wrote: its SHA-256 against the bundle's manifest
   (``BROWSER_PLAN_INVALID`` for an edited plan; checked again once in the lane);
2. the confirm phrase, when given, must be this plan's (``BROWSER_CONFIRM_REQUIRED`` otherwise); a person's
   approval through an MCP client (:class:`~browserops.evidence.Approval`, instead of the phrase) must name this
   plan's digest;
3. sensitive values must be in the input data (``BROWSER_INPUT_INVALID``), from an unchanged input file;
4. in the lane: a confirmed plan runs once (``BROWSER_PLAN_STALE``).

Then the bundle gets a new attempt, the browser starts (``start_browser``), and :class:`RunPhase` walks the
steps. The attempt finishes ``complete``, ``partial`` (no error, but steps were skipped for want of ``--confirm``:
"10 steps need --confirm") or ``incomplete`` (with the error), also on cancellation; only a SIGKILL leaves it
unfinished, which ``evidence verify`` reports.
"""

from __future__ import annotations

import asyncio
import datetime as dt
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence import Approval, BundleWriter, StepEvent, VerifyReport, layout, verify_bundle
from browserops.evidence.manifest import read_manifest
from browserops.lane import open_lane
from browserops.origins import origin_of
from browserops.plan.interpret.guard import CONFIRMED_CLASSES, UNCONFIRMED_CLASSES, GuardedTools
from browserops.plan.interpret.interpreter import Progress
from browserops.plan.model.document import BrowserPlan, input_texts, missing_evidence
from browserops.plan.model.phrase import normalize_phrase, plan_digest, verify_phrase
from browserops.plan.run.executor import RunPhase
from browserops.plan.run.outcome import StepFailed, StepOutcome, not_confirmed
from browserops.privacy import EnteredValues
from browserops.tools.context import ToolContext


@dataclass
class RunOptions:
    confirm: str | None = None
    # A person's approval given through an MCP client instead of the phrase (it names the plan's digest).
    approval: Approval | None = None
    inputs: Mapping[str, Any] | None = None  # input data for sensitive valueRef steps
    inputs_digest: str | None = None  # SHA-256 of the input file they came from
    no_wait: bool = False  # BROWSER_LANE_BUSY instead of queueing behind another run
    login_wait_s: float = 0.0
    progress: Progress | None = None
    start_browser: Callable[[], Awaitable[None]] | None = None  # called in the lane, once the attempt is open
    # Called before the attempt is finished (not after an interruption) with the writer and the values the run
    # typed, e.g. to put a trace with those values masked into the bundle.
    before_finish: Callable[[BundleWriter, list[str]], Awaitable[None]] | None = None


@dataclass
class RunResult:
    request_id: str
    bundle: Path
    status: str  # complete | partial (steps skipped for want of --confirm) | incomplete
    confirmed: bool
    attempt: int
    started: dt.datetime
    ended: dt.datetime
    steps: list[StepOutcome] = field(default_factory=list)
    reference: str | None = None
    confirmation: dict[str, Any] | None = None
    exports: list[dict[str, Any]] = field(default_factory=list)
    verify: VerifyReport | None = None
    error: BrowserOpsError | None = None
    waited_s: float = 0.0

    @property
    def skipped(self) -> list[int]:
        """Steps that did not run for want of --confirm (they need it, or follow a click that did not run)."""
        return not_confirmed(self.steps)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "requestId": self.request_id, "bundle": str(self.bundle), "runStatus": self.status,
            "confirmed": self.confirmed, "attempt": self.attempt, "started": self.started.isoformat(),
            "ended": self.ended.isoformat(), "laneWaitS": round(self.waited_s, 3),
            "steps": [s.to_json() for s in self.steps], "skipped": self.skipped, "reference": self.reference,
            "confirmation": self.confirmation, "exports": self.exports,
            "verify": self.verify.model_dump(mode="json", by_alias=True) if self.verify else None,
        }
        if self.error is not None:
            out["error"] = self.error.to_dict()
        return out


def check_confirm(plan: BrowserPlan, phrase: str | None, approval: Approval | None = None) -> bool:
    """Whether browser-act steps may run: no phrase (and no approval) means no; a wrong phrase, or an approval of
    another plan, is an error, never a silent no."""
    if approval is not None:
        if phrase is not None:
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, "A run is confirmed by its phrase or by an approval, not "
                                  "both.")
        if approval.plan_digest != plan_digest(plan):
            raise BrowserOpsError(
                ErrorCode.CONFIRM_REQUIRED,
                f"The approval given was for another version of plan {plan.request_id}, so nothing ran. Ask for "
                "approval of the plan as it is now.",
            )
        return True
    if phrase is None:
        return False
    if not verify_phrase(plan, phrase):
        raise BrowserOpsError(
            ErrorCode.CONFIRM_REQUIRED,
            f"That confirm phrase does not belong to plan {plan.request_id} as it is now, so nothing ran. Use the "
            "phrase `browserops prepare` printed for it; if the plan was re-prepared or edited, review the new diff "
            "and use its phrase.",
        )
    return True


def sensitive_values(plan: BrowserPlan, inputs: Mapping[str, Any] | None,
                     inputs_digest: str | None) -> dict[int, str]:
    """step number -> secret value, read from the input now (prepare recorded only the key)."""
    wanted = [a for a in plan.actions if a.sensitive and a.value_ref is not None]
    if not wanted:
        return {}
    if inputs is None:
        keys = ", ".join(sorted({a.value_ref.key for a in wanted if a.value_ref}))
        raise BrowserOpsError(ErrorCode.INPUT_INVALID, f"Plan {plan.request_id} takes sensitive values ({keys}) from "
                              "input data: pass the input file with --input FILE.")
    source_digest = plan.source.input_digest
    if source_digest and inputs_digest and source_digest != inputs_digest:
        raise BrowserOpsError(ErrorCode.PLAN_STALE, "The input file changed since prepare. Re-run `browserops "
                              "prepare` with it and review the new diff.")
    out: dict[int, str] = {}
    for a in wanted:
        assert a.value_ref is not None
        value = inputs.get(a.value_ref.key)
        if not isinstance(value, str) or not value:
            raise BrowserOpsError(ErrorCode.INPUT_INVALID, f"Step {a.number} needs input key "
                                  f"{a.value_ref.key!r} as text; the input has none.")
        out[a.number] = value
    return out


def check_plan_file(bundle: Path) -> None:
    """plan.json must be byte-for-byte the file the last finished attempt sealed in the manifest."""
    if not (bundle / layout.MANIFEST_FILE).is_file():
        return  # a previous attempt was killed: nothing sealed to compare with (the phrase still is)
    entries, _ = read_manifest(bundle)
    expected = entries.get(layout.PLAN_FILE)
    plan_path = bundle / layout.PLAN_FILE
    if expected is None or not plan_path.is_file() or layout.sha256_file(plan_path) != expected:
        raise BrowserOpsError(
            ErrorCode.PLAN_INVALID,
            f"{plan_path} was changed after prepare (it no longer matches the bundle's manifest), so it is not the "
            "plan that was reviewed. Nothing ran. Run `browserops prepare` again.",
            details={"path": str(plan_path)},
        )


def prepared_origins(plan: BrowserPlan) -> list[str]:
    """The origins ``prepare`` saw: the start page's and every page it snapshotted."""
    urls = [plan.start_url, *(p.url for p in (plan.fingerprint.pages if plan.fingerprint else []))]
    return [o for o in dict.fromkeys(origin_of(u) for u in urls) if o]


async def run_plan(ctx: ToolContext, workspace: Path, plan: BrowserPlan, bundle: Path,
                   options: RunOptions) -> RunResult:
    """Run ``plan`` (from ``bundle``) once. Refusals before any step raise; a failed step is in the result."""
    check_plan_file(bundle)  # first: "this plan was edited" says more than "wrong phrase"
    confirmed = check_confirm(plan, options.confirm, options.approval)
    secrets = sensitive_values(plan, options.inputs, options.inputs_digest)
    lane = open_lane(workspace, ctx.settings, no_wait=options.no_wait, on_wait=options.progress,
                     holder={"requestId": plan.request_id, "command": "run"})
    await lane.acquire_async()
    try:
        check_plan_file(bundle)
        phrase = normalize_phrase(options.confirm) if confirmed and options.confirm is not None else None
        writer = BundleWriter.open(workspace, plan.request_id, phase="run", lane=lane.record(),
                                   confirmed_with=phrase, approved=options.approval)
        # Before each acting or exporting call the lane must still be this run's (a Redis lease can end).
        tools = GuardedTools(ctx, CONFIRMED_CLASSES if confirmed else UNCONFIRMED_CLASSES,
                             who="run" if confirmed else "run without --confirm", banners=True,
                             before_effect=lane.check)
        executor = RunPhase(tools, writer, plan, confirmed=confirmed, secrets=secrets, progress=options.progress,
                                login_wait_s=options.login_wait_s)
        # The ledger writes no URL path segment holding one of the plan's inputs, and no digest of a body that
        # carries a secret (privacy.py).
        ctx.session.requests.hide(EnteredValues([*input_texts(plan), *secrets.values()]),
                                  secrets=EnteredValues(secrets.values()))
        started = writer.info.attempts[-1].started
        # run goes nowhere prepare did not look: the session's origin rules, narrowed to the plan's origins.
        rules = ctx.session.origin_rules
        await ctx.session.set_origin_rules(rules.narrowed(prepared_origins(plan), by="the plan's prepare"))
        try:
            error = await _attempt(writer, executor, plan, confirmed, options)
            # Never close the browser on a change still on its way to the server (bounded wait).
            await executor.finish()
        finally:
            await ctx.session.set_origin_rules(rules)
        if options.before_finish is not None:
            await _before_finish(writer, options.before_finish, typed_values(plan, secrets, executor.entered))
        skipped = not_confirmed(executor.outcomes)
        if error is None and skipped:
            # Never "complete" while steps that change the site were left out: a reviewer scanning the list must
            # not read that the change was made.
            writer.finish("partial", reason=f"{len(skipped)} step{'s' if len(skipped) != 1 else ''} "
                          f"need{'s' if len(skipped) == 1 else ''} --confirm")
        elif error is None:
            writer.finish("complete")
        else:
            writer.finish("incomplete", reason=f"{error.code.value}: {error.message}")
    finally:
        await asyncio.shield(lane.release_async())
    info = writer.info
    # Its own check of what it just wrote: unsigned is fine when it was written without a key.
    verified = verify_bundle(writer.path, allow_unsigned=writer.signer is None)
    return RunResult(
        request_id=plan.request_id, bundle=writer.path, status=info.status, confirmed=confirmed,
        attempt=info.attempts[-1].number, started=started, ended=info.attempts[-1].ended or started,
        steps=executor.outcomes, reference=executor.reference, confirmation=executor.confirmation,
        exports=executor.exports, verify=verified, error=error, waited_s=lane.waited_s,
    )


def typed_values(plan: BrowserPlan, secrets: Mapping[int, str], entered: EnteredValues | None = None) -> list[str]:
    """Every form of what the run enters into fields: the plan's typed and chosen values and the sensitive ones
    from the input, in each spelling they take (a date converted, digits an input mask regrouped), and what the
    fields held afterwards (``entered``, collected by the runner from each result)."""
    forms = EnteredValues([*input_texts(plan), *secrets.values()])
    return sorted({*forms.forms(), *(entered.forms() if entered is not None else [])}, key=len, reverse=True)


async def _before_finish(writer: BundleWriter, hook: Callable[[BundleWriter, list[str]], Awaitable[None]],
                         values: list[str]) -> None:
    """A failing hook (the trace could not be saved) is recorded as an event; the run's outcome stays."""
    event = StepEvent.begin(step=0, kind="before-finish")
    try:
        await hook(writer, values)
    except BrowserOpsError as exc:
        writer.log_event(event.end(status="error", code=exc.code.value, error=exc.message))


async def _attempt(writer: BundleWriter, executor: RunPhase, plan: BrowserPlan, confirmed: bool,
                   options: RunOptions) -> BrowserOpsError | None:
    """The steps; any exit but a BrowserOpsError (cancellation, Ctrl+C, a bug) still closes the attempt."""
    try:
        if options.start_browser is not None:
            await options.start_browser()
        await executor.run()
    except StepFailed as exc:
        return exc
    except BrowserOpsError as exc:  # e.g. the browser could not start
        writer.log_event(StepEvent.begin(step=0).end(status="error", code=exc.code.value, error=exc.message))
        return exc
    except BaseException as exc:
        at = executor.outcomes[-1].number if executor.outcomes else 0
        why = "interrupted (stopped by a signal)" if not isinstance(exc, Exception) else (
            f"{ErrorCode.INTERNAL.value}: {type(exc).__name__}: {exc}")
        writer.abandon(f"{why} after step {at}")
        raise
    if confirmed:
        files = writer.evidence_names()  # a "before" identical to the last "after" is stored once, named twice
        skipped = {o.number for o in executor.outcomes if o.status == "skipped"}
        lacking = [item.path for item in missing_evidence(plan, files) if item.path and item.step not in skipped]
        if lacking:
            return BrowserOpsError(ErrorCode.INTERNAL, f"The run finished without evidence it owes: "
                                   f"{', '.join(lacking[:5])}.")
    return None
