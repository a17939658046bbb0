"""Icon-only controls with script-attached click listeners are listed with a guessed name, said to be guessed;
tree items and disclosure buttons say whether they are expanded."""

from __future__ import annotations

from playwright.async_api import Route

from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.listing import list_interactives

_CARD = """<html><body><article style="width:400px">
  <p>Great news, everyone.</p>
  <div class="actions">
    <img id="reply" src="/static/icons/reply-arrow.svg" width="20" height="20">
    <span class="icon icon-heart" style="display:inline-block;width:20px;height:20px;background:red"></span>
    <i class="fa fa-ellipsis-h" title="More" style="display:inline-block;width:20px;height:20px"></i>
    <span class="decor" style="display:inline-block;width:20px;height:20px;background:blue"></span>
  </div></article>
  <script>
    for (const sel of ["#reply", ".icon-heart", ".fa-ellipsis-h"]) {
      document.querySelector(sel).addEventListener("click", () => { document.title = sel; });
    }
  </script></body></html>"""

_TREE = """<html><body>
  <ul role="tree" aria-label="Files">
    <li role="treeitem" aria-expanded="true" tabindex="0">src
      <ul role="group"><li role="treeitem" tabindex="-1">main.py</li></ul></li>
    <li role="treeitem" aria-expanded="false" tabindex="-1">docs</li>
  </ul>
  <button aria-expanded="false" aria-controls="more">Show details</button><div id="more" hidden>Details</div>
  <details open><summary>Shipping</summary>Two days.</details>
</body></html>"""


async def _open(session: BrowserSession, html: str) -> None:
    async def fulfil(route: Route) -> None:
        if route.request.url.endswith(".svg"):
            await route.fulfill(status=200, content_type="image/svg+xml",
                                body="<svg xmlns='http://www.w3.org/2000/svg' width='20' height='20'>"
                                     "<rect width='20' height='20'/></svg>")
        else:
            await route.fulfill(status=200, content_type="text/html", body=html)

    await session.page.route("http://social.test/**", fulfil)
    await session.page.goto("http://social.test/", wait_until="load")
    await session.page.unroute("http://social.test/**")


async def test_icon_only_controls_with_click_listeners_are_listed_with_guessed_names(
        session: BrowserSession) -> None:
    await _open(session, _CARD)
    listing = await list_interactives(session, limit=40)
    got = {(i.role, i.name, i.name_guessed) for i in listing.items}
    assert got == {("clickable", "reply arrow", True), ("clickable", "heart", True), ("clickable", "More", False)}
    # The candidates handed to the page world's listener check, right behind the walk, are taken off <html> again.
    assert await session.page.evaluate("document.documentElement.hasAttribute('data-blind-icons')") is False
    # Listed means operable: the number leads to the element whose listener runs.
    heart = next(i for i in listing.items if i.name == "heart")
    await session.page.locator(f'[data-blind-id="{heart.blind_id}"]').click()
    assert await session.page.title() == ".icon-heart"


async def test_tree_items_and_disclosures_say_expanded_or_collapsed(session: BrowserSession) -> None:
    await _open(session, _TREE)
    listing = await list_interactives(session, limit=40)
    state = {i.name.split()[0]: i.state.get("expanded") for i in listing.items}
    assert state["src"] is True and state["docs"] is False
    assert state["Show"] is False and state["Shipping"] is True


_BARE = """<html><body>
  <p id="vol">Volume</p>
  <div aria-labelledby="vol"><span tabindex="0" class="knob-handle ui-corner-all ui-state-default">&nbsp;</span></div>
  <div aria-label="Formatting">
    <span tabindex="0" class="bold-toggle ui-corner-all ui-state-default">&nbsp;</span>
    <span tabindex="0" class="italic-toggle ui-corner-all ui-state-default">&nbsp;</span>
  </div>
</body></html>"""


