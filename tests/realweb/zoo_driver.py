"""Doing a zoo task (:mod:`browserops.demo_site.zoo_tasks`) through browserops' catalogue tools, as an agent
would: list, find the element by role and name, act by number. Used by the zoo tests (tools called directly)
and bench/widgets.py (the same tools through an MCP client session): both pass a :data:`ToolCall`."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Page

from browserops.demo_site.zoo_tasks import Step, Task
from browserops.listing_rows import listing_items
from browserops.tools.context import ToolContext
from tests.calls import call_tool

# A catalogue tool call by name with its arguments, answering the tool contract (status, data, error).
ToolCall = Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]

APPEAR_S = 5.0  # how long a widget may take to render (or to appear after the step before)


@dataclass
class Outcome:
    listed: bool = False
    operated: bool = False
    item: dict[str, Any] | None = None
    errors: list[str] = field(default_factory=list)


def direct(ctx: ToolContext) -> ToolCall:
    """The catalogue called in process (the tests)."""
    async def call(name: str, args: dict[str, Any]) -> dict[str, Any]:
        return await call_tool(name, ctx, args)
    return call


async def find_item(ctx: ToolContext | ToolCall, role: str, name: str,
                    timeout_s: float = APPEAR_S) -> dict[str, Any] | None:
    """The listed item with this role and name, waiting for it to appear (re-listing until it does)."""
    call = direct(ctx) if isinstance(ctx, ToolContext) else ctx
    deadline = time.monotonic() + timeout_s
    while True:
        result = await call("browser_list_interactives", {"limit": 200})
        items = listing_items(result.get("data") or {})
        for item in items:
            if item.get("role") == role and item.get("name") == name:
                return dict(item)
        if time.monotonic() >= deadline:
            return None
        await asyncio.sleep(0.2)


async def page_true(ctx: ToolContext | Page, expression: str, timeout_s: float = 3.0) -> bool:
    """Whether the page expression becomes true (the widget's own state, read by the harness, never by a tool)."""
    page = ctx.session.page if isinstance(ctx, ToolContext) else ctx
    deadline = time.monotonic() + timeout_s
    script = f"() => {{ try {{ return !!({expression}); }} catch (e) {{ return false; }} }}"
    while True:
        if await page.evaluate(script):
            return True
        if time.monotonic() >= deadline:
            return False
        await asyncio.sleep(0.1)


async def do_step(call: ToolCall, step: Step) -> dict[str, Any]:
    item = await find_item(call, step.role, step.name)
    if item is None:
        return {"status": "error", "error": f"{step.role} {step.name!r} is not listed"}
    if step.action == "press":
        return await call("browser_press", {"key": step.key, "id": item["n"]})
    args: dict[str, Any] = {"index": item["n"], "action": step.action}
    if step.options is not None:
        args["options"] = list(step.options)
    elif step.text is not None:
        args["text"] = step.text
    return await call("browser_overlay_act", args)


async def run_task(ctx: ToolContext, url: str, task: Task) -> Outcome:
    return await run_task_with(direct(ctx), lambda: ctx.session.page, url, task)


async def run_task_with(call: ToolCall, page: Callable[[], Page], url: str, task: Task) -> Outcome:
    """``task`` through ``call``; ``page`` gives the page the tools act on, for the harness's check."""
    out = Outcome()
    nav = await call("browser_navigate", {"url": url})
    if nav["status"] != "ok":
        out.errors.append(str(nav.get("error")))
        return out
    out.item = await find_item(call, task.role, task.name)
    state = (out.item or {}).get("state") or {}
    out.listed = out.item is not None and all(state.get(k, False if v is False else None) == v
                                              for k, v in task.state.items())
    for step in task.steps:
        result = await do_step(call, step)
        if result["status"] != "ok":
            out.errors.append(f"{step.action} {step.name!r}: {result.get('error')}")
            return out
    out.operated = await page_true(page(), task.check)
    return out
