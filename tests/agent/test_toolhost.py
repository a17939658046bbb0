"""The in-process tool host, in real Chromium against the demo site: calls, errors, health, crash recovery."""

from __future__ import annotations

from typing import Any

from browserops.agent.toolhost import InProcessToolHost, ToolHost
from browserops.contract import BrowserOpsError, ErrorCode, SideEffect, ToolTraits
from browserops.demo_site import DemoSite
from browserops.tools import registry
from browserops.tools.context import Tool, ToolContext
from browserops.tools.definitions import NoArgs, ToolDef


def test_it_is_a_tool_host_serving_the_catalogue(tool_ctx: ToolContext) -> None:
    host: ToolHost = InProcessToolHost(tool_ctx)
    specs = host.tools()
    assert [s.name for s in specs] == [t.name for t in registry.all_tools()]
    nav = next(s for s in specs if s.name == "browser_navigate")
    assert nav.side_effect is SideEffect.READ_ONLY and nav.input_schema["required"] == ["url"]


async def test_calls_reach_the_real_browser(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    host = InProcessToolHost(tool_ctx)
    assert await host.health()
    result = await host.call("browser_navigate", {"url": demo_site.base_url + "/search?q=stapler"})
    assert result["status"] == "ok" and result["data"]["http_status"] == 200
    assert "/search?q=stapler" in tool_ctx.session.page.url
    await host.call("browser_navigate", {"url": demo_site.base_url + "/pay"})
    back = await host.call("browser_back", {})
    assert back["status"] == "ok" and back["data"]["url"].endswith("/search?q=stapler")
    assert tool_ctx.signals.navigated is True
    await host.close()


async def test_errors_come_back_as_results(tool_ctx: ToolContext) -> None:
    host = InProcessToolHost(tool_ctx)
    unknown = await host.call("browser_teleport", {})
    assert unknown["status"] == "error" and unknown["code"] == ErrorCode.UNKNOWN_TOOL.value
    assert "browser_navigate" in unknown["error"]
    bad = await host.call("browser_navigate", {"link": "x"})
    assert bad["status"] == "error" and bad["code"] == ErrorCode.INVALID_ARGS.value
    refused = await host.call("browser_navigate", {"url": "javascript:alert(1)"})
    assert refused["code"] == ErrorCode.INVALID_ARGS.value


async def test_a_dead_browser_is_restarted_before_the_next_call(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    host = InProcessToolHost(tool_ctx)
    await tool_ctx.session.context.close()
    assert not await host.health()
    result = await host.call("browser_navigate", {"url": demo_site.base_url + "/"})
    assert result["status"] == "ok" and host.restarts == 1 and await host.health()
    assert any(n["kind"] == "browser_restarted" for n in tool_ctx.session.take_notices())


def _crashing_tool(side_effect: SideEffect, calls: list[str]) -> Tool[Any]:
    async def handler(ctx: ToolContext, args: NoArgs) -> dict[str, Any]:
        calls.append("run")
        if len(calls) == 1:  # the first run kills the browser under it, like a renderer crash would
            await ctx.session.context.close()
            raise BrowserOpsError(ErrorCode.CRASHED, "The browser has crashed.")
        return {"url": ctx.session.page.url}

    return Tool(ToolDef(name="browser_probe", args=NoArgs, description="test", handler="(bound below)",
                        traits=ToolTraits(side_effect=side_effect)), handler)


async def test_a_read_only_call_hit_by_a_crash_is_retried_once(tool_ctx: ToolContext) -> None:
    calls: list[str] = []
    host = InProcessToolHost(tool_ctx, [_crashing_tool(SideEffect.READ_ONLY, calls)])
    result = await host.call("browser_probe", {})
    assert result["status"] == "ok" and result["data"]["retried_after_crash"] is True
    assert calls == ["run", "run"] and host.restarts == 1


async def test_an_acting_call_hit_by_a_crash_is_not_repeated(tool_ctx: ToolContext) -> None:
    calls: list[str] = []
    host = InProcessToolHost(tool_ctx, [_crashing_tool(SideEffect.BROWSER_ACT, calls)])
    result = await host.call("browser_probe", {})
    assert result["status"] == "error" and result["code"] == ErrorCode.CRASHED.value
    assert calls == ["run"] and not await host.health()
    again = await host.call("browser_probe", {})  # the next call restarts first
    assert again["status"] == "ok" and host.restarts == 1
