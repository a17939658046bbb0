"""The two phases over MCP: ``browser_prepare``, ``browser_run``, ``browser_evidence`` — what ``browserops prepare``,
``run`` and ``evidence show`` do, through the same plan engine, lane, bundle and codes.

The differences are who confirms and what the caller may hold. The caller here is a model: no result carries a
confirm phrase, and ``browser_run`` runs a plan's side effects only after the person approved it in their client
(:mod:`.approval`); a client that cannot ask its user gets the read-only part run, as ``run`` without ``--confirm``,
and the exact command for the person to run in a terminal (``run --review``), which shows them the phrase there.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import re
from collections.abc import Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from pathlib import Path
from typing import Any, Literal, Protocol

from mcp.server.mcpserver import AcceptedElicitation, CancelledElicitation, Context, DeclinedElicitation
from pydantic import Field, ValidationError

from browserops.config import Settings
from browserops.contract import BrowserOpsError, ErrorCode, ToolResult, error, error_from, ok
from browserops.evidence import Approval
from browserops.mcp_server.approval import Approve, Gate, approval_of, gate, refuse_phrase
from browserops.plan import BrowserPlan
from browserops.plan.prepare.prepare import PreparedPlan, prepare_plan
from browserops.plan.run.attempt import RunOptions, run_plan
from browserops.tools.context import ToolContext
from browserops.tools.definitions import ToolArgs, describe_validation_error
from browserops.twophase import evidence_view, prepared_json, read_input, run_command, run_json, source_from_data
from browserops.twophase import start_url as plan_start_url

BrowserChoice = Literal["server", "fresh"]
PlanBrowser = AbstractAsyncContextManager[tuple[ToolContext, Any]]

_BROWSER_HELP = ("Which browser: 'server' (default) — the one this server was started with (its profile, CDP "
                 "endpoint or headed window, with its logins); 'fresh' — a new headless browser with no cookies.")


class PrepareArgs(ToolArgs):
    steps: str | None = Field(None, max_length=512 * 1024, description="A step file's text (YAML or JSON; format in "
                              "cli_contract.md). Give this, or pack.")
    pack: str | None = Field(None, max_length=100, description="A domain pack's name (`browserops pack list`).")
    input: dict[str, Any] | None = Field(None, description="The pack's input fields, or values for the step file's "
                                         "valueRef keys. Relative file paths resolve in the server's workspace.")
    base_url: str | None = Field(None, max_length=4000, description="The site the plan's paths are on, e.g. "
                                 "http://127.0.0.1:8765 (default: the base_url setting).")
    url: str | None = Field(None, max_length=4000, description="An absolute start URL, instead of the plan's own.")
    browser: BrowserChoice = Field("server", description=_BROWSER_HELP)


class RunArgs(ToolArgs):
    request_id: str = Field(min_length=1, max_length=100, description="The plan's request id, from browser_prepare.")
    browser: BrowserChoice = Field("server", description=_BROWSER_HELP + " Use the one the plan was prepared with.")
    no_wait: bool = Field(False, description="Fail with BROWSER_LANE_BUSY instead of waiting for another run on this "
                          "workspace.")


class EvidenceArgs(ToolArgs):
    request_id: str = Field(min_length=1, max_length=100, description="The plan's request id.")


PREPARE_DESCRIPTION = (
    "Prepare a plan without changing anything (`browserops prepare`): open the site read-only, rehearse the steps in "
    "a fenced copy of the browser and return the plan — requestId, steps, side effects, requirements, the diff "
    "(+ new, ~ changed, - cleared) and the problems rehearsing found. Give a step file's text (steps) or a domain "
    "pack and its input. Nothing is submitted; run it with browser_run(request_id)."
)
RUN_DESCRIPTION = (
    "Run a prepared plan (`browserops run`), in the workspace's lane, leaving its evidence bundle. Before any step "
    "that changes the site, the server asks the person through this client (an approval question showing the plan's "
    "diff); you cannot approve for them, and no argument can: pass request_id only. Declined: nothing runs "
    "(BROWSER_CONFIRM_DECLINED). A client that cannot ask its user: only read-only and export steps run, and the "
    "result gives the command the person runs in a terminal to review and confirm the rest."
)
EVIDENCE_DESCRIPTION = (
    "A plan's evidence bundle (`browserops evidence show`): the readable summary, who confirmed each run (a phrase "
    "in a terminal, or an approval through an MCP client), the result of re-hashing the files (verify), and the "
    "side-effect ledger — every request a run sent that could change a server."
)


class PlanHost(Protocol):
    """What the plan tools need of the server: its settings and workspace, a browser for a plan, and the flags a
    terminal run needs to see the same browser."""

    settings: Settings
    workspace: Path

    def plan_browser(self, choice: BrowserChoice) -> PlanBrowser: ...

    def browser_args(self, choice: BrowserChoice) -> Sequence[str]: ...

    async def release_profile(self, choice: BrowserChoice) -> bool: ...


_STEP_LINE = re.compile(r"^\[(\d+)/(\d+)\] ([^:]*)")


class Ticker:
    """The engine's progress lines as MCP progress notifications (which also keep a client from timing out a long
    call): ``[3/11] fill amount`` as progress 3 of 11 with that message — the step and its field, which the plan
    already names; what follows the colon (element names, notes from the page) is left out."""

    def __init__(self, ctx: Context[Any, Any] | None) -> None:
        self.ctx = ctx
        self._sending: set[asyncio.Task[None]] = set()

    def __call__(self, line: str) -> None:
        match = _STEP_LINE.match(line)
        if self.ctx is None or match is None:
            return
        task = asyncio.get_running_loop().create_task(
            self._send(float(match.group(1)), float(match.group(2)), match.group(0)))
        self._sending.add(task)
        task.add_done_callback(self._sending.discard)

    async def flush(self) -> None:
        """Before the result: a notification sent after it would belong to a finished request."""
        if self._sending:
            await asyncio.gather(*self._sending, return_exceptions=True)

    async def _send(self, progress: float, total: float, message: str) -> None:
        assert self.ctx is not None
        with contextlib.suppress(Exception):  # progress is a courtesy: a closed stream must not fail the call
            await self.ctx.report_progress(progress, total, message)


def _invalid(exc: ValidationError) -> ToolResult:
    return error(ErrorCode.INVALID_ARGS, describe_validation_error(exc))


class PlanTools:
    """The handlers of the three tools over one server. Input given as data for a plan with sensitive values is kept
    in memory for its run (it is never written anywhere), as a pack plan's run reads its input file again."""

    def __init__(self, host: PlanHost) -> None:
        self.host = host
        self._inputs: dict[str, tuple[dict[str, Any], str | None]] = {}

    # ------------------------------------------------------------------ prepare

    async def prepare(self, arguments: Mapping[str, Any], ctx: Context[Any, Any] | None = None) -> ToolResult:
        try:
            refuse_phrase(arguments)
            args = PrepareArgs.model_validate(dict(arguments))
        except BrowserOpsError as exc:
            return error_from(exc)
        except ValidationError as exc:
            return _invalid(exc)
        host = self.host
        try:
            source = source_from_data(host.workspace, args.pack, args.steps, args.input)
            request = dataclasses.replace(source.request, start_url=plan_start_url(
                source.start, list(source.request.steps), args.url, args.base_url or host.settings.base_url or None))
            ticker = Ticker(ctx)
            async with host.plan_browser(args.browser) as (browser_ctx, start):
                await start()
                prepared = await prepare_plan(browser_ctx, host.workspace, request, progress=ticker)
            await ticker.flush()
        except BrowserOpsError as exc:
            return error_from(exc)
        plan = prepared.plan
        if request.inputs is not None and any(a.sensitive for a in plan.actions):
            self._inputs[plan.request_id] = (dict(request.inputs), plan.source.input_digest)
        return ok(self._prepared(prepared, args.browser))

    def _prepared(self, prepared: PreparedPlan, choice: BrowserChoice) -> dict[str, Any]:
        plan = prepared.plan
        needs = plan.side_effects.requires_confirm
        command = run_command(self.host.workspace, plan.request_id, review=needs,
                              browser_args=self.host.browser_args(choice))
        view = prepared_json(prepared, command, with_phrase=False)
        view.pop("status")
        view["next"] = (f"browser_run(request_id={plan.request_id!r}) runs it; the server first asks the person to "
                        "approve the diff through this client." if needs else
                        f"browser_run(request_id={plan.request_id!r}) runs it; nothing in it needs approval.")
        return view

    # ------------------------------------------------------------------ run

    async def run(self, arguments: Mapping[str, Any], outcome: Any, ctx: Context[Any, Any]) -> ToolResult:
        """``outcome``: the approval resolver's — the person's answer, or the :class:`Gate` when nobody was asked."""
        checked = gate(self.host.workspace, arguments.get("request_id"), arguments, ctx)
        if checked.error is not None:
            return error_from(checked.error)
        try:
            args = RunArgs.model_validate(dict(arguments))
        except ValidationError as exc:
            return _invalid(exc)
        assert checked.plan is not None and checked.bundle is not None
        plan = checked.plan
        answer = outcome.data if isinstance(outcome, AcceptedElicitation) else None
        said_no = isinstance(answer, Approve) and not answer.run
        if isinstance(outcome, DeclinedElicitation) or said_no:
            return error(ErrorCode.CONFIRM_DECLINED, f"The person declined plan {plan.request_id} in their client, so "
                         "nothing ran. Prepare a new plan if something should change.",
                         {"requestId": plan.request_id})
        if isinstance(outcome, CancelledElicitation):
            return error(ErrorCode.CONFIRM_CANCELLED, f"The person closed the question about plan {plan.request_id} "
                         "without answering, so nothing ran. Call browser_run again to ask again, or give them "
                         "runCommand to run in a terminal.",
                         {"requestId": plan.request_id, "runCommand": self._terminal(plan, args.browser)})
        approval: Approval | None = None
        if isinstance(outcome, AcceptedElicitation) and isinstance(outcome.data, Approve):
            approval = approval_of(plan, ctx)
        elif isinstance(outcome, AcceptedElicitation) and isinstance(outcome.data, Gate) and outcome.data.can_ask:
            # Asked for a question and got none: never run unconfirmed steps on a guess.
            return error(ErrorCode.INTERNAL, "The approval question was not asked; nothing ran.")
        return await self._run(plan, checked.bundle, args, approval, Ticker(ctx))

    def _terminal(self, plan: BrowserPlan, choice: BrowserChoice) -> str:
        return run_command(self.host.workspace, plan.request_id, review=True,
                           input_file=self._input_file(plan), browser_args=self.host.browser_args(choice))

    @staticmethod
    def _input_file(plan: BrowserPlan) -> Path | None:
        """A pack plan's input file, for a terminal run of a plan with sensitive values (read again there)."""
        secret = any(a.sensitive for a in plan.actions)
        return Path(plan.source.path) if secret and plan.source.kind == "pack" and plan.source.path else None

    async def _run(self, plan: BrowserPlan, bundle: Path, args: RunArgs, approval: Approval | None,
                   ticker: Ticker) -> ToolResult:
        inputs, digest = self._inputs.get(plan.request_id, (None, None))
        source_file = self._input_file(plan)
        try:
            if inputs is None and source_file is not None:
                inputs, digest = read_input(source_file)
            async with self.host.plan_browser(args.browser) as (ctx, start):
                options = RunOptions(approval=approval, inputs=inputs, inputs_digest=digest, no_wait=args.no_wait,
                                     start_browser=start, progress=ticker)
                result = await run_plan(ctx, self.host.workspace, plan, bundle, options)
        except BrowserOpsError as exc:
            return error_from(exc)
        await ticker.flush()
        wire = run_json(result)
        if approval is not None:
            wire["approval"] = approval.model_dump(mode="json", by_alias=True)
        elif plan.side_effects.requires_confirm and result.error is None:
            wire.update(await self._handoff(plan, args.browser, result.skipped))
        if result.error is not None:
            return error(result.error.code, result.error.message, {k: v for k, v in wire.items()
                                                                  if k not in ("status", "code", "error")})
        wire.pop("status")
        return ok(wire)

    async def _handoff(self, plan: BrowserPlan, choice: BrowserChoice, skipped: list[int]) -> dict[str, Any]:
        """The answer for a client that cannot ask its user: the command for the person's terminal."""
        command = self._terminal(plan, choice)
        released = await self.host.release_profile(choice)
        return {
            "outcome": "needs_approval",
            "runCommand": command,
            "next": (f"Only the read-only and export steps ran; steps {', '.join(map(str, skipped)) or '-'} change the "
                     "site and need the person's confirmation, which this client cannot ask for. Give the person "
                     "runCommand to run in a terminal: it shows them the plan and its confirm phrase there and runs "
                     "it once they type the phrase. Do not ask them for the phrase."
                     + (" The server closed its browser so that the terminal run can open the same profile; its next "
                        "tool call starts it again." if released else "")),
        }

    # ------------------------------------------------------------------ evidence

    def evidence(self, arguments: Mapping[str, Any]) -> ToolResult:
        try:
            refuse_phrase(arguments)
            args = EvidenceArgs.model_validate(dict(arguments))
            return ok(evidence_view(self.host.workspace, args.request_id, hide_phrase=True))
        except ValidationError as exc:
            return _invalid(exc)
        except BrowserOpsError as exc:
            return error_from(exc)

