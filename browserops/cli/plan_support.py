"""What ``prepare`` and ``run`` share in the CLI: browser flags, the browser session and signal handling
(SIGINT/SIGTERM cancel the work, so the bundle is finished ``incomplete``). Plan sources and the start URL are
shared with the MCP door (:mod:`browserops.twophase`)."""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import signal
import threading
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

import click

from browserops.browser.launch.session import BrowserSession
from browserops.browser.launch.warm import close_warm_browsers, closing_warm_browsers
from browserops.cli.context import CliState
from browserops.cli.options import BrowserMode, browser_mode_options
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


_LOOPS = threading.local()


def _kept_runner() -> asyncio.Runner:
    """This thread's event loop kept between commands, with its warm browsers (closed when the process exits)."""
    runner: asyncio.Runner | None = getattr(_LOOPS, "runner", None)
    if runner is None:
        runner = _LOOPS.runner = asyncio.Runner()

        def close() -> None:
            # Bounded: a driver that stopped answering must not keep the process from exiting (its children end
            # with it: the driver when its pipe closes, Chromium when the driver goes).
            with contextlib.suppress(Exception):
                runner.run(asyncio.wait_for(close_warm_browsers(), 10))
            with contextlib.suppress(Exception):
                runner.close()

        atexit.register(close)
    return runner


def run_cancellable(factory: Callable[[], Awaitable[T]], *, keep_loop: bool = False) -> T:
    """asyncio.run with SIGINT/SIGTERM turned into cancellation of the work (so `finally` blocks and the
    evidence writer close cleanly), reported as :class:`Interrupted`.

    ``keep_loop`` (setting ``browser_reuse``): the loop, and the browser its sessions shared, outlive the command
    for the next command this program runs in-process on the same thread (a program calling the CLI many times,
    the test suite); a command run as its own process ends with its loop either way.

    Signals reach a process's main thread only, and only there may handlers be set: a command a program runs on
    another thread (the CLI called in-process) sets none and leaves the program's own signal handling as it is."""
    signals = (signal.SIGINT, signal.SIGTERM) if threading.current_thread() is threading.main_thread() else ()

    async def main() -> T:
        loop = asyncio.get_running_loop()
        task = asyncio.current_task()
        assert task is not None
        caught: list[int] = []

        def on_signal(signum: int) -> None:
            if not caught:
                caught.append(signum)
                task.cancel()

        for signum in signals:
            loop.add_signal_handler(signum, on_signal, signum)
        try:
            return await factory()
        except asyncio.CancelledError:
            if caught:
                raise Interrupted(caught[0]) from None
            raise
        finally:
            for signum in signals:
                loop.remove_signal_handler(signum)

    if keep_loop:
        return _kept_runner().run(main())
    return asyncio.run(closing_warm_browsers(main()))
