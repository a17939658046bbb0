"""Test-only entry point: the REPL or the server in their own process, with the scripted-plan Brain on a demo
site, so tests can drive them through a real pseudo-terminal and real signals.

    python -m tests.chat.frontdoor_main repl WORKSPACE
    python -m tests.chat.frontdoor_main serve WORKSPACE     # prints "URL <url> OWNER <token>" when ready
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import click

from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.chat.engine import ChatEngine
from browserops.cli.repl import StdinLines, run_repl
from browserops.config import Settings
from browserops.demo_site import DemoSite
from browserops.server.chat_server import ChatServer
from browserops.tools.context import ToolContext
from tests.chat.scripted_brain import ScriptedPlanBrain, demo_plans


async def main(mode: str, workspace: Path) -> None:
    with DemoSite() as site:
        async with BrowserSession(SessionOptions()) as session:
            ctx = ToolContext(session=session, settings=Settings(), workspace=workspace)
            engine = ChatEngine(workspace, ScriptedPlanBrain(ctx, demo_plans(site.base_url)))
            if mode == "repl":
                await run_repl(engine, "default", StdinLines(), click.echo,
                               prompt=lambda p: click.echo(p, nl=False), handle_sigint=True)
            else:
                server = ChatServer(engine, port=0, handle_signals=True)
                await server.start()
                click.echo(f"URL {server.url} OWNER {server.tokens.owner}")
                await server.wait_closed()
            await engine.close()
    click.echo("BYE")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], Path(sys.argv[2])))
