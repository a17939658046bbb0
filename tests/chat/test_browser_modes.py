"""The chat runtime on the browsers a user really has: one they opened themselves (CDP attach) and a
dedicated persistent profile for a manual login. The scripted-plan Brain stands in for the model."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from browserops.browser.launch.discovery import find_chromium, launch_args, running_as_root
from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.chat.api import TurnOutcome
from browserops.cli.chat_runtime import chat_runtime
from browserops.cli.context import CliState
from browserops.cli.options import BrowserMode
from browserops.config import Settings
from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from browserops.tools.runner import ToolRunner
from tests.chat.scripted_brain import ScriptedPlanBrain, demo_plans

SID = "default"


@pytest.fixture
def users_browser(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """A Chromium the user started by hand with a debugging port."""
    args = [find_chromium().path, "--headless=new", "--remote-debugging-port=0",
            f"--user-data-dir={tmp_path / 'own-profile'}", *launch_args(), "about:blank"]
    if running_as_root():
        args.insert(1, "--no-sandbox")
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    endpoint = None
    for _ in range(200):
        line = proc.stderr.readline().decode(errors="replace")
        if match := re.search(r"DevTools listening on ws://([\d.]+:\d+)/", line):
            endpoint = f"http://{match.group(1)}"
            break
    assert endpoint, "Chromium did not print its DevTools address"
    yield proc, endpoint
    proc.kill()
    proc.wait()


def outcome(replies: list[str | TurnOutcome]) -> TurnOutcome:
    [found] = [r for r in replies if isinstance(r, TurnOutcome)]
    return found


async def test_chat_attached_to_the_users_own_browser_over_cdp(
    users_browser: tuple[subprocess.Popen[bytes], str], workspace: Path, demo_site: DemoSite
) -> None:
    demo_site.reset()
    proc, endpoint = users_browser

    def factory(settings: Settings, tools: ToolRunner) -> ScriptedPlanBrain:
        return ScriptedPlanBrain(tools.ctx, demo_plans(demo_site.base_url))

    async with chat_runtime(CliState(workspace=workspace), url=demo_site.base_url + "/",
                            browser=BrowserMode(cdp_url=endpoint), brain_factory=factory) as engine:
        await engine.submit(SID, "/chat")
        assert outcome(await engine.submit(SID, "search for chat-demo")).kind == "final"
    assert demo_site.state.searches == ["chat-demo"]
    # Leaving the chat only detached: the user's browser keeps running and still opens a page for a second
    # attachment (a browser told to close would be shutting down and refuse).
    async with BrowserSession(SessionOptions(mode="cdp", cdp_url=endpoint)) as again:
        await again.page.goto(demo_site.base_url + "/search?q=still-here&nobanner=1")
        assert "still-here" in again.page.url
    assert proc.poll() is None


async def test_chat_on_a_persistent_profile_with_manual_login(workspace: Path, demo_site: DemoSite) -> None:
    demo_site.reset()
    profile = workspace / "profile"
    tools_seen: list[ToolContext] = []

    def factory(settings: Settings, tools: ToolRunner) -> ScriptedPlanBrain:
        tools_seen.append(tools.ctx)
        return ScriptedPlanBrain(tools.ctx, demo_plans(demo_site.base_url))

    # headed=False only because the test machine has no display; the CLI opens a window with --profile.
    async with chat_runtime(CliState(workspace=workspace), url=None, browser=BrowserMode(profile=profile, headed=False),
                            brain_factory=factory) as engine:
        assert tools_seen[0].session.options.mode == "persistent"
        await engine.submit(SID, "/chat")
        assert outcome(await engine.submit(SID, "open my account")).kind == "manual"
        page = tools_seen[0].session.page  # the user logs in by hand in the profile's window
        await page.fill("#username", "bob")
        await page.fill("#password", "demo")
        await page.click("button[type=submit]")
        await page.wait_for_url("**/account")
        assert outcome(await engine.submit(SID, "fertig")).kind == "final"
    assert demo_site.state.logins == ["bob"]
    assert any(profile.iterdir())  # the profile directory holds the browser's data for next time
