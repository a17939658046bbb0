"""The MCP server in process, with a real client session: tools, schemas, annotations, calls, serialisation,
crash recovery."""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from mcp.client import Client

from browserops.browser.launch.session import SessionOptions
from browserops.config import Settings
from browserops.contract import SideEffect
from browserops.demo_site import DemoSite
from browserops.mcp_server import BrowserOpsMCP, build_server
from browserops.tools.context import ToolContext
from browserops.tools.registry import all_tools
from tests.calls import call_tool
from tests.mcp.helpers import FRONT_DOOR_TOOLS, call, kill_browser_with_marker, listed_items
from tests.site_requests import requested, reset_requests

MARKER = f"--browserops-test-marker={uuid.uuid4().hex}"


@pytest.fixture(scope="module")
async def app(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[BrowserOpsMCP]:
    workspace = tmp_path_factory.mktemp("mcp-ws")
    settings = Settings()
    # The marker lets the crash test find and kill exactly this server's browser.
    options = SessionOptions.from_settings(settings)
    options.extra_args.append(MARKER)
    server_app = BrowserOpsMCP(settings, workspace, options)
    yield server_app
    await server_app.close()


def connect(app: BrowserOpsMCP) -> Client:
    # Entered inside each test: the client's task group must start and end in the same task.
    return Client(build_server(app))


async def test_every_catalogue_tool_is_listed_with_its_schema_and_annotations(app: BrowserOpsMCP) -> None:
    async with connect(app) as client:
        listed = {t.name: t for t in (await client.list_tools()).tools}
        aliases = {alias for t in all_tools() for alias in t.aliases}
        assert set(listed) == {t.name for t in all_tools()} | aliases | FRONT_DOOR_TOOLS
        assert listed["browser_act_by_id"].meta == {**(listed["browser_act_by_index"].meta or {}),
                                                    "browserops/alias_of": "browser_act_by_index"}
        for tool in all_tools():
            mcp_tool = listed[tool.name]
            assert mcp_tool.input_schema == tool.input_schema()
            assert mcp_tool.description and mcp_tool.description.startswith(tool.description)
            assert mcp_tool.annotations is not None
            assert mcp_tool.annotations.read_only_hint is (tool.side_effect is SideEffect.READ_ONLY)
            assert mcp_tool.annotations.destructive_hint is (tool.side_effect is SideEffect.BROWSER_ACT)
            assert mcp_tool.output_schema is not None and mcp_tool.output_schema["required"] == ["status"]
        hints = {name: t.annotations for name, t in listed.items() if t.annotations is not None}
        assert hints["browser_navigate"].read_only_hint is True
        assert hints["browser_switch_tab"].read_only_hint is True
        assert hints["browser_upload"].destructive_hint is True
        assert hints["browser_click_and_wait_download"].read_only_hint is False
        assert hints["browser_click_and_wait_download"].destructive_hint is False
        assert listed["browser_upload"].input_schema["required"] == ["id", "files"]


async def test_navigate_and_read_the_contract_back(app: BrowserOpsMCP, demo_site: DemoSite) -> None:
    async with connect(app) as client:
        result = await call(client, "browser_navigate", url=demo_site.base_url + "/search?q=stapler")
        assert result["status"] == "ok"
        assert result["data"]["http_status"] == 200 and result["data"]["title"] == "Search results"


async def test_bad_arguments_are_contract_errors(app: BrowserOpsMCP) -> None:
    async with connect(app) as client:
        bad = await call(client, "browser_navigate", link="https://example.com")
        assert bad["status"] == "error" and bad["code"] == "BROWSER_INVALID_ARGS" and "url" in bad["error"]
        js = await call(client, "browser_navigate", url="javascript:alert(1)")
        assert js["code"] == "BROWSER_INVALID_ARGS"
        unknown = await client.call_tool("browser_fly", {})
        assert unknown.is_error


async def test_banners_are_closed_after_navigation(app: BrowserOpsMCP, demo_site: DemoSite) -> None:
    async with connect(app) as client:
        home = await call(client, "browser_navigate", url=demo_site.base_url + "/?banner=force")
        assert home["data"]["banners_auto_closed"]["closed"] == 1
        closed = await call(client, "browser_close_banners")
        assert closed["data"]["found"] == 0


async def test_two_concurrent_calls_are_serialised(app: BrowserOpsMCP, demo_site: DemoSite) -> None:
    async with connect(app) as client:
        slow = demo_site.base_url + "/slow?ms=700&nobanner=1"
        started = time.monotonic()
        first, second = await asyncio.gather(
            call(client, "browser_navigate", url=slow + "&n=1"),
            call(client, "browser_navigate", url=slow + "&n=2"),
        )
        elapsed = time.monotonic() - started
        # Interleaved, the second navigation would abort the first one on the shared tab.
        assert first["status"] == "ok" and second["status"] == "ok", (first, second)
        assert {first["data"]["url"][-3:], second["data"]["url"][-3:]} == {"n=1", "n=2"}
        assert elapsed >= 1.4  # one after the other: 2 x 700 ms of server time


async def test_the_lock_is_what_prevents_interleaving(app: BrowserOpsMCP, demo_site: DemoSite) -> None:
    """Control experiment: the same two calls straight into the catalogue, without the server's lock."""
    assert app.session is not None
    ctx = ToolContext(session=app.session, settings=app.settings, workspace=app.workspace)
    slow = demo_site.base_url + "/slow?ms=700&nobanner=1"
    results = await asyncio.gather(
        call_tool("browser_navigate", ctx, {"url": slow + "&n=1"}),
        call_tool("browser_navigate", ctx, {"url": slow + "&n=2"}),
    )
    assert [r["status"] for r in results].count("error") >= 1


async def test_a_killed_chromium_is_restarted_by_the_next_call(app: BrowserOpsMCP,
                                                                demo_site: DemoSite) -> None:
    async with connect(app) as client:
        await call(client, "browser_navigate", url=demo_site.base_url + "/search")
        assert kill_browser_with_marker(MARKER) == 1
        for _ in range(100):
            if app.session is not None and not app.session.alive:
                break
            await asyncio.sleep(0.05)
        result = await call(client, "browser_navigate", url=demo_site.base_url + "/search?q=pen")
        assert result["status"] == "ok", result
        assert "restarted" in result["data"]["browser_restarted"]
        again = await call(client, "browser_navigate", url=demo_site.base_url + "/search")
        assert "browser_restarted" not in again["data"]


async def test_a_crash_during_a_call_is_reported_and_recovered(app: BrowserOpsMCP, demo_site: DemoSite) -> None:
    async with connect(app) as client:
        await call(client, "browser_navigate", url=demo_site.base_url + "/search")
        await reset_requests(demo_site)
        slow = asyncio.ensure_future(call(client, "browser_navigate", url=demo_site.base_url + "/slow?ms=4000"))
        await requested(demo_site, "/slow")  # the site answers 4 s later: the navigation is still running
        assert kill_browser_with_marker(MARKER) == 1
        crashed = await slow
        assert crashed["status"] == "error" and crashed["code"] == "BROWSER_CRASHED"
        assert "next call restarts" in crashed["error"]
        result = await call(client, "browser_navigate", url=demo_site.base_url + "/search?q=ink")
        assert result["status"] == "ok" and "browser_restarted" in result["data"]


async def test_navigate_list_act_on_the_demo_form(app: BrowserOpsMCP, demo_site: DemoSite, workspace: Path) -> None:
    async with connect(app) as client:
        from tests.mcp.helpers import item_named

        await call(client, "browser_navigate", url=demo_site.base_url + "/expense")
        listing = await call(client, "browser_list_interactives")
        items = listed_items(listing["data"])
        merchant = item_named(items, "Merchant")
        amount = item_named(items, "Amount")
        typed = await call(client, "browser_overlay_act", index=merchant["n"], action="type", text="Stationery World")
        assert typed["status"] == "ok", typed
        await call(client, "browser_overlay_act", index=amount["n"], action="type", text="12.50")
        listing = await call(client, "browser_list_interactives")
        submit = item_named(listed_items(listing["data"]), "Submit expense")
        clicked = await call(client, "browser_overlay_act", index=submit["n"], action="click")
        assert clicked["status"] == "ok", clicked
        # The site records the submission before it redirects to the confirmation page.
        landed = await call(client, "browser_wait", url_contains="/expense/confirmation/", timeout_ms=15_000)
        assert landed["status"] == "ok", landed
        submission = demo_site.state.snapshot()["submissions"][-1]
        assert (submission["merchant"], submission["amount"]) == ("Stationery World", "12.50")


async def test_the_last_resort_act_answers_to_the_requirements_name_and_its_alias(app: BrowserOpsMCP,
                                                                                demo_site: DemoSite) -> None:
    async with connect(app) as client:
        from tests.mcp.helpers import item_named

        await call(client, "browser_navigate", url=demo_site.base_url + "/expense")
        items = listed_items((await call(client, "browser_list_interactives", ids=True))["data"])
        merchant = item_named(items, "Merchant")
        for name, text in (("browser_act_by_index", "Paper Mill"), ("browser_act_by_id", "Ink House")):
            typed = await call(client, name, id=merchant["id"], action="type", text=text)
            assert typed["status"] == "ok" and typed["data"]["value"] == text, (name, typed)
