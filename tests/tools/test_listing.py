"""browser_list_interactives in real Chromium: frames, shadow roots, stable ids, paging, order, scope."""

from __future__ import annotations

from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from tests.tools.helpers import by_name, fails, listed, ok, open_page


async def test_lists_same_and_cross_origin_frame_elements(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/frames")
    data = await ok(tool_ctx, "browser_list_interactives", ids=True)
    items = data["items"]
    inner = by_name(items, "Inner name")
    cross = by_name(items, "Cross-origin button")
    outer = by_name(items, "Outer button")
    assert inner["role"] == "textbox" and cross["role"] == "button"
    assert "frame" not in outer
    assert inner["frame"] != cross["frame"]
    assert inner["id"].startswith(inner["frame"]) and cross["id"].startswith(cross["frame"])
    assert data["frames"][inner["frame"]].endswith("/frames/inner")
    assert data["frames"][cross["frame"]].startswith(demo_site.alt_url)
    # Numbers are 1..total in order, ids unique across frames.
    assert [i["n"] for i in items] == list(range(1, len(items) + 1))
    assert len({i["id"] for i in items}) == len(items)


async def test_lists_open_shadow_roots_including_nested(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/shadow")
    items = await listed(tool_ctx)
    names = [i["name"] for i in items]
    assert names == ["Demo home", "Shadow input", "Shadow button", "Deep shadow button", "Light DOM button"]
    assert by_name(items, "Shadow input")["role"] == "textbox"


async def test_accessible_names_roles_and_states(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    items = await listed(tool_ctx)
    merchant = by_name(items, "Merchant")
    assert merchant["role"] == "textbox" and merchant["state"] == {"required": True}
    assert by_name(items, "Amount")["role"] == "spinbutton"
    assert by_name(items, "Date")["type"] == "date"
    category = by_name(items, "Category")
    assert category["role"] == "combobox" and category["state"]["value"] == "Choose a category"
    currency = by_name(items, "Currency")  # aria-labelledby wins over the placeholder
    assert currency["role"] == "combobox" and currency["state"]["expanded"] is False
    assert by_name(items, "Billable to client")["state"] == {"checked": False}
    assert by_name(items, "Bank transfer")["role"] == "radio"
    assert by_name(items, "Receipt")["type"] == "file"
    assert by_name(items, "Submit expense")["role"] == "button"


async def test_same_element_keeps_its_id_across_listings_and_dom_changes(
    tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/mutating")
    first = await listed(tool_ctx, ids=True)
    a, b = by_name(first, "Stable button A"), by_name(first, "Stable button B")
    # The clock and ticker keep mutating; also insert an unrelated button before them, which shifts numbers.
    await tool_ctx.session.page.evaluate(
        """() => { const p = document.createElement('p'); p.innerHTML = '<button>Inserted first</button>';
                   document.querySelector('main').prepend(p); }"""
    )
    await ok(tool_ctx, "browser_wait", ms=450)
    second = await listed(tool_ctx, ids=True)
    assert by_name(second, "Stable button A")["id"] == a["id"]
    assert by_name(second, "Stable button B")["id"] == b["id"]
    inserted = by_name(second, "Inserted first")
    assert inserted["new"] is True
    assert inserted["n"] < by_name(second, "Stable button A")["n"]
    assert "new" not in by_name(second, "Stable button A")
    # The id still works for acting after the change.
    await ok(tool_ctx, "browser_act_by_index", id=a["id"])
    assert "Button A clicked 1 times" in await tool_ctx.session.page.inner_text("#stable-status")


async def test_first_listing_of_a_document_flags_nothing_new(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    data = await ok(tool_ctx, "browser_list_interactives")
    assert "new" not in data and all("new" not in i for i in data["items"])
    data = await ok(tool_ctx, "browser_list_interactives")
    assert "new" not in data


async def test_limit_offset_paging(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/large?n=120")
    page1 = await ok(tool_ctx, "browser_list_interactives", limit=25)
    assert page1["total"] == 120
    assert [i["n"] for i in page1["items"]] == list(range(1, 26))
    assert page1["more"] == 95 and page1["next"] == "offset=25"
    page2 = await ok(tool_ctx, "browser_list_interactives", limit=25, offset=25, ids=True)
    assert [i["n"] for i in page2["items"]] == list(range(26, 51))
    assert page2["offset"] == 25
    last = await ok(tool_ctx, "browser_list_interactives", limit=25, offset=100, ids=True)
    assert [i["n"] for i in last["items"]] == list(range(101, 121)) and "more" not in last
    everything = await ok(tool_ctx, "browser_list_interactives", limit=120, ids=True)
    ids = [i["id"] for i in everything["items"]]
    assert len(set(ids)) == 120
    # Pages are slices of the same full order.
    assert ids[25:50] == [i["id"] for i in page2["items"]]
    assert ids[100:] == [i["id"] for i in last["items"]]
    # Numbers belong to the latest listing: 30 is not in a listing of 101..120.
    await ok(tool_ctx, "browser_list_interactives", limit=25, offset=100)
    await fails(tool_ctx, "browser_overlay_act", "BROWSER_STALE_INDEX", index=30)


async def test_viewport_first_then_below(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/large?n=300")
    data = await ok(tool_ctx, "browser_list_interactives", limit=300, boxes=True)
    items = data["items"]
    assert all("in_viewport" not in i and "id" not in i for i in items)  # said once, and ids only when asked
    first_off = data["off_screen_from"] - 1
    height = data["viewport"][1]
    # Every item before off_screen_from is in the viewport, it and every later one is below it.
    assert first_off > 0 and all(i["box"][1] < height for i in items[:first_off])
    assert all(i["box"][1] >= height for i in items[first_off:])
    # Reading order inside the viewport: Link 1, Button 2, Input 3… left to right, row by row.
    assert [i["name"] for i in items[:5]] == ["Link 1", "Button 2", "Input 3", "Select 4", "Checkbox 5"]
    in_view = await ok(tool_ctx, "browser_list_interactives", scope="viewport", limit=300)
    assert in_view["total"] == first_off
    # After scrolling to the bottom, the bottom items come first.
    await ok(tool_ctx, "browser_scroll", to="bottom")
    data = await ok(tool_ctx, "browser_list_interactives", limit=300, boxes=True)
    items = data["items"]
    assert data["off_screen_from"] > 1 and int(items[0]["name"].split()[-1]) > 150
    # What was scrolled past comes last (above the viewport now), still in page order.
    assert items[-1]["n"] >= data["off_screen_from"] and items[-1]["box"][1] < 0 and items[-1]["name"] != "Link 1"
    # A window further on says where off-screen starts within it: its first item.
    tail = await ok(tool_ctx, "browser_list_interactives", limit=10, offset=290)
    assert tail["off_screen_from"] == 291
    assert [i["name"] for i in items].index("Link 1") > [i["name"] for i in items].index(items[0]["name"])


async def test_hidden_elements_are_not_listed(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/shadow")
    await tool_ctx.session.page.evaluate(
        """() => { const m = document.querySelector('main');
          m.insertAdjacentHTML('beforeend', '<button style="display:none">Gone</button>' +
            '<button style="visibility:hidden">Invisible</button><div hidden><a href="/">Hidden link</a></div>' +
            '<div inert><button>Inert</button></div><button style="width:0;height:0;padding:0;border:0">' +
            '</button><div onclick="void 0">Clickable div</div>'); }"""
    )
    names = [i["name"] for i in await listed(tool_ctx)]
    assert "Clickable div" in names
    for hidden in ("Gone", "Invisible", "Hidden link", "Inert"):
        assert hidden not in names


async def test_banner_buttons_come_first_and_covered_items_say_so(
    tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/")  # the home page greets with a consent banner
    data = await ok(tool_ctx, "browser_list_interactives")
    first_two = data["items"][:2]
    assert all("covered" not in i for i in first_two)
    in_view = data["items"][2:data.get("off_screen_from", len(data["items"]) + 1) - 1]
    assert in_view and all(i.get("covered") for i in in_view)
    assert any("dialog" in c for c in data["covered_by"])
    clicked = await ok(tool_ctx, "browser_overlay_act", index=first_two[0]["n"])
    assert clicked["element_gone"] or clicked.get("element")
    after = await ok(tool_ctx, "browser_list_interactives")
    assert "covered_by" not in after


async def test_scope_by_container_name_role_and_errors(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense/multilang")
    ru = await ok(tool_ctx, "browser_list_interactives", scope="контактные ДАННЫЕ")
    assert [i["name"] for i in ru["items"]] == ["Имя", "Фамилия", "Город", "Электронная почта", "Отправить"]
    assert ru["scope"] == "контактные ДАННЫЕ"
    zh = await ok(tool_ctx, "browser_list_interactives", scope="联系信息")
    assert [i["name"] for i in zh["items"]] == ["姓名", "城市", "电子邮件", "提交"]
    # Numbers are positions in the scoped order.
    assert [i["n"] for i in zh["items"]] == [1, 2, 3, 4]
    missing = await fails(tool_ctx, "browser_list_interactives", "BROWSER_ELEMENT_NOT_FOUND", scope="Shipping")
    assert "Contact details" in missing["error"]
    await open_page(tool_ctx, demo_site.base_url + "/frames")
    frames = await ok(tool_ctx, "browser_list_interactives")
    label = by_name(frames["items"], "Cross field")["frame"]
    only = await ok(tool_ctx, "browser_list_interactives", scope=label)
    assert [i["name"] for i in only["items"]] == ["Cross field", "Cross-origin button"]
    await open_page(tool_ctx, demo_site.base_url + "/?x=1")
    dialog = await ok(tool_ctx, "browser_list_interactives", scope="dialog")
    assert len(dialog["items"]) == 2


async def test_bad_arguments_name_the_field(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    bad = await fails(tool_ctx, "browser_list_interactives", "BROWSER_INVALID_ARGS", limit=0)
    assert bad["data"]["fields"] == ["limit"] and "limit" in bad["error"]
    bad = await fails(tool_ctx, "browser_list_interactives", "BROWSER_INVALID_ARGS", offset=-3)
    assert bad["data"]["fields"] == ["offset"]
    bad = await fails(tool_ctx, "browser_list_interactives", "BROWSER_INVALID_ARGS", selector="#main")
    assert bad["data"]["fields"] == ["selector"]


async def test_an_empty_page_gives_empty_answers(tool_ctx: ToolContext) -> None:
    await open_page(tool_ctx, "about:blank")
    data = await ok(tool_ctx, "browser_list_interactives")
    assert data == {"items": [], "total": 0}
    shown = await ok(tool_ctx, "browser_overlay_show")
    assert shown["shown"] == 0 and shown["numbers"] == "none"
    assert (await ok(tool_ctx, "browser_find", text="anything"))["count"] == 0
    assert (await ok(tool_ctx, "browser_focus_next"))["found"] is False
    await fails(tool_ctx, "browser_overlay_act", "BROWSER_STALE_INDEX", index=1)


async def test_boxes_on_request_are_where_the_elements_are(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/frames")
    plain = await ok(tool_ctx, "browser_list_interactives")
    assert all("box" not in i for i in plain["items"]) and "viewport" not in plain  # the agent's listing stays short
    data = await ok(tool_ctx, "browser_list_interactives", boxes=True)
    assert data["viewport"] == [1280, 800]
    page = tool_ctx.session.page
    outer = by_name(data["items"], "Outer button")
    real = await page.get_by_role("button", name="Outer button").bounding_box()
    assert real is not None and outer["box"] == [round(real[k], 1) for k in ("x", "y", "width", "height")]
    # An element inside a frame: its box is in the top page's viewport, as a screenshot shows it.
    inner = by_name(data["items"], "Inner name")
    frame_box = await page.frame_locator("iframe").first.get_by_role("textbox", name="Inner name").bounding_box()
    assert frame_box is not None
    assert all(abs(a - frame_box[k]) <= 1 for a, k in zip(inner["box"], ("x", "y", "width", "height"), strict=True))
