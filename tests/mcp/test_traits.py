"""Tool traits travel to MCP clients in ``_meta`` and come back unchanged: an agent using the MCP host judges
calls with the same traits as one using the catalogue in process."""

from __future__ import annotations

from pathlib import Path

from mcp.client import Client

from browserops.agent.toolspec import AGENT_META, SIDE_EFFECT_META, TRAITS_META
from browserops.config import Settings
from browserops.contract import SideEffect, ToolTraits
from browserops.mcp_server import BrowserOpsMCP, build_server
from browserops.tools.registry import all_tools


async def test_every_tool_lists_its_traits_and_they_read_back_the_same(tmp_path: Path) -> None:
    app = BrowserOpsMCP(Settings(), tmp_path)
    async with Client(build_server(app)) as client:
        listed = {t.name: t for t in (await client.list_tools()).tools}
    assert app.session is None  # listing tools starts no browser
    for tool in all_tools():
        meta = listed[tool.name].meta or {}
        assert meta[SIDE_EFFECT_META] == tool.side_effect.value
        assert ToolTraits.from_meta(meta[TRAITS_META], SideEffect(meta[SIDE_EFFECT_META])) == tool.traits, tool.name
    assert (listed["browser_task"].meta or {}).get(AGENT_META) is True


def test_missing_or_malformed_traits_fall_back_to_the_strict_default() -> None:
    assert ToolTraits.from_meta(None) == ToolTraits()
    assert ToolTraits.from_meta({}, SideEffect.READ_ONLY) == ToolTraits(side_effect=SideEffect.READ_ONLY)
    odd = ToolTraits.from_meta({"side_effect": "teleport", "pure_read": "yes", "activation": "sometimes",
                                "target_arg": 3, "new_document": True})
    assert odd == ToolTraits(new_document=True)
