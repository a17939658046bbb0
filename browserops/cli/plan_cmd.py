"""``browserops prepare`` and ``browserops run``: the two-phase commit."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any, NoReturn

import click

from browserops.cli.context import CliState, pass_state, report_error
from browserops.cli.options import BrowserMode, json_flag
from browserops.cli.plan_support import BrowserFlags, Interrupted, browser_flags, run_cancellable, tool_context
from browserops.cli.prepare_goal import GoalSource
from browserops.cli.run_trace import traced
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.plan import BrowserPlan, confirm_phrase, render_diff, resolve_plan
from browserops.plan.prepare.prepare import PlanRequest, PreparedPlan, prepare_plan
from browserops.plan.run.attempt import RunOptions, RunResult, run_plan
from browserops.twophase import Source, prepared_json, read_input, run_command, run_json, source_from_files, start_url


def _workspace(state: CliState) -> Path | None:
    """The workspace for a printed command: omitted when it is the current directory."""
    return None if state.workspace == Path.cwd().resolve() else state.workspace


def _interrupted(state: CliState, exc: Interrupted, what: str) -> NoReturn:
    message = f"Interrupted ({exc}): {what}"
    if state.json_output:
        state.emit_json({"status": "interrupted", "signal": str(exc), "message": message})
    click.echo(message, err=True)
    click.get_current_context().exit(exc.exit_code)
    raise AssertionError  # exit() raises


# --------------------------------------------------------------------------- prepare


@click.command("prepare")
@click.option("--pack", "pack", default=None, metavar="NAME", help="Domain pack that builds the steps.")
@click.option("--input", "input_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Input data (YAML/JSON): the pack's fields, or values for a step file's valueRef keys.")
@click.option("--steps", "steps_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="A hand-written step file (YAML or JSON; format in cli_contract.md).")
@click.option("--base-url", default=None, metavar="URL", help="Site that the plan's paths (e.g. /expense) are on, e.g. "
              "http://127.0.0.1:8765 (default: setting base_url).")
@click.option("--url", default=None, metavar="URL", help="Absolute start URL, instead of the plan's own.")
@click.option("--goal", default=None, metavar="TEXT", help="Let the LLM agent explore from --url read-only and plan "
              "the actions it would take, up to the first that submits or pays (needs a model).")
@click.option("--max-steps", type=click.IntRange(1, 1000), default=None, help="With --goal: the agent's "
              "iteration limit (default: setting max_steps).")
@click.option("--model", default=None, help="With --goal: the model id (default: setting model).")
@browser_flags
@json_flag
@pass_state
def prepare(state: CliState, pack: str | None, input_file: Path | None, steps_file: Path | None,
            base_url: str | None, url: str | None, goal: str | None, max_steps: int | None, model: str | None,
            browser: BrowserMode, login_wait: int | None) -> None:
    """Look at the site read-only and write a plan: its diff, its evidence bundle and its confirm phrase.

    \b
    Prepare only navigates and reads: it snapshots each page into the bundle, finds every step's element
    and reads the fields' current values. It prints a Terraform-style diff (+ new, ~ changed, - cleared)
    and the phrase that `browserops run` needs before it changes anything.

    \b
    Exit codes (like `terraform plan -detailed-exitcode`): 0 nothing to change, 2 the plan has side
    effects (fills, submits, exports), 1 error.

    \b
    Examples:
      browserops prepare --pack demo_expense --input browserops/packs/builtin/demo_expense/example_input.yaml \\
          --base-url http://127.0.0.1:8765
      browserops prepare --steps my_steps.yaml --url https://example.com/form --json
      browserops prepare --pack my_pack --input in.yaml --profile ~/.browserops-profile --headed
      browserops prepare --goal "file an expense of 12.50 at Paper & Co" --url http://127.0.0.1:8765/expense
    """
    settings = state.loaded(model=model).settings
    flags = BrowserFlags(browser, login_wait)
    explorer = GoalSource(state, goal, url, max_steps, others=bool(pack or steps_file or input_file)) \
        if goal is not None else None
    request: PlanRequest | None = None
    if explorer is None:
        source: Source = source_from_files(state.workspace, pack, steps_file, input_file)
        request = dataclasses.replace(source.request, start_url=start_url(
            source.start, list(source.request.steps), url, base_url or settings.base_url or None))
    progress = state.progress

    async def work() -> PreparedPlan:
        async with tool_context(state, flags) as (ctx, _):
            req = request if explorer is None else await explorer.request(ctx)
            assert req is not None
            return await prepare_plan(ctx, state.workspace, req, progress=progress,
                                      login_wait_s=flags.login_wait_s(state))

    try:
        prepared = run_cancellable(work, keep_loop=settings.browser_reuse)
    except Interrupted as exc:
        _interrupted(state, exc, "prepare stopped; its bundle is marked incomplete and has no plan.")
    plan = prepared.plan
    needs = plan.side_effects.requires_confirm
    # A plan with sensitive values takes them from the input file again at run time (they are not in the plan).
    secret_input = input_file is not None and any(a.sensitive for a in plan.actions)
    command = run_command(_workspace(state), plan.request_id, phrase=prepared.phrase if needs else None,
                          input_file=input_file.resolve() if secret_input and input_file else None,
                          browser_args=flags.mode.cli_args(with_headed=False))
    if state.json_output:
        state.emit_json(prepared_json(prepared, command, with_phrase=True))
    else:
        _print_prepared(prepared, command)
    if plan.has_changes:
        click.get_current_context().exit(2)


def _print_prepared(prepared: PreparedPlan, command: str) -> None:
    plan = prepared.plan
    click.echo(f"Plan {plan.request_id}: {plan.title}")
    click.echo(f"Start: {plan.start_url}")
    if prepared.snapshots:
        click.echo(f"Snapshots: {', '.join(prepared.snapshots)}")
    click.echo("")
    click.echo(render_diff(plan))
    click.echo("")
    if prepared.rehearsed:
        click.echo(f"Rehearsed in a copy of the browser that refuses every request that could change the site: steps "
                   f"{', '.join(str(n) for n in prepared.rehearsed)}.")
    for number, why in sorted(prepared.not_read.items()):
        click.echo(f"Not read: step {number}: {why}.")
    if prepared.unread:
        steps = ", ".join(str(n) for n in prepared.unread)
        click.echo(f"Note: the current values of steps {steps} were not read (marked 'not read' above); run does "
                   "not compare them with anything.")
    if plan.problems:
        click.echo(f"Problems found while rehearsing ({len(plan.problems)}): the run would likely fail or be refused.")
        for problem in plan.problems:
            click.echo(f"  step {problem.step}: {problem.code}: {problem.message}")
    click.echo(f"Bundle: {prepared.bundle}")
    if plan.side_effects.requires_confirm:
        click.echo(f"Confirm phrase: {prepared.phrase}")
        click.echo(f"To run it: {command}")
    elif plan.has_changes:
        click.echo(f"Nothing here needs confirmation (read-only and export steps). To run it: {command}")
    else:
        click.echo(f"No changes to make. To run its read steps anyway: {command}")


# --------------------------------------------------------------------------- run


@click.command("run")
@click.argument("plan_ref", metavar="REQUEST_ID|PLAN")
@click.option("--confirm", "confirm", default=None, metavar="PHRASE",
              help="The confirm phrase prepare printed: without it only read-only and export steps run.")
@click.option("--input", "input_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Input data with the plan's sensitive values (default: a pack plan's own input file).")
@click.option("--no-wait", is_flag=True, help="Fail with BROWSER_LANE_BUSY instead of queueing behind another "
              "run on this workspace.")
@click.option("--trace", "trace", is_flag=True, help="Also record a Playwright trace into the bundle (trace.zip, "
              "typed values masked; open it with `playwright show-trace`).")
@click.option("--review", is_flag=True, help="Show the plan (its diff, side effects, problems) and its confirm phrase "
              "here, then ask for the phrase before running (what an MCP client without elicitation hands over).")
@browser_flags
@json_flag
@pass_state
def run(state: CliState, plan_ref: str, confirm: str | None, input_file: Path | None, no_wait: bool,
        trace: bool, review: bool, browser: BrowserMode, login_wait: int | None) -> None:
    """Execute a prepared plan, one run at a time per workspace, leaving its evidence bundle.

    \b
    Each step's element is found again on the live page and acted on by its number. Without --confirm
    only read-only and export steps run (the others are listed as skipped). With the phrase, the fields
    the diff was computed from are checked first: if the page changed since prepare, nothing runs
    (BROWSER_PLAN_STALE). Every browser-act step gets a screenshot before and after.

    \b
    Exit codes: 0 the run completed, or ended partial (steps skipped for want of --confirm), 1 error (the
    bundle is marked incomplete), 130/143 interrupted by SIGINT/SIGTERM (bundle marked incomplete).

    \b
    Examples:
      browserops run req-20260105-101500-ab12
      browserops run req-20260105-101500-ab12 --confirm "ember-thistle-dial-7bf3"
      browserops run artifacts/browser/2026-01-05/req-20260105-101500-ab12/plan.json --json --no-wait
      browserops run req-20260105-101500-ab12 --confirm "ember-thistle-dial-7bf3" --trace
      browserops run req-20260105-101500-ab12 --review      # read the plan and its phrase here, then type it
    """
    flags = BrowserFlags(browser, login_wait)
    plan, bundle = resolve_plan(state.workspace, plan_ref)
    if review:
        confirm = _review(plan, confirm)
    secret = any(a.sensitive for a in plan.actions)
    if input_file is None and secret and plan.source.kind == "pack" and plan.source.path:
        input_file = Path(plan.source.path)
    inputs: dict[str, Any] | None = None
    digest: str | None = None
    if input_file is not None:
        inputs, digest = read_input(input_file)
    progress = state.progress

    async def work() -> RunResult:
        async with tool_context(state, flags, start=False) as (ctx, start):
            options = RunOptions(confirm=confirm, inputs=inputs, inputs_digest=digest, no_wait=no_wait,
                                 login_wait_s=flags.login_wait_s(state), progress=progress, start_browser=start)
            if trace:
                options.start_browser, options.before_finish = traced(ctx, start, plan.request_id)
            return await run_plan(ctx, state.workspace, plan, bundle, options)

    try:
        result = run_cancellable(work, keep_loop=state.loaded().settings.browser_reuse)
    except Interrupted as exc:
        _interrupted(state, exc, f"the run of {plan.request_id} stopped; its bundle is marked incomplete.")
    if state.json_output:
        state.emit_json(run_json(result))
    else:
        _print_run(result)
        if result.error is not None:
            report_error(result.error, False)
    if result.error is not None:
        click.get_current_context().exit(1)


def _review(plan: BrowserPlan, confirm: str | None) -> str | None:
    """``run --review``: the plan and its confirm phrase on the terminal (stderr, so ``--json`` stays parseable), then
    the phrase typed back. Nothing typed: nothing runs. A plan without side effects needs no phrase."""
    if confirm is not None:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, "--review asks for the phrase itself: leave out --confirm.")

    def say(line: str = "") -> None:
        click.echo(line, err=True)

    say(f"Plan {plan.request_id}: {plan.title}")
    say(f"Start: {plan.start_url}")
    say()
    say(render_diff(plan))
    say()
    for req in plan.requirements:
        say(f"Needs: {req.kind}: {req.detail}")
    for problem in plan.problems:
        say(f"Problem found while rehearsing: step {problem.step}: {problem.code}: {problem.message}")
    if not plan.side_effects.requires_confirm:
        say("Nothing in this plan needs confirmation (read-only and export steps): running it.")
        return None
    phrase = confirm_phrase(plan)
    say(f"Confirm phrase: {phrase}")
    typed = click.prompt("Type the confirm phrase to run exactly these changes (Enter alone runs nothing)",
                         default="", show_default=False, err=True)
    if not typed.strip():
        raise BrowserOpsError(ErrorCode.CONFIRM_REQUIRED, f"No phrase typed, so nothing ran. Run the same command "
                              f"again to review plan {plan.request_id} once more.")
    return str(typed)


def _print_run(result: RunResult) -> None:
    counts: dict[str, int] = {}
    for step in result.steps:
        counts[step.status] = counts.get(step.status, 0) + 1
    tally = ", ".join(f"{n} {status}" for status, n in counts.items()) or "no steps"
    mode = "confirmed" if result.confirmed else "without --confirm: read-only and export steps only"
    click.echo(f"Run {result.request_id} (attempt {result.attempt}, {mode}): {result.status} — {tally}")
    if result.skipped:
        listed = ", ".join(str(n) for n in result.skipped)
        click.echo(f"Skipped {len(result.skipped)} step{'s' if len(result.skipped) != 1 else ''} ({listed}): they "
                   "change the site, or follow a click that did not run. To run them: the same command with "
                   "--confirm and the phrase prepare printed.")
    if result.reference:
        click.echo(f"Reference: {result.reference}")
    elif result.confirmation and result.confirmation.get("messages"):
        click.echo(f"Confirmation: {result.confirmation['messages'][0]}")
    for export in result.exports:
        click.echo(f"Export: {export['path']} ({export.get('size')} bytes, sha256 {str(export.get('sha256'))[:16]}…)")
    click.echo(f"Bundle: {result.bundle}")
    if result.verify is not None:
        if result.verify.ok:
            click.echo(f"Evidence: verify OK ({result.verify.files_checked} files checked)")
        else:
            click.echo(f"Evidence: {result.verify.status} — `browserops evidence show {result.request_id}` tells why")


COMMANDS = [prepare, run]

__all__ = ["COMMANDS"]
