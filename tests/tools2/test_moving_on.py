"""A popup the focused field left open over the next element (browser/act/moving_on.py): left by Tab, the field read
back, never a modal, never a field whose value the leaving changed. The real kits are in tests/realweb/test_zoo.py
(Element Plus and antd date pickers) and the Element Plus corpus app; these pages pin the refusals."""

from __future__ import annotations

import pytest

from browserops.tools.context import ToolContext
from tests.tools.helpers import by_name, fails, listed, ok

# A date field whose panel (named by aria-controls, as Element Plus does) opens over the button below it while the
# field has the focus and closes when the focus leaves; what leaving does to the field is the page's `onLeave`.
_PAGE = """<!doctype html><html><body style="font-family:sans-serif">
<label for="day">Start date</label>
<input id="day" role="combobox" aria-haspopup="dialog" aria-expanded="false" aria-controls="panel">
<div id="panel" role="dialog" MODAL style="display:none;position:absolute;left:0;top:40px;width:300px;height:200px;
  background:#eee">calendar</div>
<p style="margin-top:60px"><button id="go" onclick="window.clicked = (window.clicked || 0) + 1">Add line</button></p>
<script>{  // a block: set_content keeps the window, and a second page's top-level const would clash
const day = document.getElementById("day"), panel = document.getElementById("panel");
window.clicked = 0;
const show = (open) => { panel.style.display = open ? "block" : "none"; day.setAttribute("aria-expanded", open); };
day.addEventListener("focus", () => show(true));
day.addEventListener("keydown", (e) => { if (e.key === "Tab") { LEAVE; show(false); } });
}</script></body></html>"""


def _page(*, modal: bool = False, leave: str = "") -> str:
    return _PAGE.replace("MODAL", 'aria-modal="true"' if modal else "").replace("LEAVE", leave or "0")


async def _typed_then_clicked(tool_ctx: ToolContext, html: str) -> tuple[int, int]:
    await tool_ctx.session.page.set_content(html)
    items = await listed(tool_ctx)
    day, go = by_name(items, "Start date"), by_name(items, "Add line")
    await ok(tool_ctx, "browser_overlay_act", index=day["n"], action="type", text="2026-11-02")
    shown = "getComputedStyle(document.getElementById('panel')).display"
    assert await tool_ctx.session.page.evaluate(shown) == "block"  # over the button
    return int(day["n"]), int(go["n"])


async def test_the_field_is_left_by_tab_and_keeps_its_value(tool_ctx: ToolContext) -> None:
    _, go = await _typed_then_clicked(tool_ctx, _page())
    data = await ok(tool_ctx, "browser_overlay_act", index=go, action="click")
    assert data["closed_popups"] == [{"field": 'combobox "Start date"', "how": "Tab", "kept_value": True}], data
    page = tool_ctx.session.page
    assert await page.evaluate("[window.clicked, document.getElementById('day').value]") == [1, "2026-11-02"]


@pytest.mark.parametrize(("modal", "leave", "said"), [
    (True, "", "is covered by dialog"),  # a modal is the person's to answer, not to leave
    (False, 'day.value = "2026-11-20"', "changed what it holds"),  # leaving took another value: stop, say so
])
async def test_a_modal_or_a_field_the_leaving_changed_stops_the_click(tool_ctx: ToolContext, modal: bool, leave: str,
                                                                      said: str) -> None:
    _, go = await _typed_then_clicked(tool_ctx, _page(modal=modal, leave=leave))
    result = await fails(tool_ctx, "browser_overlay_act", "BROWSER_ACTION_FAILED", index=go, action="click")
    assert said in result["error"], result
    assert "2026-11" not in result["error"]  # what the field holds is never said
    assert await tool_ctx.session.page.evaluate("window.clicked || 0") == 0
