"""Doing a zoo task (:mod:`browserops.demo_site.zoo_tasks`) through browserops' catalogue tools, as an agent
would: list, find the control by what the page shows (role and name; for a control the page gives no role, a
name that holds the word the page shows), act by number. Used by the zoo tests (tools called directly) and
bench/widgets.py (the same tools through an MCP client session): both pass a :data:`ToolCall`.

Matching is the same on both sides of the benchmark (:func:`rank`); what each side can match against is its
own: browserops' listing here, the peer's snapshot in bench/widgets.py.
"""

from __future__ import annotations

import asyncio
import re
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
LIST_LIMIT = 200


@dataclass
class Outcome:
    listed: bool = False
    operated: bool = False
    item: dict[str, Any] | None = None
    errors: list[str] = field(default_factory=list)


_CJK_GAP = re.compile(r"(?<=[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]) (?=[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff])")


def norm(text: str | None) -> str:
    """A name as a person reads it (both sides alike): spacing collapsed, case folded, and no space between two CJK
    characters (antd writes the button 确定 "确 定")."""
    return _CJK_GAP.sub("", " ".join((text or "").split()).casefold())


def rank(role: str | None, name: str | None, step: Step) -> int:
    """How well an element (its role and name as a tool shows them) matches what the step names: 3 the role and
    name, 2 the name under another role, 1 a name holding the label as a word (a guessed or longer name), 0 no."""
    shown, label = norm(name), norm(step.label)
    if not shown or not label:
        return 0
    if shown == label:
        return 3 if step.role is not None and role == step.role else 2
    return 1 if re.search(r"(?<!\w)" + re.escape(label) + r"(?!\w)", shown) else 0


def is_listed(role: str | None, name: str | None, step: Step) -> bool:
    """Listed means shown so that a person can tell it is this control: with its role and name where the page
    gives it a role, with a name holding what the page shows where it gives none."""
    found = rank(role, name, step)
    return found == 3 if step.role is not None else found >= 1


def best(candidates: list[tuple[int, Any]]) -> list[Any]:
    """The candidates of the highest rank above 0."""
    top = max((r for r, _ in candidates), default=0)
    return [c for r, c in candidates if r == top and r > 0]


def number(value: Any) -> float | None:
    try:
        return float(str(value).strip())
    except ValueError:
        return None


def direct(ctx: ToolContext) -> ToolCall:
    """The catalogue called in process (the tests)."""
    async def call(name: str, args: dict[str, Any]) -> dict[str, Any]:
        return await call_tool(name, ctx, args)
    return call


async def _items(call: ToolCall, scope: str | None = None) -> list[dict[str, Any]]:
    args: dict[str, Any] = {"limit": LIST_LIMIT}
    if scope is not None:
        args["scope"] = scope
    result = await call("browser_list_interactives", args)
    return listing_items(result.get("data") or {})


async def find_item(ctx: ToolContext | ToolCall, role: str, name: str,
                    timeout_s: float = APPEAR_S) -> dict[str, Any] | None:
    """The listed item with exactly this role and name, waiting for it to appear (re-listing until it does)."""
    call = direct(ctx) if isinstance(ctx, ToolContext) else ctx
    deadline = time.monotonic() + timeout_s
    while True:
        for item in await _items(call):
            if item.get("role") == role and item.get("name") == name:
                return dict(item)
        if time.monotonic() >= deadline:
            return None
        await asyncio.sleep(0.2)


async def locate(call: ToolCall, step: Step, timeout_s: float = APPEAR_S) -> tuple[dict[str, Any] | None, str]:
    """The one listed item the step means, or None and why. Repeated controls are told apart by the listing's
    ``in`` (what an item belongs to), else by listing only the container the step names (``scope``)."""
    deadline = time.monotonic() + timeout_s
    while True:
        found = best([(rank(i.get("role"), i.get("name"), step), i) for i in await _items(call)])
        why = f"{len(found)} listed items match" if found else "not listed"
        if step.within and len(found) > 1:
            inside = [i for i in found if norm(step.within) in norm(i.get("in"))]
            if len(inside) != 1:
                scoped = best([(rank(i.get("role"), i.get("name"), step), i)
                               for i in await _items(call, scope=step.within)])
                inside = scoped if len(scoped) == 1 else inside
            why += f" and {len(inside)} of them are said to be in {step.within!r}"
            found = inside
        if len(found) == 1:
            return dict(found[0]), ""
        if time.monotonic() >= deadline:
            return None, f"{step.role or 'control'} {step.label!r}: {why}"
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


async def set_value(call: ToolCall, item: dict[str, Any], step: Step) -> dict[str, Any]:
    """A slider moved to a value with its keys, as a keyboard user does: from the value the listing shows, or
    from Home when it shows none; once more from the value shown after, if it missed."""
    assert step.value is not None
    current = number((item.get("state") or {}).get("value"))
    result: dict[str, Any] = {"status": "ok"}
    for _ in range(2):
        if current is None:
            result = await call("browser_press", {"key": "Home", "id": item["n"]})
            current = 0.0
        delta = round(step.value - current)
        for i in range(abs(delta)):
            args: dict[str, Any] = {"key": "ArrowRight" if delta > 0 else "ArrowLeft"}
            if i == 0:
                args["id"] = item["n"]
            result = await call("browser_press", args)
            if result["status"] != "ok":
                return result
        again, _ = await locate(call, step, timeout_s=0)
        current = number(((again or {}).get("state") or {}).get("value"))
        if current is None or current == step.value or again is None:
            break
        item = again
    return result


async def do_step(call: ToolCall, step: Step) -> dict[str, Any]:
    item, why = await locate(call, step)
    if item is None:
        return {"status": "error", "error": why}
    if step.action == "press":
        return await call("browser_press", {"key": step.key, "id": item["n"]})
    if step.action == "set":
        return await set_value(call, item, step)
    args: dict[str, Any] = {"index": item["n"], "action": "select" if step.action == "choose" else step.action}
    if len(step.options) > 1:
        args["options"] = list(step.options)
    elif step.options:
        args["text"] = step.options[0]
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
    target = task.target
    deadline = time.monotonic() + APPEAR_S
    while out.item is None:
        out.item = next((i for i in await _items(call) if is_listed(i.get("role"), i.get("name"), target)), None)
        if out.item is not None or time.monotonic() >= deadline:
            break
        await asyncio.sleep(0.2)
    out.listed = out.item is not None
    for step in task.steps:
        result = await do_step(call, step)
        if result["status"] != "ok":
            out.errors.append(f"{step.action} {step.label!r}: {result.get('error')}")
            return out
    out.operated = await page_true(page(), task.check)
    return out
