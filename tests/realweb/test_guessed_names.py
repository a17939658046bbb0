"""Names guessed for nameless controls hold on widget libraries the zoo does not contain (Quill, noUiSlider,
Glide, from npm, set up as their documentation shows; pages in ``tests/realweb/names/``): the library's
namespace ("ql-", "noUi-", "glide__") and the words many of its elements share are left out, the words that
tell a control apart are kept, and the guessed control is the one that works when operated by number."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browserops.demo_site.zoo_site import ZooSite
from browserops.tools.context import ToolContext
from tests.realweb.zoo_driver import find_item, page_true
from tests.tools.helpers import listed, ok, open_page

PAGES = Path(__file__).resolve().parent / "names"
NAMESPACES = ("ql", "noui", "glide", "ui")


@pytest.fixture(scope="module")
def site() -> Iterator[ZooSite]:
    with ZooSite(PAGES) as served:
        yield served


async def _guessed(ctx: ToolContext, url: str, first: tuple[str, str]) -> list[dict[str, Any]]:
    await open_page(ctx, url)
    assert await find_item(ctx, *first) is not None, "the library did not render"
    return [i for i in await listed(ctx, limit=200) if i.get("name_guessed")]


def _no_namespace(items: list[dict[str, Any]]) -> None:
    for item in items:
        assert not set(item["name"].lower().split()) & set(NAMESPACES), item


async def test_quill_pickers_are_told_apart_by_what_they_pick(tool_ctx: ToolContext, site: ZooSite) -> None:
    """Quill's three pickers carry the same class (ql-picker-label); their parents say what each picks."""
    guessed = await _guessed(tool_ctx, site.url("quill"), ("button", "bold"))
    names = {i["name"] for i in guessed if i["role"] == "button"}
    assert len(names) == 3, guessed
    assert [n for n in names if "color" in n.split() and "background" not in n.split()], names
    assert [n for n in names if "background" in n.split()] and [n for n in names if "align" in n.split()], names
    assert {i["name"] for i in guessed if i["role"] == "textbox"} == {"editor"}
    _no_namespace(guessed)
    align = next(i for i in guessed if "align" in i["name"].split())
    await ok(tool_ctx, "browser_overlay_act", index=align["n"], action="click")
    assert await page_true(tool_ctx, "document.querySelector('.ql-align .ql-picker-label')"
                                     ".getAttribute('aria-expanded') === 'true'")


async def test_nouislider_handles_are_named_lower_and_upper(tool_ctx: ToolContext, site: ZooSite) -> None:
    await open_page(tool_ctx, site.url("nouislider"))
    handles = [i for i in await listed(tool_ctx, limit=200) if i["role"] == "slider"]
    assert [(i["name"], i.get("name_guessed")) for i in handles] == [("handle lower", True), ("handle upper", True)]
    await ok(tool_ctx, "browser_press", key="ArrowRight", id=handles[0]["n"])
    assert await page_true(tool_ctx, "JSON.stringify(priceSlider.get(true)) === '[21,80]'")


async def test_glide_arrows_and_bullets(tool_ctx: ToolContext, site: ZooSite) -> None:
    """Glide's arrows differ only in their BEM modifier (--left, --right); its three bullets are one kind."""
    guessed = await _guessed(tool_ctx, site.url("glide"), ("button", "bullet"))
    assert [i["name"] for i in guessed] == ["left", "right", "bullet", "bullet", "bullet"], guessed
    _no_namespace(guessed)
    await ok(tool_ctx, "browser_overlay_act", index=guessed[1]["n"], action="click")
    assert await page_true(tool_ctx, "glide.index === 1")
