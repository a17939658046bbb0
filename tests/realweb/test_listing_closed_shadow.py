"""Controls inside closed shadow roots (which page JavaScript, ours included, cannot see) are listed: DevTools'
DOM domain pierces them and hands the roots to the listing's isolated world. Nested closed roots too, and a
closed root attached after an earlier listing is found by the next one."""

from __future__ import annotations

from playwright.async_api import Route

from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.listing import list_interactives

_PAGE = """<html><body>
<a href="#top">Top</a>
<fancy-card></fancy-card>
<plain-tag><a href="#light">Light link</a></plain-tag>
<script>
  customElements.define("inner-widget", class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: "closed" });
      root.innerHTML = '<a href="#details">Details</a>';
    }
  });
  customElements.define("fancy-card", class extends HTMLElement {
    constructor() {
      super();
      const root = this.attachShadow({ mode: "closed" });
      root.innerHTML = '<button id="buy">Buy</button> <inner-widget></inner-widget>';
      root.getElementById("buy").addEventListener("click", () => { document.title = "bought"; });
    }
  });
  window.addLater = () => {
    const host = document.createElement("div");
    host.attachShadow({ mode: "closed" }).innerHTML = "<p>ignored</p>";
    const late = document.createElement("late-box");
    late.attachShadow({ mode: "closed" }).innerHTML = '<input aria-label="Late field">';
    document.body.append(host, late);
  };
</script></body></html>"""


async def test_controls_in_closed_shadow_roots_are_listed(session: BrowserSession) -> None:
    page = session.page
    await page.set_content(_PAGE)
    assert await page.evaluate("document.querySelector('fancy-card').shadowRoot") is None  # closed indeed
    listing = await list_interactives(session, limit=40)
    assert [(i.role, i.name) for i in listing.items] == [
        ("link", "Top"), ("button", "Buy"), ("link", "Details"), ("link", "Light link")]
    # The next listing still walks them (the roots stay with the isolated world for this document).
    again = await list_interactives(session, limit=40)
    assert [i.name for i in again.items] == ["Top", "Buy", "Details", "Light link"]
    # A closed root attached to a new custom element after that is found by the next listing.
    await page.evaluate("window.addLater()")
    later = await list_interactives(session, limit=40)
    assert [(i.role, i.name) for i in later.items][-1] == ("textbox", "Late field")


async def test_the_second_walk_into_closed_roots_does_not_flag_their_controls_new(session: BrowserSession) -> None:
    page = session.page

    async def serve(route: Route) -> None:
        await route.fulfill(status=200, content_type="text/html", body=_PAGE)

    await page.route("http://closed.test/**", serve)
    await page.goto("http://closed.test/", wait_until="load")  # a fresh document: no listing before
    await page.unroute("http://closed.test/**")
    first = await list_interactives(session, limit=40)
    assert [i.name for i in first.items if i.new] == []  # a first look has nothing to compare with
    await page.evaluate("window.addLater()")
    later = await list_interactives(session, limit=40)
    # Only the field attached since the previous listing is new, though its root took a second walk to reach.
    assert [i.name for i in later.items if i.new] == ["Late field"]
