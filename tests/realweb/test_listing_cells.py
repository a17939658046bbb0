"""Names as a person reads them in tables and composite widgets (issue 34 item 1), and controls a focusable container
holds (item 2), in real Chromium:

- a field in a table cell with no label of its own is named by its column's header, as a screen reader announces it
  (a tabular inline's "Описание"), never by a guess from its markup name ("lines description"); its row is its `in`;
- the text box of a combobox (a search box, a read-only shown choice inside it) is named by that combobox, not by
  class words nobody sees;
- an element focusable only for keyboard users (a scrolling region with tabindex=0 around a table) does not swallow
  the row actions inside it that only a pointer cursor and a click listener mark.
"""

from __future__ import annotations

from pathlib import Path

from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.listing import list_interactives
from browserops.config import Settings
from browserops.tools.context import ToolContext
from tests.calls import call_tool

# A tabular inline as Django's admin draws one (unfold's markup reduced: header cells hold the column title and a
# required mark; data cells hold fields with only a name attribute), two lines, then a change list whose data rows
# start with a <th> (Django's first column), and a grid whose header is a table of its own above the body's.
_INLINE = """<html lang="ru"><body>
<h2>Позиции</h2>
<table>
  <thead><tr><th></th><th>Описание<span>*</span></th><th>Количество</th><th colspan="2">Цена</th></tr></thead>
  <tbody>
    <tr><td><p>Бумага А4</p></td><td><input type="text" name="lines-0-description" value="Бумага А4"></td>
        <td><input type="number" name="lines-0-quantity" value="10"></td>
        <td><input type="number" name="lines-0-price" value="5"></td><td>₽</td></tr>
    <tr><td><p>Скрепки</p></td><td><input type="text" name="lines-1-description" value="Скрепки"></td>
        <td><input type="number" name="lines-1-quantity" value="3"></td>
        <td><input type="number" name="lines-1-price" value="2"></td><td>₽</td></tr>
  </tbody>
</table>
<table>
  <tr><th>Номер</th><th>Срочный</th></tr>
  <tr><th scope="row">З-1001</th><td><input type="checkbox" name="urgent-1"></td></tr>
  <tr><th scope="row">З-1002</th><td><input type="checkbox" name="urgent-2"></td></tr>
</table>
<div>
  <div><table><thead><tr><th>物料名称</th><th>数量</th></tr></thead></table></div>
  <div><table><tbody><tr><td><input type="text" value="纸箱"></td><td><input type="number" value="5"></td></tr>
  </tbody></table></div>
</div>
<table><tr><td><input type="text" name="orphan_note"></td></tr></table>
</body></html>"""


async def test_a_field_in_a_table_cell_is_named_by_its_column_header(session: BrowserSession) -> None:
    await session.page.set_content(_INLINE)
    items = (await list_interactives(session, limit=80)).items
    fields = [(i.role, i.name, i.within.name if i.within else None, i.name_guessed) for i in items
              if i.role in ("textbox", "spinbutton", "checkbox")]
    assert fields == [
        # The header's words as shown (the required mark too, as a label's); the row a person reads it in.
        ("textbox", "Описание*", "Бумага А4 ₽", False), ("spinbutton", "Количество", "Бумага А4 ₽", False),
        ("spinbutton", "Цена", "Бумага А4 ₽", False),  # a header spanning two columns names the field under either
        ("textbox", "Описание*", "Скрепки ₽", False), ("spinbutton", "Количество", "Скрепки ₽", False),
        ("spinbutton", "Цена", "Скрепки ₽", False),
        # A change list's data rows start with a header cell of their own (scope=row): they are no header row.
        ("checkbox", "Срочный", "З-1001", False), ("checkbox", "Срочный", "З-1002", False),
        # A header drawn as a table of its own just above the body's (a fixed-header grid).
        ("textbox", "物料名称", None, False), ("spinbutton", "数量", None, False),
        # A cell under no header (a table used for layout) keeps the guess from its markup it had.
        ("textbox", "orphan note", None, True),
    ], fields


async def test_the_text_box_of_a_combobox_is_named_by_the_combobox(session: BrowserSession) -> None:
    """Select2's markup: the <select> it replaced (labelled), its combobox, inside it a read-only text box showing the
    choice (single) or the search box one types into (multiple), whose class names say "rendered", "search"."""
    await session.page.set_content("""
<label for="id_client">Клиент</label>
<select id="id_client" aria-hidden="true" tabindex="-1"
  style="position:absolute;width:1px;height:1px;clip:rect(0 0 0 0)">
  <option></option></select><span class="s2 s2-container"><span class="selection"><span class="s2-selection
  s2-selection--single" role="combobox" tabindex="0" aria-expanded="false" style="display:inline-block;width:180px;
  height:30px;border:1px solid"><span class="s2-selection__rendered" role="textbox" aria-readonly="true"
  style="display:inline-block;width:150px;height:20px"></span></span>
  </span></span>
<label for="id_tags">Метки</label>
<select id="id_tags" multiple aria-hidden="true" tabindex="-1" style="position:absolute;width:1px;height:1px;
  clip:rect(0 0 0 0)"></select><span class="s2 s2-container"><span class="selection"><span class="s2-selection
  s2-selection--multiple" role="combobox" aria-expanded="false" style="display:inline-block;width:180px;height:30px;
  border:1px solid"><ul class="s2-selection__rendered" style="margin:0"><li class="s2-search"><input
  class="s2-search__field" type="search" role="searchbox" autocomplete="off" style="width:60px"></li></ul></span>
  </span></span>""")
    items = (await list_interactives(session, limit=40)).items
    assert [(i.role, i.name, i.name_guessed) for i in items] == [
        ("combobox", "Клиент", False), ("textbox", "Клиент", False),
        ("combobox", "Метки", False), ("searchbox", "Метки", False)], items


# A change list in a scrolling region a custom scrollbar made focusable (tabindex=0, role=region); each row's action
# menu opener is a <span> with a pointer cursor and a script's click listener, its icon drawn by a ligature font.
_ROWS = """<div role="region" aria-label="scrollable content" tabindex="0" style="overflow:hidden">
<table>
  <tr><th>Номер</th><th></th></tr>
  <tr><th scope="row">З-1001</th><td><span class="opener" style="cursor:pointer">more_horiz</span></td></tr>
  <tr><th scope="row">З-1002</th><td><span class="opener" style="cursor:pointer">more_horiz</span></td></tr>
</table></div>
<p id="out"></p>
<script>
  document.querySelectorAll(".opener").forEach((el) => el.addEventListener("click", () => {
    document.getElementById("out").textContent = "menu of " + el.closest("tr").querySelector("th").textContent;
  }));
</script>"""


async def test_a_focusable_scroll_region_does_not_swallow_its_row_actions(session: BrowserSession,
                                                                         tmp_path: Path) -> None:
    await session.page.set_content(_ROWS)
    ctx = ToolContext(session=session, settings=Settings(), workspace=tmp_path)
    result = await call_tool("browser_list_interactives", ctx, {"format": "objects"})
    assert result["status"] == "ok", result
    openers = [i for i in result["data"]["items"] if i["name"] == "more_horiz"]
    assert [(i["role"], i.get("in")) for i in openers] == [("clickable", "З-1001"), ("clickable", "З-1002")], result
    assert any(i["role"] == "region" for i in result["data"]["items"])  # the region itself stays focusable
    acted = await call_tool("browser_overlay_act", ctx, {"index": openers[1]["n"], "action": "click"})
    assert acted["status"] == "ok", acted
    assert await session.page.locator("#out").inner_text() == "menu of З-1002"
