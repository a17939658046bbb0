"""``browserops agent "GOAL"``: one agent task, start to end, with one progress line per step."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import click

from browserops.browser.launch.warm import closing_warm_browsers
from browserops.cli.context import CliState, pass_state
from browserops.cli.options import BrowserMode, browser_mode_options, json_flag
from browserops.contract import BrowserOpsError, ErrorCode

if TYPE_CHECKING:  # the command imports lazily to start fast
    from browserops.agent.toolhost import ToolHost
    from browserops.policy import PendingAction


class TtyConfirmer:
    """The y/N prompt for a destructive action (default: no). Only used when stdin is a terminal."""

    interactive = True

    async def confirm(self, pending: PendingAction) -> bool:
        prompt = f"Confirm: {pending.question()}. Do it?"
        return bool(await asyncio.to_thread(click.confirm, prompt, default=False, err=True))


class Progress:
    """One line per step on stderr: ``[3] Typing the query. — browser_overlay_act: ok``."""

    def __init__(self, state: CliState) -> None:
        self.state = state
        self.text = ""

    async def __call__(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "progress":
            self.text = str(data.get("text") or "")
        elif kind == "tool_result":
            outcome = "ok" if data.get("status") == "ok" else f"error {data.get('code')}"
            step = data.get("iteration", "?")
            self.state.progress(f"[{step}] {self.text or '…'} — {data.get('tool')}: {outcome}")
        elif kind == "policy":
            self.state.progress(f"    held for confirmation: {data.get('description')}")
        elif kind == "error" and data.get("fatal"):
            self.state.progress(f"    error {data.get('code')}: {data.get('error')}")


@asynccontextmanager
async def _host(state: CliState, settings: Any, *, use_mcp: bool, browser: BrowserMode) -> AsyncIterator[ToolHost]:
    from browserops.agent.toolhost import InProcessToolHost
    from browserops.browser.launch.session import BrowserSession
    from browserops.tools.context import ToolContext

    if use_mcp:
        from browserops.agent.mcp_host import MCPToolHost

        mcp_host = MCPToolHost.for_cli(state.workspace, mode_args=browser.cli_args(headed_with_profile=True),
                                       overrides=state.overrides)
        async with mcp_host:
            yield mcp_host
        return
    options = browser.session_options(settings, headed_with_profile=True)
    async with BrowserSession(options) as session:
        yield InProcessToolHost(ToolContext(session=session, settings=settings, workspace=state.workspace))


@click.command("agent")
@click.argument("goal")
@click.option("--url", default=None, help="Open this page first.")
@click.option("--max-steps", type=click.IntRange(1, 1000), default=None,
              help="Iteration limit (model turns); default: the max_steps setting (20).")
@click.option("--model", default=None, help="Model id (default: the model setting or BROWSEROPS_MODEL).")
@click.option("--no-vision", is_flag=True, help="Do not send the numbered screenshot to the model.")
@browser_mode_options(profile_help="Use a persistent profile directory (headed by default, to log in by hand).",
                      headed_help="Show the browser window (default: headless, headed with --profile).")
@click.option("--mcp", "use_mcp", is_flag=True,
              help="Run the tools in a `browserops mcp` subprocess over an MCP client session.")
@json_flag
@pass_state
def agent(state: CliState, goal: str, url: str | None, max_steps: int | None, model: str | None, no_vision: bool,
          browser: BrowserMode, use_mcp: bool) -> None:
    """Let the LLM agent do GOAL in the browser, one numbered step at a time.

    \b
    Each step: observe (numbered elements, screenshot), one tool call by the model, the policy gate,
    the action, a wait for the page to settle, banners closed. Destructive actions (pay, delete,
    send, submit…) need your y/N on a terminal and are refused without one. Questions the agent asks
    are read from stdin; passwords and one-time codes are never asked for: you type those into the
    browser yourself (use --profile or --headed). Every run leaves an evidence bundle.
    Exit 0 when the goal was reached; 1 with a BROWSER_* code otherwise.

    \b
    Needs a model: ANTHROPIC_API_KEY (or ANTHROPIC_BASE_URL for a compatible endpoint).

    \b
    Examples:
      browserops agent "find the cheapest stapler" --url http://127.0.0.1:8765/
      browserops agent "download the March statement" --url https://bank.example --profile ~/.bo-profile
      browserops --json agent "search for paper" --url http://127.0.0.1:8765/ --max-steps 8
      BROWSEROPS_MODEL=claude-haiku-4-5 browserops agent "open the expenses page" --mcp
    """
    from browserops.agent.llm import LLMClient
    from browserops.agent.oneshot import run_to_end
    from browserops.agent.run import AgentRun, RunConfig
    from browserops.policy import RefuseConfirmer

    settings = state.loaded(model=model, vision=False if no_vision else None).settings
    llm = LLMClient.from_settings(settings)  # BROWSER_LLM_UNAVAILABLE before any browser starts
    interactive = sys.stdin.isatty()
    progress = Progress(state)

    async def ask(question: str) -> str | None:
        state.progress(f"Question: {question}")
        if interactive:
            answer = await asyncio.to_thread(click.prompt, "Your answer", err=True, default="", show_default=False)
            return str(answer) or None
        line = await asyncio.to_thread(sys.stdin.readline)
        return line.rstrip("\n") or None

    async def manual(message: str) -> bool:
        state.progress(message)
        if not interactive:
            return False
        await asyncio.to_thread(click.prompt, "Press Enter when done", err=True, default="", show_default=False)
        return True

    async def main() -> Any:
        async with llm, _host(state, settings, use_mcp=use_mcp, browser=browser) as host:
            if url:
                opened = await host.call("browser_navigate", {"url": url})
                if opened.get("status") != "ok":
                    raise BrowserOpsError(ErrorCode(opened.get("code", ErrorCode.NAVIGATION_FAILED.value)),
                                          str(opened.get("error")))
            run = AgentRun(host, llm, RunConfig(goal=goal, workspace=state.workspace, settings=settings,
                                                     max_steps=max_steps),
                           emit=progress, confirmer=TtyConfirmer() if interactive else RefuseConfirmer())
            state.progress(f"Agent run {run.request_id}: {settings.model}, at most {run.budget.max_iterations} steps.")
            return await run_to_end(run, ask=ask, manual=manual)

    result = asyncio.run(closing_warm_browsers(main()))
    state.progress(f"Evidence: {result.bundle}")
    if not result.ok:
        raise result.error()
    if state.json_output:
        state.emit_json(result.to_dict())
    else:
        verified = "" if result.pause.verified else " (the page did not confirm it)"
        click.echo(f"Done{verified}: {result.pause.message}")


COMMANDS = [agent]
