"""``browserops record``: do the task by hand in a browser window; get a step file and its input data."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import click
import yaml

from browserops.browser.launch.session import BrowserSession
from browserops.browser.page.user_watch import UserWatch
from browserops.cli.context import CliState, pass_state
from browserops.cli.options import BrowserMode, browser_mode_options, json_flag
from browserops.cli.plan_support import run_cancellable
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence.layout import atomic_write
from browserops.packs.scaffold import values_file
from browserops.plan.interpret.guard import PREPARE_CLASSES, GuardedTools
from browserops.plan.record.recorder import Recorder, Recording
from browserops.tools.context import ToolContext

POLL_S = 0.5  # how often a quiet recording checks whether the window was closed


def write_recording(recording: Recording, out: Path, input_out: Path) -> None:
    """The step file (valueRef keys only) and the input file (values; sensitive keys empty, to fill in)."""
    steps = recording.step_file()
    head = ("# Recorded by `browserops record`. Review the targets, then:\n"
            f"#   browserops prepare --steps {out.name} --input {input_out.name} --base-url URL\n"
            f"#   browserops pack new NAME --from-steps {out.name}\n")
    atomic_write(out, (head + yaml.safe_dump(steps, allow_unicode=True, sort_keys=False)).encode("utf-8"))
    lines = ["# Input values recorded by `browserops record`."]
    if recording.sensitive:
        lines.append("# Sensitive keys were recorded without a value: fill them in (or pass them another way) "
                     "before prepare/run.")
    body = yaml.safe_dump(recording.inputs, allow_unicode=True, sort_keys=False) if recording.inputs else "{}\n"
    atomic_write(input_out, ("\n".join(lines) + "\n" + body).encode("utf-8"))



async def record_events(recorder: Recorder, next_event: Callable[[], Awaitable[dict[str, Any] | None]],
                        on_ready: Callable[[], None] | None = None) -> Recording:
    """Feed events until ``next_event`` returns None (the window closed, or the recording was stopped).
    ``on_ready``: called once the page's first listing is taken (the person may start then)."""
    await recorder.begin()
    if on_ready is not None:
        on_ready()
    while True:
        event = await next_event()
        if event is None:
            return recorder.finish()
        await recorder.handle(event)

async def record_session(session: BrowserSession, ctx: ToolContext, url: str, progress: Any,
                         stop: asyncio.Event | None = None, recorders: list[Recorder] | None = None) -> Recording:
    """Open ``url`` and record until the window closes, ``stop`` is set, or the task is cancelled (Ctrl+C).
    ``recorders`` receives the recorder (a caller watching its progress)."""
    watch = UserWatch(session)
    await watch.start()
    tools = GuardedTools(ctx, PREPARE_CLASSES, who="record")
    await tools.need("browser_navigate", {"url": url})
    recorder = Recorder(tools, watch, url, progress)
    if recorders is not None:
        recorders.append(recorder)

    async def next_event() -> dict[str, Any] | None:
        while not watch.closed() and not (stop is not None and stop.is_set()):
            with contextlib.suppress(TimeoutError):
                return await asyncio.wait_for(watch.events.get(), POLL_S)
        if not watch.events.empty():  # what happened just before the end still counts
            return watch.events.get_nowait()
        return None

    def ready() -> None:
        progress("Recording: do the task in the browser window. Ctrl+C or close the window to finish.")

    try:
        return await record_events(recorder, next_event, ready)
    except asyncio.CancelledError:
        return recorder.finish()
    finally:
        watch.stop()


@click.command("record")
@click.option("--url", required=True, metavar="URL", help="Where to start (http or https).")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path), default=Path("steps.yaml"),
              show_default=True, help="The step file to write.")
@click.option("--input-out", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="The input file for the recorded values (default: <out>.input.yaml).")
@browser_mode_options(headed_help="Show the browser window (default: headed — you do the task in it).")
@json_flag
@pass_state
def record(state: CliState, url: str, out: Path, input_out: Path | None, browser: BrowserMode) -> None:
    """Record a task done by hand as a step file: one step per field you change, your submit and downloads.

    \b
    A browser window opens at --url. Do the task in it as you always would (fill the form, submit, download),
    then press Ctrl+C here or close the window: the recording ends and two files are written:
      --out        the steps: each target by ARIA role + accessible name (never CSS or scripts),
                   the submit with what the page showed after it, downloads as export steps
      --input-out  the values you typed, by key (passwords, one-time codes, card numbers: key only, no value)
    browserops only watches (its own element layer: every frame, every open shadow root); it never types,
    clicks or submits anything itself. Review the step file, then turn it into a pack or prepare it directly.

    \b
    Examples:
      # record filling an expense on the demo site (browserops demo-site --port 8765)
      browserops record --url http://127.0.0.1:8765/expense --out expense.yaml
      # a site behind a login: log in once in the window, later recordings and runs reuse the profile
      browserops record --url https://expenses.example.com/new --profile ./profile --out expense.yaml
      # then: a pack with a typed Input, or a plan straight from the file
      browserops pack new my_expense --from-steps expense.yaml
      browserops prepare --steps expense.yaml --input expense.input.yaml
    """
    if not url.lower().startswith(("http://", "https://")):
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"--url must be an http(s) URL, not {url[:80]!r}.")
    input_out = input_out or values_file(out)
    settings = state.loaded().settings
    mode = BrowserMode(profile=browser.profile, cdp_url=browser.cdp_url, ws_endpoint=browser.ws_endpoint,
                       headed=True if browser.headed is None else browser.headed)

    async def work() -> Recording:
        async with BrowserSession(mode.session_options(settings)) as session:
            ctx = ToolContext(session=session, settings=settings, workspace=state.workspace)
            return await record_session(session, ctx, url, state.progress)

    recording = run_cancellable(work, keep_loop=settings.browser_reuse)
    write_recording(recording, out, input_out)
    if state.json_output:
        state.emit_json({"status": "ok", "steps": str(out), "input": str(input_out),
                         "stepCount": len(recording.steps), "sensitive": recording.sensitive})
        return
    click.echo(f"Recorded {len(recording.steps)} steps into {out} (values in {input_out}).")
    if recording.sensitive:
        click.echo(f"Sensitive, recorded without a value: {', '.join(recording.sensitive)}.")
    click.echo(f"Next: browserops pack new NAME --from-steps {out}   or   browserops prepare --steps {out} "
               f"--input {input_out} --base-url URL")


COMMANDS = [record]
