"""Test-side helpers for the tools2 tests.

``stamp`` gives an element a ``data-blind-id`` the way the numbering engine does, so id-based tools can be
exercised through the real ``locate`` contract with a string id, independent of the listing tool.
"""

from __future__ import annotations

from typing import Any

from browserops.browser.launch.session import BrowserSession
from browserops.contract import ToolResult
from browserops.tools.context import ToolContext
from tests.calls import call_tool


async def stamp(session: BrowserSession, css: str, blind_id: str) -> str:
    await session.page.locator(css).first.evaluate("(el, id) => el.setAttribute('data-blind-id', id)", blind_id)
    return blind_id


async def call(ctx: ToolContext, name: str, **args: Any) -> ToolResult:
    return await call_tool(name, ctx, args)


async def goto(ctx: ToolContext, url: str) -> ToolResult:
    result = await call(ctx, "browser_navigate", url=url)
    assert result["status"] == "ok", result
    return result