async def test_bare_focusable_controls_get_guessed_names(session: BrowserSession) -> None:
    """A nameless focusable element alone in a container the page labelled takes that label (with what its
    class words say it is); beside other controls it is named by its class words alone. The styling words that
    the page puts on many elements (ui-corner-all, ui-state-default here) are left out: few elements carry the
    words that say what a control is."""
    await _open(session, _BARE)
    listing = await list_interactives(session, limit=40)
    got = [(i.role, i.name, i.name_guessed) for i in listing.items]
    assert got == [("focusable", "Volume (knob handle)", True), ("focusable", "bold toggle", True),
                   ("focusable", "italic toggle", True)]


_PICTURE_LABELS = """<html><body><form method="get">
  <label for="searchbar"><img src="/static/icons/search.svg" alt="Search"></label>
  <input type="text" size="40" name="q" id="searchbar">
  <label><img src="/static/icons/calendar.svg" alt="Due date"> <input type="date" name="due"></label>
  <input type="submit" value="Search">
</form></body></html>"""


async def test_a_label_that_is_only_a_picture_names_its_control_by_the_alt(session: BrowserSession) -> None:
    """A magnifier icon with alt="Search" as the search box's whole <label> (Django admin's changelist): the
    accessible name is "Search", as Playwright's get_by_role("textbox", name="Search") finds it; not a name guessed
    from name="q"."""
    await _open(session, _PICTURE_LABELS)
    listing = await list_interactives(session, limit=40)
    got = {(i.role, i.name, i.name_guessed) for i in listing.items if i.role != "button"}
    assert got == {("textbox", "Search", False), ("textbox", "Due date", False)}, got


_CLONED_ROW = """<html><body><form method="post">
  <div class="row" id="lines-0"><div class="form-group"><label for="lines-0-description">Description</label>
    <input type="text" id="lines-0-description" name="lines-0-description"></div></div>
  <div class="row" id="lines-1"><div class="form-group"><label for="description">Description
      <strong>*</strong></label>
    <input type="text" id="lines-1-description" name="lines-1-description"></div></div>
  <div class="row"><label>Notes</label><input type="text" name="a"><input type="text" name="b"></div>
</form></body></html>"""


async def test_a_field_of_a_cloned_row_is_named_by_the_label_beside_it(session: BrowserSession) -> None:
    """A row added from a template keeps the template label's `for`, which names no element: the field has no
    accessible name, and the guess is the label a person reads above it, not its form field name. Two fields
    beside one such label get no name from it (the words could be for either)."""
    await _open(session, _CLONED_ROW)
    listing = await list_interactives(session, limit=40)
    got = [(i.role, i.name, i.name_guessed) for i in listing.items]
    assert got[:2] == [("textbox", "Description", False), ("textbox", "Description *", True)], got
    assert [name for _, name, _ in got[2:]] == ["a", "b"], got


async def test_a_new_site_in_the_same_tab_gets_its_icons_checked_behind_the_first_walk(
        session: BrowserSession) -> None:
    """A cross-site navigation moves the tab to a new renderer process, which numbers its execution contexts from
    the start again: the new document's world can have the id of the old one. It holds none of our functions, so
    its first listing must send them, not a key first (the extra round trip let the listener check run before the
    walk that marks the candidates, leaving the mark on the page's <html> and the check to a second call)."""
    for site in ("http://social.test/", "http://other.test/", "http://social.test/"):
        async def fulfil(route: Route) -> None:
            await route.fulfill(status=200, content_type="text/html", body=_CARD.replace('src="/static', 'src="data:,'))

        await session.page.route(f"{site}**", fulfil)
        await session.page.goto(site, wait_until="load")
        await session.page.unroute(f"{site}**")
        listing = await list_interactives(session, limit=40)
        assert {i.name for i in listing.items} == {"reply arrow", "heart", "More"}, site
        assert await session.page.evaluate("document.documentElement.hasAttribute('data-blind-icons')") is False, site
