"""Issue 22 item 4: a run's screenshots and ARIA snapshots do not show what went into password, card and
one-time-code fields, even when the page echoes it (a show-password toggle, a live card preview). The user types
the password and the SMS code by hand (the gate hands those to them); the agent types the card number the goal
gave. Checked on the evidence of a real loop run and through the MCP server's own tools, reading the screenshot's
pixels back in Chromium."""

from __future__ import annotations

import asyncio
import base64
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters
from playwright.async_api import Page

from browserops.agent.model_api import tool_turn
from browserops.demo_site import DemoSite
from browserops.listing_rows import listing_items
from browserops.tools.context import ToolContext
from tests.agent_loop.conftest import RunFactory, open_page
from tests.agent_loop.helpers import act
from tests.calls import call_tool
from tests.mcp.helpers import call

CARD, PASSWORD, CODE = "4111111111111111", "hunter2-Secret", "654321"
GOAL = f"Enter my card number {CARD} on the payment page."
REDACTED = (58, 58, 58)  # js/redact.js's box colour
SECRET_BOXES = ["#pw", "#cardno", "#preview", "#otp"]


async def type_by_hand(page: Page) -> None:
    """What the user does in the browser themselves: the password, shown in clear, and the SMS code."""
    await page.fill("#pw", PASSWORD)
    await page.check("#show")
    await page.fill("#otp", CODE)


async def boxes(page: Page) -> dict[str, dict[str, float]]:
    out: dict[str, dict[str, float]] = {}
    for selector in SECRET_BOXES:
        box = await page.locator(selector).bounding_box()
        assert box is not None, selector
        out[selector] = box
    return out


async def covered(page: Page, png: bytes, where: dict[str, dict[str, float]]) -> dict[str, bool]:
    """Is every pixel inside each box (a few pixels in from its edge) the redaction colour? Read back by
    Chromium from the PNG itself."""
    probe = await page.context.new_page()
    try:
        await probe.goto("about:blank")
        return dict(await probe.evaluate("""async ([src, where, colour]) => {
          const img = new Image(); img.src = src; await img.decode();
          const canvas = document.createElement("canvas"); canvas.width = img.width; canvas.height = img.height;
          const g = canvas.getContext("2d"); g.drawImage(img, 0, 0);
          const out = {};
          for (const [name, b] of Object.entries(where)) {
            const d = g.getImageData(Math.ceil(b.x) + 3, Math.ceil(b.y) + 3, Math.max(1, Math.floor(b.width) - 6),
                                     Math.max(1, Math.floor(b.height) - 6)).data;
            let same = true;
            for (let i = 0; i < d.length; i += 4) {
              if (d[i] !== colour[0] || d[i + 1] !== colour[1] || d[i + 2] !== colour[2]) { same = false; break; }
            }
            out[name] = same;
          }
          return out; }""", ["data:image/png;base64," + base64.b64encode(png).decode(), where, list(REDACTED)]))
    finally:
        await probe.close()


def assert_no_secret_text(text: str) -> None:
    for secret in (PASSWORD, CODE, CARD, "4111 1111 1111 1111"):
        assert secret not in text, (secret, text)


async def test_the_loops_evidence_hides_typed_and_echoed_secrets(
    make_run: RunFactory, tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/leak/echo")
    page = tool_ctx.session.page
    await type_by_hand(page)
    done = tool_turn("assistant_done", {"reason": "The card number is entered."})
    run = make_run([act("textbox", "Card no.", action="type", text=CARD), done, done, done], goal=GOAL)
    pause = await run.advance()
    assert pause.kind == "done", pause
    assert await page.locator("#preview").text_content() == "4111 1111 1111 1111"  # the page echoes it
    assert await page.locator("#pw").get_attribute("type") == "text"  # and shows the password
    assert run.recorder is not None
    shots = sorted((run.recorder.path / "screenshots").glob("*.png"))
    assert shots, "the run took screenshots"
    where = await boxes(page)
    last = await covered(page, await asyncio.to_thread(shots[-1].read_bytes), where)  # the observation after typing
    assert last == {s: True for s in SECRET_BOXES}, last
    snapshot = await call_tool("browser_snapshot", tool_ctx, {})
    assert snapshot["status"] == "ok"
    assert_no_secret_text(snapshot["data"]["snapshot"])
    assert "[hidden]" in snapshot["data"]["snapshot"]
    # The fields are still what they were: covering them changed nothing on the page.
    assert await page.input_value("#pw") == PASSWORD and await page.input_value("#cardno") == CARD


@pytest.fixture
def server_params(workspace: Path) -> Iterator[StdioServerParameters]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BROWSEROPS_", "ANTHROPIC_"))}
    yield StdioServerParameters(command=sys.executable, args=["-m", "browserops", "--workspace", str(workspace),
                                                              "mcp"], env=env)


async def test_the_mcp_servers_screenshot_and_snapshot_hide_them(
    server_params: StdioServerParameters, demo_site: DemoSite, tool_ctx: ToolContext
) -> None:
    """Over MCP the caller acts by number; the server's own screenshot and snapshot tools cover the same."""
    async with Client(server_params) as client:
        opened = await call(client, "browser_navigate", url=demo_site.base_url + "/leak/echo")
        assert opened["status"] == "ok", opened
        listed = await call(client, "browser_list_interactives")
        items = listing_items(listed["data"])
        number = {i["name"]: i["n"] for i in items}
        for name, text in (("Password", PASSWORD), ("Card no.", CARD)):
            typed = await call(client, "browser_overlay_act", index=number[name], action="type", text=text)
            assert typed["status"] == "ok", typed
        shown = await call(client, "browser_overlay_act", index=number["Show password"], action="click")
        assert shown["status"] == "ok", shown
        snapshot = await call(client, "browser_snapshot")
        shot = await call(client, "browser_screenshot")
    assert_no_secret_text(snapshot["data"]["snapshot"])
    # The same page, laid out the same, in the test's own browser: where the boxes must be.
    await open_page(tool_ctx, demo_site.base_url + "/leak/echo")
    page = tool_ctx.session.page
    await page.fill("#pw", PASSWORD)
    await page.check("#show")
    await page.fill("#cardno", CARD)
    where = {k: v for k, v in (await boxes(page)).items() if k != "#otp"}
    png = await asyncio.to_thread(Path(shot["data"]["path"]).read_bytes)
    found = await covered(page, png, where)
    assert found == {s: True for s in where}, found
