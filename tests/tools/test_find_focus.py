"""browser_find (any language, partial, role) and browser_focus_next/prev (screen-reader quick navigation)."""

from __future__ import annotations

from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from tests.tools.helpers import by_name, fails, listed, ok, open_page


async def test_find_in_english_russian_and_chinese(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense/multilang")
    everything = await listed(tool_ctx, limit=100, ids=True)
    cases = {"last NAME": "Last name", "  фамилия ": "Фамилия", "ГОРОД": "Город", "城市": "城市",
             "电子": "电子邮件", "почта": "Электронная почта"}
    for query, name in cases.items():
        found = await ok(tool_ctx, "browser_find", text=query)
        assert found["count"] == 1, (query, found)
        match = found["matches"][0]
        assert match["name"] == name
        # Its number is its position in the full order, the same a full listing gives.
        assert match["n"] == by_name(everything, name)["n"]
        assert match["id"] == by_name(everything, name)["id"]


async def test_find_normalises_whitespace_and_ranks_exact_first(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense/multilang")
    found = await ok(tool_ctx, "browser_find", text="first\n   name")
    assert [m["name"] for m in found["matches"]] == ["First name"]
    found = await ok(tool_ctx, "browser_find", text="name")
    names = [m["name"] for m in found["matches"]]
    assert names[:2] == ["First name", "Last name"], names
    assert "Имя" not in names
    buttons = await ok(tool_ctx, "browser_find", role="button")
    assert [m["name"] for m in buttons["matches"]] == ["Send", "Отправить", "提交"]
    ru_button = await ok(tool_ctx, "browser_find", role="button", text="ОТПРАВ")
    assert [m["name"] for m in ru_button["matches"]] == ["Отправить"]


async def test_find_matches_placeholder_title_and_label_sources(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    placeholder = await ok(tool_ctx, "browser_find", text="choose a currency")
    assert [m["name"] for m in placeholder["matches"]] == ["Currency"]
    described = await ok(tool_ctx, "browser_find", text="up to 10 mb")  # aria-describedby hint of Receipt
    assert [m["name"] for m in described["matches"]] == ["Receipt"]
    fields = await ok(tool_ctx, "browser_find", role="select")
    assert {m["name"] for m in fields["matches"]} == {"Category", "Currency"}


async def test_find_then_act_by_its_number(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense/multilang")
    await listed(tool_ctx, limit=3)  # the target is not in this short listing
    found = await ok(tool_ctx, "browser_find", text="город", role="textbox")
    n = found["matches"][0]["n"]
    assert n > 3
    typed = await ok(tool_ctx, "browser_overlay_act", index=n, action="type", text="Казань")
    assert typed["target"]["name"] == "Город" and typed["value"] == "Казань"
    assert await tool_ctx.session.page.input_value("#ru-city") == "Казань"


async def test_find_reaches_frames_and_shadow_roots(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/frames")
    found = await ok(tool_ctx, "browser_find", text="cross")
    assert {m["name"] for m in found["matches"]} == {"Cross field", "Cross-origin button"}
    assert all(m["frame"] in found["frames"] for m in found["matches"])
    await open_page(tool_ctx, demo_site.base_url + "/shadow")
    found = await ok(tool_ctx, "browser_find", text="deep")
    assert [m["name"] for m in found["matches"]] == ["Deep shadow button"]


async def test_find_paging_and_no_match(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/large?n=100")
    first = await ok(tool_ctx, "browser_find", role="button", limit=5)
    assert first["count"] == 20 and first["more"] == 15 and len(first["matches"]) == 5
    second = await ok(tool_ctx, "browser_find", role="button", limit=5, offset=5)
    assert not {m["id"] for m in first["matches"]} & {m["id"] for m in second["matches"]}
    none = await ok(tool_ctx, "browser_find", text="no such thing")
    assert none["count"] == 0 and none["matches"] == [] and "hint" in none
    bad = await fails(tool_ctx, "browser_find", "BROWSER_INVALID_ARGS")
    assert "text or role" in bad["error"]
    bad = await fails(tool_ctx, "browser_find", "BROWSER_INVALID_ARGS", text="x", limit=0)
    assert bad["data"]["fields"] == ["limit"]


async def test_focus_next_prev_by_role_like_a_screen_reader(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/focus")
    seen = []
    for _ in range(4):
        step = await ok(tool_ctx, "browser_focus_next", role="heading")
        seen.append((step["element"]["name"], step["element"]["state"]["level"]))
        assert step["focused"] is False  # headings are reached, not focused
    assert seen == [("Focus and navigation", 1), ("Section A", 2), ("Subsection A.1", 3), ("Section B", 2)]
    back = await ok(tool_ctx, "browser_focus_prev", role="heading")
    assert back["element"]["name"] == "Subsection A.1"
    # The next field after that heading gets the real focus.
    field = await ok(tool_ctx, "browser_focus_next", role="field")
    assert field["element"]["name"] == "Name" and field["focused"] is True
    assert await tool_ctx.session.page.evaluate("() => document.activeElement.id") == "focus-name"
    # From the focused field, the next button is in section B.
    button = await ok(tool_ctx, "browser_focus_next", role="button")
    assert button["element"]["name"] == "Second button"
    h2 = await ok(tool_ctx, "browser_focus_next", role="h2")
    assert h2["element"]["name"] == "Related"
    landmark = await ok(tool_ctx, "browser_focus_next", role="landmark")
    assert landmark["element"]["role"] in ("complementary", "contentinfo")
    end = await ok(tool_ctx, "browser_focus_next", role="button")
    assert end["found"] is False and "No button after" in end["message"]


async def test_focus_next_without_role_walks_interactive_elements(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/focus")
    items = await listed(tool_ctx)
    names = []
    for _ in range(4):
        step = await ok(tool_ctx, "browser_focus_next")
        names.append(step["element"]["name"])
        assert step["focused"] is True
    assert names == ["Demo home", "First link", "Second link", "First button"]
    # Reported with its number when it is in the latest listing.
    assert step["element"]["n"] == by_name(items, "First button")["n"]
    prev = await ok(tool_ctx, "browser_focus_prev")
    assert prev["element"]["name"] == "Second link"
    # After a click elsewhere, quick navigation continues from the new focus.
    await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Second button")["n"])
    after = await ok(tool_ctx, "browser_focus_next", role="field")
    assert after["element"]["name"] == "Access code"


async def test_focus_moves_into_frames(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/frames")
    names = []
    frames = []
    for _ in range(4):
        step = await ok(tool_ctx, "browser_focus_next", role="textbox")
        if not step["found"]:
            break
        names.append(step["element"]["name"])
        frames.append(step["element"].get("frame"))
    assert names == ["Inner name", "Cross field"]
    assert frames[0] and frames[1] and frames[0] != frames[1]
