"""Suggestions of an ARIA-less autocomplete popup (the markup jQuery UI's autocomplete renders: a focusable
``<ul>`` floating over the page, ``<li>`` items with a ``tabindex=-1`` wrapper) are listed as options named by
their text, not as one nameless list."""

from __future__ import annotations

from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.listing import list_interactives

_PAGE = """<label for="tags">Tags</label> <input id="tags" autocomplete="off">
<script>
  const words = ["ActionScript", "AppleScript", "Asp", "BASIC"];
  const input = document.getElementById("tags");
  input.addEventListener("input", () => {
    document.querySelectorAll("ul.ui-autocomplete").forEach((u) => u.remove());
    const q = input.value.toLowerCase();
    const ul = document.createElement("ul");
    ul.className = "ui-menu ui-widget ui-autocomplete ui-front";
    ul.tabIndex = 0;
    ul.style.cssText = "position:absolute;top:40px;left:8px;list-style:none;margin:0;padding:2px;background:#fff";
    for (const w of words.filter((w) => w.toLowerCase().includes(q))) {
      const li = document.createElement("li");
      li.className = "ui-menu-item";
      const div = document.createElement("div");
      div.tabIndex = -1;
      div.className = "ui-menu-item-wrapper";
      div.textContent = w;
      div.addEventListener("click", () => { input.value = w; ul.remove(); });
      li.append(div);
      ul.append(li);
    }
    document.body.append(ul);
  });
</script>"""


async def test_autocomplete_suggestions_are_listed_as_options(session: BrowserSession) -> None:
    page = session.page
    await page.set_content(_PAGE)
    await page.get_by_label("Tags").press_sequentially("script")
    listing = await list_interactives(session, limit=40)
    assert [(i.role, i.name) for i in listing.items] == [
        ("textbox", "Tags"), ("option", "ActionScript"), ("option", "AppleScript")]
    # Picked by number: the option's element takes the click and the field ends holding the suggestion.
    apple = listing.items[2]
    await page.locator(f'[data-blind-id="{apple.blind_id}"]').click()
    assert await page.get_by_label("Tags").input_value() == "AppleScript"
