"""Same-named controls told apart (issue #19): a listing names the container of every item whose role and
name repeat (``in``), browser_find narrows by it (``within``), and an agent reading the listing can pick the
right one. Real Chromium on the demo site's /repeated page (a feed, a table, product cards, chips)."""

from __future__ import annotations

import re
from typing import Any

from browserops.agent.model_summaries import observation_from_result
from browserops.demo_site import DemoSite
from browserops.listing_rows import parse_row
from browserops.tools.context import ToolContext
from tests.tools.helpers import call, ok, open_page


async def _rows(ctx: ToolContext, **args: Any) -> list[str]:
    result = await call(ctx, "browser_list_interactives", limit=200, **args)
    assert result["status"] == "ok", result
    rows: list[str] = result["data"]["items"]
    assert all(isinstance(r, str) for r in rows)
    return rows


async def _status(ctx: ToolContext) -> str:
    text = await ctx.session.page.locator("#repeated-result").inner_text()
    return str(text)


def _only(items: list[dict[str, Any]], **facts: Any) -> dict[str, Any]:
    found = [i for i in items if all(i.get(k) == v for k, v in facts.items())]
    assert len(found) == 1, (facts, items)
    return found[0]


async def test_feed_more_buttons_and_menus_say_whose_post(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/repeated")
    items = [parse_row(r) for r in await _rows(tool_ctx)]
    mores = [i for i in items if i["name"] == "more"]
    assert len(mores) == 5 and all(i.get("name_guessed") for i in mores)  # icon-only: the name is guessed
    # Each names its post by the line a person reads first: the author and when.
    assert [i["in"] for i in mores] == ["@ada 2h", "@bob 3h", "@cierra 5h", "@dmitri 1d", "@emma 2d"]
    replies = [i for i in items if i["role"] == "button" and i["name"] == "Reply"]
    assert [i["in"] for i in replies] == [i["in"] for i in mores]
    assert "in" not in _only(items, name="Checkout")  # a unique name costs nothing

    # Two menus open: "Report" repeats, and each says whose post it reports.
    for author in ("bob", "cierra"):
        more = next(i for i in mores if i["in"].startswith(f"@{author} "))
        await ok(tool_ctx, "browser_overlay_act", index=more["n"], action="click")
    items = [parse_row(r) for r in await _rows(tool_ctx)]
    reports = [i for i in items if i["name"] == "Report"]
    assert sorted(i["in"] for i in reports) == ["@bob 3h", "@cierra 5h"]
    report = next(i for i in reports if i["in"].startswith("@cierra"))
    await ok(tool_ctx, "browser_overlay_act", index=report["n"], action="click")
    assert await _status(tool_ctx) == "report: the post by @cierra"


async def test_a_scripted_agent_reading_the_observation_reports_the_right_post(tool_ctx: ToolContext,
                                                                              demo_site: DemoSite) -> None:
    """What the agent's model reads (agent/summary.py) carries the container: a reader that only matches words
    in the observation lines picks @cierra's "more", then her "Report"."""
    await open_page(tool_ctx, demo_site.base_url + "/repeated")

    async def pick(words: list[str]) -> int:
        result = await call(tool_ctx, "browser_observe", screenshot=False, limit=200)
        text = observation_from_result(result).text
        lines = [line for line in text.splitlines() if all(w in line for w in words)]
        assert len(lines) == 1, (words, lines)
        number = re.match(r"^\s*\[(\d+)\]", lines[0])
        assert number is not None, lines[0]
        return int(number.group(1))

    await ok(tool_ctx, "browser_overlay_act", index=await pick(['"more"', "@ada"]), action="click")
    await ok(tool_ctx, "browser_overlay_act", index=await pick(['"more"', "@cierra"]), action="click")
    await ok(tool_ctx, "browser_overlay_act", index=await pick(['"Report"', "@cierra"]), action="click")
    assert await _status(tool_ctx) == "report: the post by @cierra"


async def test_table_rows_cards_and_chips_name_their_container(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/repeated")
    items = [parse_row(r) for r in await _rows(tool_ctx)]
    edits = [i for i in items if i["role"] == "link" and i["name"] == "Edit"]
    deletes = [i for i in items if i["role"] == "button" and i["name"] == "Delete"]
    # A row is named by its first cells (the control's own cell left out).
    assert [i["in"] for i in edits] == ["Printer toner", "Stapler 2", "A4 paper 10", "Desk lamp 1"]
    assert [i["in"] for i in deletes] == [i["in"] for i in edits]
    carts = [i for i in items if i["name"] == "Add to cart"]
    assert [i["in"] for i in carts] == ["Widget Pro", "Widget Mini", "Gadget Max", "Doohickey"]  # the card heading
    removes = [i for i in items if i["name"] == "Remove"]
    assert [i["in"] for i in removes] == ["Python", "Rust", "TypeScript", "Go"]  # the chip's own text
    assert all(len(i["in"]) <= 60 for i in items if "in" in i)

    # The object form says the container's role too.
    objects = (await ok(tool_ctx, "browser_list_interactives", limit=200, format="objects"))["items"]
    delete = _only(objects, name="Delete", **{"in": "Stapler 2"})
    assert delete["in_role"] == "row"
    assert _only(objects, name="Add to cart", **{"in": "Gadget Max"})["in_role"] == "generic"

    # Acting on the one a row names acts on that row, whatever its place.
    await ok(tool_ctx, "browser_overlay_act", index=next(i for i in deletes if i["in"] == "Stapler 2")["n"],
             action="click")
    assert await _status(tool_ctx) == "delete: Stapler"
    remaining = [parse_row(r) for r in await _rows(tool_ctx)]
    assert [i["in"] for i in remaining if i["name"] == "Delete"] == ["Printer toner", "A4 paper 10", "Desk lamp 1"]


async def test_find_within_a_container(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/repeated")
    found = await ok(tool_ctx, "browser_find", text="Delete", within="a4 PAPER")
    assert found["count"] == 1 and found["matches"][0]["in"] == "A4 paper 10"
    await ok(tool_ctx, "browser_overlay_act", index=found["matches"][0]["n"], action="click")
    assert await _status(tool_ctx) == "delete: A4 paper"
    cart = await ok(tool_ctx, "browser_find", role="button", within="Widget Mini")
    assert [m["name"] for m in cart["matches"]] == ["Add to cart"]
    # Within alone, and a container that is not there.
    chip = await ok(tool_ctx, "browser_find", within="TypeScript")
    assert [(m["name"], m["in"]) for m in chip["matches"]] == [("Remove", "TypeScript")]
    none = await ok(tool_ctx, "browser_find", text="Delete", within="Printer ink")
    assert none["count"] == 0


async def test_containers_for_every_item_on_request(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/repeated")
    objects = (await ok(tool_ctx, "browser_list_interactives", limit=200, format="objects",
                        containers=True))["items"]
    checkout = _only(objects, name="Checkout")
    assert checkout["in"] and checkout["in_role"]  # named although its name is unique
    edit = _only(objects, name="Edit", **{"in": "Printer toner"})
    assert edit["in_role"] == "row"
