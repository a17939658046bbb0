"""A list box (``<select multiple>`` or ``size`` > 1) shows its options on screen: each is listed as an option
with its text as name and whether it is selected, as Chromium's accessibility tree has them; a drop-down's
options (shown only when opened) are not."""

from __future__ import annotations

from pathlib import Path

from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.listing import list_interactives
from browserops.config import Settings
from browserops.tools.context import ToolContext
from tests.calls import call_tool

_PAGE = """<label for="ed">Editions</label>
<select id="ed" multiple size="3">
  <option selected>Global</option><option>Germany</option><option disabled>U.S.</option>
</select>
<label for="one">Size</label>
<select id="one"><option>Small</option><option>Large</option></select>"""


async def test_list_box_options_are_listed_with_their_selection(session: BrowserSession) -> None:
    await session.page.set_content(_PAGE)
    listing = await list_interactives(session, limit=40)
    assert [(i.role, i.name, i.state) for i in listing.items] == [
        # A list box that takes several reports every pick (the diff and staleness compare them as a set).
        ("listbox", "Editions", {"value": "Global", "values": ["Global"]}),
        ("option", "Global", {"selected": True}),
        ("option", "Germany", {}),
        ("option", "U.S.", {"disabled": True}),
        ("combobox", "Size", {"value": "Small"}),
    ]


async def test_an_option_is_picked_by_number(session: BrowserSession, tmp_path: Path) -> None:
    await session.page.set_content(_PAGE)
    ctx = ToolContext(session=session, settings=Settings(), workspace=tmp_path)
    assert (await call_tool("browser_list_interactives", ctx, {}))["status"] == "ok"
    result = await call_tool("browser_overlay_act", ctx, {"index": 3, "action": "click"})
    assert result["status"] == "ok" and result["data"]["element"]["state"] == {"selected": True}
    assert await session.page.evaluate("[...document.querySelector('#ed').selectedOptions].map(o => o.text)") == [
        "Germany"]
