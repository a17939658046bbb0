"""What ``browserops chat`` and ``browserops serve`` share: browser options, the Brain, the engine.

The Brain is made before the browser starts, so a missing model is reported at once
(``BROWSER_LLM_UNAVAILABLE``) without launching Chromium.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import click

from browserops.agent.chat_api import Brain, make_brain
from browserops.agent.chat_engine import ChatEngine
from browserops.browser.session import BrowserSession, SessionOptions
from browserops.cli.context import CliState
from browserops.config import Settings
from browserops.errors import BrowserOpsError, ErrorCode
from browserops.tools.base import ToolContext
from browserops.tools.registry import call_tool

BrainFactory = Callable[[Settings, ToolContext], Brain]


def browser_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The browser-mode flags of the chat commands."""
    for option in reversed([
        click.option("--url", default=None, help="Open this page first (otherwise the browser's current page)."),
        click.option("--profile", type=click.Path(file_okay=False, path_type=Path), default=None,
                     help="Use a persistent profile directory (headed by default, for a manual login)."),
        click.option("--cdp-url", default=None,
                     help="Attach to a browser you already opened with --remote-debugging-port (e.g. "
                          "http://127.0.0.1:9222)."),
        click.option("--headed/--headless", default=None, help="Show the browser window (default: headless, "
                                                               "headed with --profile)."),
        click.option("--session", "session_id", default="default", show_default=True,
                     help="Chat session id; its state is kept in the workspace and resumed."),
    ]):
        f = option(f)
    return f


@asynccontextmanager
async def chat_runtime(state: CliState, *, url: str | None, profile: Path | None, cdp_url: str | None,
                       headed: bool | None, brain_factory: BrainFactory = make_brain) -> AsyncIterator[ChatEngine]:
    settings = state.loaded().settings
    if profile is not None and headed is None:
        headed = True  # a dedicated profile exists to log in by hand, which needs a window
    options = SessionOptions.from_settings(settings, profile_dir=profile, cdp_url=cdp_url, headed=headed)
    session = BrowserSession(options)
    tools = ToolContext(session=session, settings=settings, workspace=state.workspace)
    brain = brain_factory(settings, tools)
    async with session:
        if url:
            result = await call_tool("browser_navigate", tools, {"url": url})
            if result["status"] != "ok":
                raise BrowserOpsError(ErrorCode(result["code"]), result["error"])
        engine = ChatEngine(state.workspace, brain, steps_per_message=settings.chat_steps_per_message)
        try:
            yield engine
        finally:
            await engine.close()
            closer = getattr(brain, "aclose", None)
            if closer is not None:
                await closer()  # finishes the evidence bundles of runs that still wait for the user
