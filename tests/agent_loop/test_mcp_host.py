"""MCPToolHost against a real ``browserops mcp`` subprocess over stdio: tools, health, a crash (SIGKILL) and the
restart with its retry rule, and the agent loop running on it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from browserops.agent.mcp_host import MCPToolHost
from browserops.agent.model_api import tool_turn
from browserops.agent.run import AgentRun, RunConfig
from browserops.agent.scripted import ScriptedModel
from browserops.config import Settings
from browserops.contract import SideEffect
from browserops.demo_site import DemoSite
from browserops.listing_rows import listing_items
from browserops.tools.registry import all_tools
from tests.agent_loop.helpers import act
from tests.mcp.helpers import browser_of_server
from tests.procs import wait_gone
from tests.site_requests import requested, reset_requests


def server_pids(workspace: Path) -> set[int]:
    """The ``python -m browserops --workspace WS mcp`` processes for this workspace."""
    out = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"browserops" in args and str(workspace).encode() in args and b"mcp" in args:
            out.add(int(entry.name))
    return out


def kill_server(workspace: Path) -> None:
    """SIGKILL the server (a crash), then make sure its Chromium does not outlive it."""
    browsers = browser_of_server(str(workspace))
    (pid,) = server_pids(workspace)
    os.kill(pid, signal.SIGKILL)
    assert not wait_gone({pid})
    for left in wait_gone(browsers, 15):
        with contextlib.suppress(ProcessLookupError):
            os.kill(left, signal.SIGKILL)


@pytest.fixture
async def host(workspace: Path) -> AsyncIterator[MCPToolHost]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BROWSEROPS_")}
    async with MCPToolHost.for_workspace(workspace, env=env) as mcp_host:
        yield mcp_host
    assert not wait_gone(server_pids(workspace))  # closing the host ends the subprocess


async def test_tools_health_and_calls(host: MCPToolHost, demo_site: DemoSite) -> None:
    specs = {s.name: s for s in host.tools()}
    assert set(specs) == {t.name for t in all_tools()}
    assert specs["browser_overlay_act"].side_effect is SideEffect.BROWSER_ACT
    assert specs["browser_find"].side_effect is SideEffect.READ_ONLY and specs["browser_find"].args is None
    assert await host.health()
    nav = await host.call("browser_navigate", {"url": demo_site.base_url + "/search"})
    assert nav["status"] == "ok" and nav["data"]["title"] == "Search results"
    bad = await host.call("browser_overlay_act", {"index": "seven"})
    assert bad["code"] == "BROWSER_INVALID_ARGS"  # the server validated it, as the catalogue does


async def test_a_killed_server_is_restarted_and_a_read_only_call_is_retried(
    host: MCPToolHost, workspace: Path, demo_site: DemoSite
) -> None:
    await host.call("browser_navigate", {"url": demo_site.base_url + "/"})
    kill_server(workspace)
    assert not await host.health()
    again = await host.call("browser_navigate", {"url": demo_site.base_url + "/search?q=restart"})
    assert again["status"] == "ok" and again["data"]["mcp_server_restarted"] is True
    assert host.restarts == 1 and len(server_pids(workspace)) == 1 and await host.health()
    assert demo_site.state.searches[-1:] == ["restart"]

    # Dying while a read-only call runs (a navigation to the slow page, retry-safe: the server's browser has
    # asked the site for the page, which answers after seconds): restarted and the call retried once.
    slow = demo_site.base_url + "/slow?ms=2500&nobanner=1"
    await reset_requests(demo_site)
    opening = asyncio.create_task(host.call("browser_navigate", {"url": slow}))
    await requested(demo_site, "/slow")
    kill_server(workspace)
    result = await asyncio.wait_for(opening, 60)
    assert result["status"] == "ok" and result["data"]["retried_after_restart"] is True
    assert result["data"]["url"] == slow
    assert host.restarts == 2


async def test_an_acting_call_is_never_retried_when_it_may_have_run(
    host: MCPToolHost, workspace: Path, demo_site: DemoSite
) -> None:
    # Dead before the call: the health check notices, the server restarts, the call is sent once.
    kill_server(workspace)
    fresh = await host.call("browser_overlay_act", {"index": 1})
    assert fresh["data"]["mcp_server_restarted"] is True
    assert fresh["code"] == "BROWSER_STALE_INDEX"  # it ran on the fresh server, which had no listing yet

    # Dying while an acting call is in flight: not retried; the caller is told it may have acted.
    await host.call("browser_navigate", {"url": demo_site.base_url + "/"})
    await host.call("browser_list_interactives", {})
    found = await host.call("browser_find", {"text": "Slow page", "role": "link"})
    number = listing_items(found["data"], "matches")[0]["n"]
    starts = host.starts
    await reset_requests(demo_site)
    clicking = asyncio.create_task(host.call("browser_overlay_act", {"index": number}))
    await requested(demo_site, "/slow")  # the slow page takes seconds to answer: the click is still running
    kill_server(workspace)
    crashed = await asyncio.wait_for(clicking, 60)
    assert crashed["code"] == "BROWSER_CRASHED" and "may or may not have acted" in crashed["error"]
    assert host.starts == starts  # nothing was restarted or re-sent
    assert (await host.call("browser_extract", {}))["data"]["mcp_server_restarted"] is True


async def test_the_agent_loop_runs_on_the_mcp_host(host: MCPToolHost, workspace: Path, demo_site: DemoSite) -> None:
    demo_site.reset()
    await host.call("browser_navigate", {"url": demo_site.base_url + "/"})
    model = ScriptedModel([act("searchbox", "Search", "type", text="staples", submit=True),
                           tool_turn("assistant_done", {"reason": "The results list Staples, box of 5000."})])
    run = AgentRun(host, model, RunConfig(goal="find staples", workspace=workspace, settings=Settings()))
    pause = await run.advance()
    assert pause.kind == "done" and pause.verified
    assert demo_site.state.searches == ["staples"]
    first = model.requests[0].messages[-1]["content"]
    assert any(b.get("type") == "image" for b in first)  # the subprocess's screenshot reached the model


async def test_a_hung_server_fails_the_health_check_and_is_replaced(workspace: Path, demo_site: DemoSite) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BROWSEROPS_")}
    async with MCPToolHost.for_workspace(workspace, env=env, health_timeout_s=2.0) as host:
        await host.call("browser_navigate", {"url": demo_site.base_url + "/"})
        browsers = browser_of_server(str(workspace))
        (pid,) = server_pids(workspace)
        os.kill(pid, signal.SIGSTOP)  # alive but answering nothing
        try:
            assert not await host.health()
            result = await asyncio.wait_for(host.call("browser_overlay_act", {"index": 1}), 60)
            assert result["data"]["mcp_server_restarted"] is True and host.restarts == 1
            assert pid not in server_pids(workspace) and len(server_pids(workspace)) == 1
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
            for left in wait_gone(browsers, 15):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(left, signal.SIGKILL)
    assert not wait_gone(server_pids(workspace))
