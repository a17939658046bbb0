"""browser_form_check: what a form says is wrong, before its submit (by element) and on the page it led to (no id)."""

from __future__ import annotations

from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from tests.tools.helpers import by_name, listed, ok, open_page


async def test_the_form_of_an_element_then_the_fields_the_server_marked_invalid(
        tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    submit = by_name(await listed(tool_ctx), "Submit expense")
    before = await ok(tool_ctx, "browser_form_check", id=submit["n"])
    # The empty form: the browser's own validation refuses the required fields (the form says novalidate, so the
    # page's server answers instead); nothing is marked invalid by the page yet.
    assert not before["valid"] and {p["how"] for p in before["problems"]} == {"constraint"}
    assert (await ok(tool_ctx, "browser_form_check"))["problems"] == []
    clicked = await ok(tool_ctx, "browser_overlay_act", index=submit["n"], action="click")
    # The server answers the post with the form again, at the same address: a new document all the same, which the
    # click reports and waits for (read before it had loaded, the form showed no error: CI under load, once).
    assert clicked.get("navigated") is True and clicked["url"].endswith("/expense"), clicked
    after = await ok(tool_ctx, "browser_form_check")
    marked = {p["field"]: p["message"] for p in after["problems"]}
    assert {p["how"] for p in after["problems"]} == {"aria-invalid"}, after
    # Each field with the error text it is described by; the page's alert box is no field and is not listed.
    assert "Amount" in marked and marked["Amount"] and marked["Amount"] != "marked invalid by the page", marked
    assert all(field for field in marked), marked
