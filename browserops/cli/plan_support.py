"""What ``prepare`` and ``run`` share in the CLI: browser flags, plan sources, the start URL, the browser
session and signal handling (SIGINT/SIGTERM cancel the work, so the bundle is finished ``incomplete``)."""

from __future__ import annotations

import asyncio
import signal
import urllib.parse
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import click

from browserops.browser.launch.session import BrowserSession
from browserops.cli.context import CliState
from browserops.cli.options import BrowserMode, browser_mode_options
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.packs import get_pack, read_input_file
from browserops.plan.model import PlanSource
from browserops.plan.model.loader import load_steps
from browserops.plan.prepare.prepare import PlanRequest
from browserops.plan.steps import Action, Step
from browserops.tools.context import ToolContext

T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])


def browser_flags(func: F) -> F:
    """Browser-mode flags of prepare and run (the shared ones, plus --login-wait)."""
    func = click.option("--login-wait", type=click.IntRange(0, 3600), default=None, metavar="SECONDS",
                        help="Headed only: on a login page, wait this long for you to log in in the window "
                             "(default: setting login_wait_s, 300). Headless never waits.")(func)
    return browser_mode_options(profile_help="Use a persistent browser profile (log in there once with --headed).",
                                headed_help="Show the browser window (default: headless).")(func)


@dataclass
class BrowserFlags:
    mode: BrowserMode
    login_wait: int | None

    def login_wait_s(self, state: CliState) -> float:
        settings = state.loaded().settings
        headless = settings.headless if self.mode.headed is None else not self.mode.headed
        if headless:
            return 0.0
        return float(settings.login_wait_s if self.login_wait is None else self.login_wait)

    def run_hint(self) -> str:
        """The flags a later `run` needs to see the same logged-in site."""
        return "".join(f" {_shell(arg)}" for arg in self.mode.cli_args(with_headed=False))


def _shell(text: str) -> str:
    safe = all(ch.isalnum() or ch in "-_./:@=~+" for ch in text)
    return text if safe and text else "'" + text.replace("'", "'\\''") + "'"


@asynccontextmanager
async def tool_context(state: CliState, flags: BrowserFlags, *, start: bool = True) -> AsyncIterator[
        tuple[ToolContext, Callable[[], Awaitable[None]]]]:
    """A ToolContext over a new browser session, and the function that starts it (called by the caller when
    ``start`` is False, e.g. once the lane is taken). The session is closed on the way out."""
    settings = state.loaded().settings
    options = flags.mode.session_options(settings)
    session = BrowserSession(options)
    started = False

    async def start_session() -> None:
        nonlocal started
        if not started:
            await session.start()
            started = True

    ctx = ToolContext(session=session, settings=settings, workspace=state.workspace)
    try:
        if start:
            await start_session()
        yield ctx, start_session
    finally:
        if started:
            await asyncio.shield(session.close())


class Interrupted(Exception):
    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum

    @property
    def exit_code(self) -> int:
        return 128 + self.signum


def run_cancellable(factory: Callable[[], Awaitable[T]]) -> T:
    """asyncio.run with SIGINT/SIGTERM turned into cancellation of the work (so `finally` blocks and the
    evidence writer close cleanly), reported as :class:`Interrupted`."""

    async def main() -> T:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        caught: list[int] = []

        def on_signal(signum: int) -> None:
            if not caught:
                caught.append(signum)
                task.cancel()

        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, on_signal, signum)
        try:
            return await factory()
        except asyncio.CancelledError:
            if caught:
                raise Interrupted(caught[0]) from None
            raise
        finally:
            for signum in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(signum)

    return asyncio.run(main())


# --------------------------------------------------------------------------- plan sources


def read_input(path: Path) -> tuple[dict[str, Any], str]:
    """A YAML/JSON input file as a mapping, and the SHA-256 of its bytes."""
    data, digest = read_input_file(path)
    if not isinstance(data, dict):
        raise BrowserOpsError(ErrorCode.INPUT_INVALID, f"{path}: input must be a mapping of keys to values.")
    return data, digest


def _absolute_uploads(steps: list[Step], folder: Path) -> list[Step]:
    """Relative upload paths in a step file mean: next to the step file."""
    out = []
    for step in steps:
        if step.action is Action.UPLOAD and step.value is not None and not isinstance(step.value, bool):
            files = [step.value] if isinstance(step.value, str) else list(step.value)
            fixed = [str(p if Path(p).expanduser().is_absolute() else folder / p) for p in files]
            step = step.model_copy(update={"value": fixed[0] if isinstance(step.value, str) else fixed})
        out.append(step)
    return out


@dataclass
class Source:
    title: str
    start: str | None
    request: PlanRequest


def load_source(state: CliState, pack: str | None, steps_file: Path | None, input_file: Path | None) -> Source:
    if (pack is None) == (steps_file is None):
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, "Give exactly one plan source: --pack NAME --input FILE, or "
                              "--steps FILE.")
    if pack is not None:
        if input_file is None:
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"--pack {pack} needs --input FILE (its data). "
                                  f"`browserops pack show {pack}` shows an example input.")
        the_pack = get_pack(state.workspace, pack)
        inp = the_pack.load_input(input_file)
        step_file = the_pack.build(inp)
        source = PlanSource(kind="pack", name=the_pack.name, path=str(input_file.resolve()), input_digest=inp.digest)
        request = PlanRequest(title=step_file.title, start_url="", steps=step_file.steps, source=source,
                              requirements=the_pack.requirements, inputs=inp.data.model_dump(mode="json"))
        return Source(step_file.title, step_file.start_url, request)
    assert steps_file is not None
    step_file = load_steps(steps_file)
    inputs: dict[str, Any] | None = None
    digest: str | None = None
    if input_file is not None:
        inputs, digest = read_input(input_file)
    source = PlanSource(kind="steps", name=step_file.title, path=str(steps_file.resolve()), input_digest=digest)
    steps = _absolute_uploads(list(step_file.steps), steps_file.resolve().parent)
    request = PlanRequest(title=step_file.title, start_url="", steps=steps, source=source, inputs=inputs)
    return Source(step_file.title, step_file.start_url, request)


def start_url(declared: str | None, steps: list[Step], url: str | None, base_url: str | None) -> str:
    """The absolute start URL: --url, else the source's start URL (or first navigation) against --base-url."""
    if url:
        if not _absolute(url):
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"--url {url!r} must be an absolute http(s) URL.")
        return url
    declared = declared or next((s.url for s in steps if s.action is Action.NAVIGATE and s.url), None)
    if declared is None:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, "The plan names no start URL: give --url URL.")
    if _absolute(declared):
        return declared
    if not base_url:
        raise BrowserOpsError(
            ErrorCode.INVALID_ARGS,
            f"The start URL {declared} is a path: give the site with --base-url http://HOST:PORT (or set base_url in "
            "browserops.toml), or a full --url.",
        )
    if not _absolute(base_url):
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"--base-url {base_url!r} must be an absolute http(s) URL.")
    return urllib.parse.urljoin(base_url, declared)


def _absolute(url: str) -> bool:
    parts = urllib.parse.urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.netloc)
