"""Acting by number on controls inside closed shadow roots, through the tool catalogue: page JavaScript (ours
included) and Playwright's locators cannot see into a closed root, so the element is found in the listing's
isolated world (which DevTools handed the roots) and Playwright acts on a handle of it."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Route

from browserops.browser.numbering.elements import latest_listing
from browserops.tools.context import ToolContext
from tests.tools.helpers import by_name, fails, listed, ok

_URL = "http://closed-act.test/"
_PAGE = """<html><body>
<a href="#top">Top</a>
<p id="out">nothing yet</p>
<act-shop-card></act-shop-card>
<script>
  const out = (text) => { document.getElementById("out").textContent = text; };
  customElements.define("act-inner-link", class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: "closed" });
      root.innerHTML = '<a href="#details">Details</a>';
    }
  });
  customElements.define("act-shop-card", class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: "closed" });
      root.innerHTML = '<button id="buy">Buy</button> <label>Quantity <input id="qty"></label> '
        + '<label>Size <select id="size"><option>Small</option><option>Large</option></select></label> '
        + '<button id="gone">Soon gone</button> <act-inner-link></act-inner-link> '
        + '<div role="combobox" id="color" aria-label="Colour" tabindex="0" aria-expanded="false" '
        + 'aria-controls="colors">Colour</div> <label>Receipt <input type="file" id="receipt"></label>'
        + '<ul role="listbox" id="colors" hidden><li role="option">Red</li><li role="option">Green</li></ul>';
      root.getElementById("buy").addEventListener("click", () => { document.title = "bought"; });
      // The page's own handler reports what the closed field holds (the page can read its own root).
      root.getElementById("qty").addEventListener("input", (e) => out("qty=" + e.target.value));
      root.getElementById("size").addEventListener("change", (e) => out("size=" + e.target.value));
      window.removeGone = () => root.getElementById("gone").remove();
      const color = root.getElementById("color");
      const colors = root.getElementById("colors");
      color.addEventListener("click", () => { colors.hidden = false; color.setAttribute("aria-expanded", "true"); });
      colors.addEventListener("click", (e) => {
        color.textContent = e.target.textContent;
        colors.hidden = true;
        color.setAttribute("aria-expanded", "false");
        out("colour=" + e.target.textContent);
      });
      color.addEventListener("keydown", (e) => out("key=" + e.key));
      root.getElementById("receipt").addEventListener("change", (e) => out("file=" + e.target.files[0].name));
    }
  });
  // A fixed bar over the whole card, put there by the test: the card's controls are covered.
  window.coverCard = () => {
    const bar = document.createElement("div");
    bar.textContent = "Cookie notice";
    bar.style.cssText = "position:fixed;inset:0;background:#fff;z-index:10";
    document.body.append(bar);
  };
</script></body></html>"""


async def _navigate_to(tool_ctx: ToolContext, html: str) -> None:
    """``html`` in a document of its own (custom element names are defined once per window)."""
    page = tool_ctx.session.page

    async def serve(route: Route) -> None:
        await route.fulfill(status=200, content_type="text/html", body=html)

    await page.route(_URL, serve)
    try:
        await ok(tool_ctx, "browser_navigate", url=_URL)
    finally:
        await page.unroute(_URL)


async def _open(tool_ctx: ToolContext) -> list[dict[str, Any]]:
    page = tool_ctx.session.page
    await _navigate_to(tool_ctx, _PAGE)
    assert await page.evaluate("document.querySelector('act-shop-card').shadowRoot") is None  # closed indeed
    return await listed(tool_ctx)


async def test_click_a_button_inside_a_closed_shadow_root_by_number(tool_ctx: ToolContext) -> None:
    items = await _open(tool_ctx)
    clicked = await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Buy")["n"], action="click")
    assert clicked["target"]["name"] == "Buy" and clicked["element"]["role"] == "button"
    assert await tool_ctx.session.page.title() == "bought"


async def test_type_into_a_field_inside_a_closed_shadow_root(tool_ctx: ToolContext) -> None:
    items = await _open(tool_ctx)
    typed = await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Quantity")["n"], action="type",
                     text="3 шт")
    assert typed["value"] == "3 шт" and typed["matches"] is True
    assert typed["element"]["state"].get("focused") is True
    page = tool_ctx.session.page
    assert await page.locator("#out").inner_text() == "qty=3 шт"
    # Typing again replaces the content (it is selected first), as in any field.
    await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Quantity")["n"], action="type", text="7")
    assert await page.locator("#out").inner_text() == "qty=7"


@pytest.mark.parametrize(("field", "text", "chosen", "shown"), [
    ("Size", "large", "Large", "size=Large"),  # a native <select>
    ("Colour", "Green", "Green", "colour=Green"),  # a custom combobox with a popup list
])
async def test_choose_an_option_inside_a_closed_shadow_root(tool_ctx: ToolContext, field: str, text: str,
                                                           chosen: str, shown: str) -> None:
    items = await _open(tool_ctx)
    result = await ok(tool_ctx, "browser_overlay_act", index=by_name(items, field)["n"], action="select", text=text)
    assert result["chosen"] == chosen
    assert await tool_ctx.session.page.locator("#out").inner_text() == shown


async def test_follow_a_link_in_a_nested_closed_shadow_root(tool_ctx: ToolContext) -> None:
    items = await _open(tool_ctx)
    await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Details")["n"], action="click")
    assert tool_ctx.session.page.url.endswith("#details")


async def test_a_removed_element_inside_a_closed_root_is_a_stale_number(tool_ctx: ToolContext) -> None:
    items = await _open(tool_ctx)
    gone = by_name(items, "Soon gone")
    await tool_ctx.session.page.evaluate("window.removeGone()")
    failed = await fails(tool_ctx, "browser_overlay_act", "BROWSER_STALE_INDEX", index=gone["n"], action="click")
    assert "no longer on the page" in failed["error"]
    listing = latest_listing(tool_ctx.session)
    assert listing is not None
    item = listing.by_number(gone["n"])
    assert item is not None
    await fails(tool_ctx, "browser_act_by_index", "BROWSER_ELEMENT_NOT_FOUND", id=item.blind_id, action="click")


async def test_press_a_key_on_an_element_inside_a_closed_shadow_root(tool_ctx: ToolContext) -> None:
    items = await _open(tool_ctx)
    colour = by_name(items, "Colour")["n"]
    pressed = await ok(tool_ctx, "browser_press", key="ArrowDown", id=colour)
    assert pressed["target"]["name"] == "Colour"
    # Where the focus is now is told from inside the closed root, not as its host.
    assert pressed["focused"]["n"] == colour and pressed["focused"]["name"] == "Colour"
    assert await tool_ctx.session.page.locator("#out").inner_text() == "key=ArrowDown"


async def test_a_covered_control_inside_a_closed_shadow_root_is_refused_as_any_other(tool_ctx: ToolContext) -> None:
    items = await _open(tool_ctx)
    await tool_ctx.session.page.evaluate("window.coverCard()")
    failed = await fails(tool_ctx, "browser_overlay_act", "BROWSER_ACTION_FAILED", index=by_name(items, "Buy")["n"],
                         action="click")
    assert "is covered by div" in failed["error"]
    assert await tool_ctx.session.page.title() != "bought"


_FRAMED = """<html><body><p>Outer</p>
<iframe srcdoc='<html><body><act-framed-card></act-framed-card><script>
  customElements.define("act-framed-card", class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: "closed" });
      root.innerHTML = "<button>Order</button>";
      root.querySelector("button").addEventListener("click", () => { parent.document.title = "ordered"; });
    }
  });
