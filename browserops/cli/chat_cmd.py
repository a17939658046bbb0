"""``browserops chat``: the chat REPL (docs/design.md §10)."""

from __future__ import annotations

import asyncio
import sys

import click

from browserops.browser.launch.warm import closing_warm_browsers
from browserops.chat.api import check_session_id
from browserops.cli.chat_runtime import browser_options, chat_runtime
from browserops.cli.context import CliState, pass_state
from browserops.cli.options import BrowserMode
from browserops.cli.repl import StdinLines, run_repl
from browserops.cli.speech import MISSING_MESSAGE, Speaker


@click.command("chat")
@browser_options
@click.option("--speak", is_flag=True, help="Speak progress and the agent's answers with espeak-ng "
                                            "(never what you type).")
@pass_state
def chat(state: CliState, url: str | None, browser: BrowserMode,
         session_id: str, speak: bool) -> None:
    """Talk to the browser agent in a REPL.

    \b
    /chat enters chat mode: every line that is not a command goes to the agent, which makes up to
    `chat_steps_per_message` (10) tool steps, then reports and asks whether to continue. /exit (or any
    other command) leaves chat mode. /yes or /no answer a confirmation of a destructive action; /stop
    (or Ctrl+C) stops a running task between steps; /status, /help; /quit ends the REPL.
    After a manual hand-off (login, captcha, 2FA) write "done" (готово, 好了, fertig, …).
    The session is kept in the workspace: run the command again to resume it.

    \b
    Needs a model: set ANTHROPIC_API_KEY (otherwise BROWSER_LLM_UNAVAILABLE).

    \b
    Examples:
      browserops chat --url https://example.com
      browserops chat --profile ~/.browserops-profile          # headed, log in by hand once
      chromium --remote-debugging-port=9222 &  browserops chat --cdp-url http://127.0.0.1:9222
      browserops chat --session shopping --speak
    """
    check_session_id(session_id)
    speaker: Speaker | None = None
    if speak:
        speaker = Speaker.find()
        if speaker is None:
            state.progress(MISSING_MESSAGE)
    interactive = sys.stdin.isatty()

    async def main() -> None:
        try:
            async with chat_runtime(state, url=url, browser=browser) as engine:
                await run_repl(engine, session_id, StdinLines(), click.echo, speaker=speaker,
                               prompt=(lambda p: click.echo(p, nl=False)) if interactive else None,
                               handle_sigint=interactive)
        finally:
            if speaker is not None:
                await speaker.close()

    asyncio.run(closing_warm_browsers(main()))


COMMANDS = [chat]
