"""browserops on browsers it did not start: a Playwright server (``--ws-endpoint``) and a Chromium with a
DevTools port (``--cdp-url``). The two-phase job and the MCP server run through each; losing the remote browser
mid-run leaves an incomplete bundle and a BROWSER_CRASHED error that names the endpoint."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import urllib.request
from pathlib import Path

import orjson
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from browserops.browser.launch.session import BrowserSession
from browserops.demo_site import DemoSite
from browserops.evidence import verify_bundle
from tests.mcp.helpers import browser_of_server, call, item_named, listed_items
from tests.plan_e2e.helpers import EXPENSE_INPUT, ROOT, browserops_cmd, bundle_info, cli_json, subprocess_env
from tests.plan_e2e.test_lane_processes import _prepare, _slow_steps
from tests.remote.conftest import RemoteBrowser


def _two_phase(workspace: Path, demo_site: DemoSite, *mode: str) -> dict[str, object]:
    """prepare → run --confirm → evidence verify, all through the given browser-mode flags."""
    demo_site.reset()
    code, prepared, err = cli_json(workspace, "prepare", "--pack", "demo_expense", "--input", str(EXPENSE_INPUT),
                                   "--base-url", demo_site.base_url, *mode)
    assert code == 2, (prepared, err)
    rid, phrase = prepared["requestId"], prepared["confirmPhrase"]
    code, ran, err = cli_json(workspace, "run", rid, "--confirm", phrase, *mode)
    assert code == 0 and ran["runStatus"] == "complete", (ran, err)
    assert ran["reference"] and len(demo_site.state.submissions) == 1  # the remote browser filed the form
    code, verified, err = cli_json(workspace, "evidence", "verify", rid)
    assert code == 0 and verified["status"] == "ok", (verified, err)
    run = bundle_info(workspace, rid)["attempts"][-1]
    assert run["phase"] == "run" and run["lane"] == {"backend": "file", "token": 1}
    return ran


def test_two_phase_job_through_a_playwright_server(playwright_server: RemoteBrowser, workspace: Path,
                                                   demo_site: DemoSite) -> None:
    _two_phase(workspace, demo_site, "--ws-endpoint", playwright_server.endpoint)
    assert playwright_server.proc.poll() is None  # browserops only disconnects from a server it did not start


def test_two_phase_job_through_a_cdp_endpoint(cdp_browser: RemoteBrowser, workspace: Path,
                                              demo_site: DemoSite) -> None:
    _two_phase(workspace, demo_site, "--cdp-url", cdp_browser.endpoint)
    assert cdp_browser.proc.poll() is None


def _mcp_params(workspace: Path, *mode: str) -> StdioServerParameters:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BROWSEROPS_")}
    return StdioServerParameters(command=sys.executable,
                                 args=["-m", "browserops", "--workspace", str(workspace), "mcp", *mode], env=env)


async def _mcp_search(workspace: Path, demo_site: DemoSite, *mode: str) -> None:
    demo_site.reset()
    async with Client(_mcp_params(workspace, *mode)) as client:
        nav = await call(client, "browser_navigate", url=demo_site.base_url + "/search?nobanner=1")
        assert nav["status"] == "ok", nav
        listing = await call(client, "browser_list_interactives")
        box = item_named(listed_items(listing["data"]), "Search", role="searchbox")
        typed = await call(client, "browser_overlay_act", index=box["n"], action="type", text="remote-pen",
                           submit=True)
        assert typed["status"] == "ok", typed
        assert not browser_of_server(str(workspace))  # the MCP server started no Chromium of its own
    assert demo_site.state.searches == ["remote-pen"]


async def test_mcp_server_through_a_playwright_server(playwright_server: RemoteBrowser, workspace: Path,
                                                      demo_site: DemoSite) -> None:
    await _mcp_search(workspace, demo_site, "--ws-endpoint", playwright_server.endpoint)


async def test_mcp_server_through_a_cdp_endpoint(cdp_browser: RemoteBrowser, workspace: Path,
                                                 demo_site: DemoSite) -> None:
    await _mcp_search(workspace, demo_site, "--cdp-url", cdp_browser.endpoint)
    tabs = await asyncio.to_thread(_json, cdp_browser.endpoint + "/json/list")
    # Detaching left the user's browser and the tab browserops used in it.
    assert any(t.get("url", "").startswith(demo_site.base_url + "/search") for t in tabs), tabs


def _json(url: str) -> list[dict[str, str]]:
    with urllib.request.urlopen(url, timeout=10) as response:
        data: list[dict[str, str]] = json.loads(response.read())
    return data


async def test_losing_the_playwright_server_mid_run_names_it(
        playwright_server: RemoteBrowser, session: BrowserSession, workspace: Path, demo_site: DemoSite) -> None:
    # Step 2 waits 30 s for a text that never comes: the run is surely in the middle when the server dies.
    prepared = await _prepare(session, workspace, demo_site.base_url, _slow_steps("Never shown", 30_000))
    proc = await asyncio.create_subprocess_exec(
        *browserops_cmd(workspace, "--json", "run", prepared.plan.request_id, "--confirm", prepared.phrase,
                        "--ws-endpoint", playwright_server.endpoint),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=ROOT, env=subprocess_env())
    assert proc.stderr is not None and proc.stdout is not None
    progress: list[str] = []
    while not any(line.startswith("[1/2]") for line in progress):  # step 1 done: step 2 is waiting
        line = (await asyncio.wait_for(proc.stderr.readline(), 60)).decode()
        assert line, f"the run ended early: {progress}"
        progress.append(line)
    playwright_server.kill()
    out, _ = await asyncio.wait_for(proc.communicate(), 60)
    assert proc.returncode == 1
    result = orjson.loads(out)
    assert result["code"] == "BROWSER_CRASHED", result
    assert playwright_server.endpoint in result["error"]
    assert result["details"]["run"]["runStatus"] == "incomplete"
    run = bundle_info(workspace, prepared.plan.request_id)["attempts"][-1]
    assert run["status"] == "incomplete" and "BROWSER_CRASHED" in run["reason"]
    assert playwright_server.endpoint in run["reason"]
    report = verify_bundle(prepared.bundle)
    assert report.ok is False  # an incomplete run never verifies as a whole one
