"""What ``browserops chat`` and ``browserops serve`` share: browser options, the Brain, the engine.

The Brain is made before the browser starts, so a missing model is reported at once
(``BROWSER_LLM_UNAVAILABLE``) without launching Chromium. One runner with the chat's profile serves the whole
chat: the first ``--url`` and every tool call the Brain makes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import click

from browserops.browser.launch.session import BrowserSession
from browserops.chat.api import Brain
from browserops.chat.brain import make_brain
from browserops.chat.engine import ChatEngine
from browserops.cli.context import CliState
from browserops.cli.options import BrowserMode, browser_mode_options
from browserops.config import Settings
from browserops.privacy import use_workspace
from browserops.tools.context import ToolContext
from browserops.tools.runner import CHAT, ToolRunner

BrainFactory = Callable[[Settings, ToolRunner], Brain]


def browser_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """The browser-mode flags of the chat commands."""
    for option in reversed([
        click.option("--url", default=None, help="Open this page first (otherwise the browser's current page)."),
        browser_mode_options(profile_help="Use a persistent profile directory (headed by default, for a manual "
                                          "login).",
                             headed_help="Show the browser window (default: headless, headed with --profile)."),
        click.option("--session", "session_id", default="default", show_default=True,
                     help="Chat session id; its state is kept in the workspace and resumed."),
    ]):
        f = option(f)
    return f


@asynccontextmanager
async def chat_runtime(state: CliState, *, url: str | None, browser: BrowserMode,
                       brain_factory: BrainFactory = make_brain) -> AsyncIterator[ChatEngine]:
    settings = state.loaded().settings
    use_workspace(state.workspace)  # also when used without the CLI group (which says so too): digests keyed here
    options = browser.session_options(settings, headed_with_profile=True)
    session = BrowserSession(options)
    tools = ToolRunner(ToolContext(session=session, settings=settings, workspace=state.workspace), CHAT)
    brain = brain_factory(settings, tools)
    async with session:
        if url:
            result = await tools.call("browser_navigate", {"url": url})
            if result.failed:
                raise result.raised()
        engine = ChatEngine(state.workspace, brain, steps_per_message=settings.chat_steps_per_message)
        try:
            yield engine
        finally:
            await engine.close()
            closer = getattr(brain, "aclose", None)
            if closer is not None:
                await closer()  # finishes the evidence bundles of runs that still wait for the user
