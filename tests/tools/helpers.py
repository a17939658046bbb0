"""Calling tools the way every front door does: through the registry, checking the result contract."""

from __future__ import annotations

from typing import Any

from browserops.listing_rows import parse_row
from browserops.tools.context import ToolContext
from tests.calls import call_tool


def check_contract(result: dict[str, Any]) -> None:
    assert set(result) <= {"status", "error", "code", "data"}, result
    assert result["status"] in ("ok", "error"), result
    if result["status"] == "error":
        assert isinstance(result["error"], str) and result["error"], result
        assert str(result["code"]).startswith("BROWSER_"), result
    else:
        assert isinstance(result.get("data"), dict), result


async def call(ctx: ToolContext, name: str, **args: Any) -> dict[str, Any]:
    result = await call_tool(name, ctx, args)
    check_contract(result)
    return result


def as_objects(data: dict[str, Any]) -> dict[str, Any]:
    """A listing's or find's rows read back as objects (the assertions read fields); every row must parse."""
    for key in ("items", "matches"):
        value = data.get(key)
        if isinstance(value, list) and any(isinstance(v, str) for v in value):
            data = {**data, key: [parse_row(v) if isinstance(v, str) else v for v in value]}
    listed = data.get("listed")
    if isinstance(listed, dict):
        data = {**data, "listed": as_objects(listed)}
    return data


async def ok(ctx: ToolContext, name: str, **args: Any) -> dict[str, Any]:
    """Call a tool that must succeed; return its data (listing rows read back as objects: :func:`as_objects`)."""
    result = await call(ctx, name, **args)
    assert result["status"] == "ok", result
    data: dict[str, Any] = as_objects(result["data"])
    return data


async def fails(ctx: ToolContext, name: str, code: str, **args: Any) -> dict[str, Any]:
    """Call a tool that must fail with ``code``; return the whole result."""
    result = await call(ctx, name, **args)
    assert result["status"] == "error", result
    assert result["code"] == code, result
    return result


async def open_page(ctx: ToolContext, url: str) -> None:
    await ok(ctx, "browser_navigate", url=url)


async def listed(ctx: ToolContext, **args: Any) -> list[dict[str, Any]]:
    data = await ok(ctx, "browser_list_interactives", **args)
    items: list[dict[str, Any]] = data["items"]
    return items


def by_name(items: list[dict[str, Any]], name: str) -> dict[str, Any]:
    matches = [i for i in items if i["name"] == name]
    assert len(matches) == 1, (name, items)
    return matches[0]