</script></body></html>'></iframe></body></html>"""


async def test_click_inside_a_closed_shadow_root_in_a_child_frame(tool_ctx: ToolContext) -> None:
    page = tool_ctx.session.page
    await _navigate_to(tool_ctx, _FRAMED)
    order = by_name(await listed(tool_ctx), "Order")
    assert order.get("frame")  # listed in the child frame
    await ok(tool_ctx, "browser_overlay_act", index=order["n"], action="click")
    assert await page.title() == "ordered"


async def test_controls_inside_closed_shadow_roots_get_badges(tool_ctx: ToolContext) -> None:
    items = await _open(tool_ctx)
    shown = await ok(tool_ctx, "browser_overlay_show")
    assert shown["shown"] == len(items) and "missing" not in shown, shown
    # Buy's badge (its element is inside the closed root) is drawn at its top-left corner, which is the card's.
    page = tool_ctx.session.page
    badge = await page.evaluate("""(n) => {
      const b = document.querySelector("browserops-overlay").shadowRoot.querySelector(`[data-n="${n}"]`);
      return b && !b.hidden ? [parseFloat(b.style.left), parseFloat(b.style.top)] : null; }""",
                                by_name(items, "Buy")["n"])
    card = await page.locator("act-shop-card").bounding_box()
    assert badge is not None and card is not None
    assert abs(badge[0] - (card["x"] - 8)) < 4 and abs(badge[1] - (card["y"] - 10)) < 4, (badge, card)
    hidden = await ok(tool_ctx, "browser_overlay_hide")
    assert hidden["removed"] >= 1


async def test_quick_navigation_moves_into_closed_shadow_roots(tool_ctx: ToolContext) -> None:
    items = await _open(tool_ctx)
    moved = await ok(tool_ctx, "browser_focus_next", role="button")
    assert moved["found"] is True and moved["focused"] is True
    assert moved["element"]["name"] == "Buy" and moved["element"]["n"] == by_name(items, "Buy")["n"]
    field = await ok(tool_ctx, "browser_focus_next", role="field")
    assert field["element"]["name"] == "Quantity"
    await ok(tool_ctx, "browser_press", key="9")
    assert await tool_ctx.session.page.locator("#out").inner_text() == "qty=9"


async def test_upload_into_a_file_field_inside_a_closed_shadow_root(tool_ctx: ToolContext) -> None:
    items = await _open(tool_ctx)
    (tool_ctx.workspace / "receipt.txt").write_text("12.50 EUR", encoding="utf-8")
    uploaded = await ok(tool_ctx, "browser_upload", id=by_name(items, "Receipt")["n"], files=["receipt.txt"])
    assert uploaded["via"] == "file input" and uploaded["input_file_count"] == 1
    assert await tool_ctx.session.page.locator("#out").inner_text() == "file=receipt.txt"


async def test_inspect_reads_controls_inside_closed_shadow_roots(tool_ctx: ToolContext) -> None:
    items = await _open(tool_ctx)
    buy = await ok(tool_ctx, "browser_inspect", id=by_name(items, "Buy")["n"])
    assert (buy["role"], buy["name"]) == ("button", "Buy")
    await ok(tool_ctx, "browser_overlay_act", index=by_name(items, "Quantity")["n"], action="type", text="2")
    focused = await ok(tool_ctx, "browser_inspect")  # the focused element: the field, not the card hosting it
    assert (focused["role"], focused["name"]) == ("textbox", "Quantity")
