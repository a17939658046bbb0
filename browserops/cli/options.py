"""Options shared by several commands."""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import click

from browserops.browser.launch.options import SessionOptions  # not launch.session: that imports Playwright
from browserops.cli.context import CliState
from browserops.config import Settings

F = TypeVar("F", bound=Callable[..., Any])


def _set_json(ctx: click.Context, _param: click.Parameter, value: bool) -> bool:
    # `browserops evidence list --json` means the same as `browserops --json evidence list`; setting it on
    # the shared state also makes errors come out as JSON.
    state = ctx.find_object(CliState)
    if value and state is not None:
        state.json_output = True
    return value


def json_flag(func: F) -> F:
    """A command-level ``--json`` (the group-level one works too)."""
    return click.option("--json", "json_flag", is_flag=True, expose_value=False, is_eager=True,
                        callback=_set_json, help="Print machine-readable JSON on stdout.")(func)


@dataclass(frozen=True)
class BrowserMode:
    """The browser-mode flags every browser command takes, as one value."""

    profile: Path | None = None
    cdp_url: str | None = None
    ws_endpoint: str | None = None
    headed: bool | None = None

    def resolved_headed(self, *, headed_with_profile: bool) -> bool | None:
        # A dedicated profile usually exists to log in by hand, which needs a window; interactive commands
        # (chat, agent) therefore open it headed unless told otherwise.
        if self.headed is None and self.profile is not None and headed_with_profile:
            return True
        return self.headed

    def session_options(self, settings: Settings, *, headed_with_profile: bool = False) -> SessionOptions:
        return SessionOptions.from_settings(
            settings, profile_dir=self.profile, cdp_url=self.cdp_url, ws_endpoint=self.ws_endpoint,
            headed=self.resolved_headed(headed_with_profile=headed_with_profile),
        )

    def cli_args(self, *, headed_with_profile: bool = False, with_headed: bool = True) -> list[str]:
        """The same mode as flags, for a subprocess or a command printed for the user to run later."""
        args: list[str] = []
        if self.profile is not None:
            args += ["--profile", str(self.profile)]
        if self.cdp_url:
            args += ["--cdp-url", self.cdp_url]
        if self.ws_endpoint:
            args += ["--ws-endpoint", self.ws_endpoint]
        headed = self.resolved_headed(headed_with_profile=headed_with_profile)
        if with_headed and headed is not None:
            args.append("--headed" if headed else "--headless")
        return args


def browser_mode_options(*, headed_help: str = "Show the browser window (default: the headless setting).",
                         profile_help: str = "Use a persistent profile directory (log in there once with --headed).",
                         ) -> Callable[[F], F]:
    """Add --profile / --cdp-url / --ws-endpoint / --headed/--headless; the command gets ``browser: BrowserMode``."""

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args: Any, profile: Path | None, cdp_url: str | None, ws_endpoint: str | None,
                    headed: bool | None, **kwargs: Any) -> Any:
            mode = BrowserMode(profile=profile, cdp_url=cdp_url, ws_endpoint=ws_endpoint, headed=headed)
            return func(*args, browser=mode, **kwargs)

        for option in reversed([
            click.option("--profile", type=click.Path(file_okay=False, path_type=Path), default=None,
                         metavar="DIR", help=profile_help),
            click.option("--cdp-url", default=None, metavar="URL", help="Attach to a Chrome/Chromium you started "
                         "with --remote-debugging-port (e.g. http://127.0.0.1:9222)."),
            click.option("--ws-endpoint", default=None, metavar="URL",
                         help="Connect to a Playwright server (`playwright run-server`), ws://..."),
            click.option("--headed/--headless", default=None, help=headed_help),
        ]):
            wrapper = option(wrapper)
        return wrapper  # type: ignore[return-value]

    return decorate
