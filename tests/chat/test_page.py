"""The chat page in a real Chromium (a second browser: the user's), driven with the keyboard only, against the
real server and the scripted-plan Brain on the demo site; accessibility checked with axe-core from npm."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, async_playwright

from browserops.browser.launch.discovery import find_chromium, launch_args
from browserops.chat.engine import ChatEngine
from browserops.demo_site import DemoSite
from browserops.server.chat_server import ChatServer

AXE = Path(__file__).resolve().parents[1] / "js" / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="module")
async def user_browser() -> AsyncIterator[Browser]:
    async with async_playwright() as pw:
        chromium = find_chromium(playwright_path=pw.chromium.executable_path)
        browser = await pw.chromium.launch(executable_path=chromium.path, args=launch_args(), headless=True)
        yield browser
        await browser.close()


@pytest.fixture
async def server(engine: ChatEngine) -> AsyncIterator[ChatServer]:
    srv = ChatServer(engine, port=0)
    await srv.start()
    yield srv
    await srv.stop()


@pytest.fixture
async def page(user_browser: Browser) -> AsyncIterator[Page]:
    # bypass_csp only so the test can inject axe-core; the page itself runs under its strict CSP.
    context = await user_browser.new_context(bypass_csp=True)
    page = await context.new_page()
    yield page
    await context.close()


async def run_axe(page: Page) -> list[dict[str, Any]]:
    assert AXE.is_file(), "axe-core is missing: run `npm ci --prefix tests/js` (scripts/setup.sh does)"
    await page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    # WCAG A/AA/AAA rules plus best practices; colour contrast at the enhanced (7:1) level.
    result = await page.evaluate("""() => axe.run(document, {
        runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag2aaa', 'wcag21a', 'wcag21aa', 'wcag22aa',
                                        'best-practice']},
        rules: {'color-contrast-enhanced': {enabled: true}}
    }).then(r => r.violations.map(v => ({id: v.id, help: v.help, nodes: v.nodes.map(n => n.target)})))""")
    return list(result)


async def focused_id(page: Page) -> str:
    return str(await page.evaluate("document.activeElement && document.activeElement.id"))


async def test_keyboard_only_task_live_reply_confirmation_and_axe(
    page: Page, server: ChatServer, demo_site: DemoSite
) -> None:
    await page.goto(server.page_url(server.tokens.owner))
    await page.wait_for_function("document.getElementById('status').textContent.includes('ready')")
    assert "token" not in page.url  # the token left the address bar and lives in memory only
    assert await page.get_attribute("html", "lang") == "en"
    assert await run_axe(page) == []

    # Tab reaches the skip link first; Enter jumps to the message box.
    await page.keyboard.press("Tab")
    assert await focused_id(page) == "skip"
    await page.keyboard.press("Enter")
    assert await focused_id(page) == "message"

    await page.keyboard.type("search for chat-demo")
    await page.keyboard.press("Enter")
    log = page.locator("#log[role=log][aria-live=polite]")
    await log.locator("li.agent", has_text="Searched the catalogue").wait_for(timeout=20_000)
    assert await log.locator("li.user").first.text_content() == "You: search for chat-demo"
    await page.wait_for_function("document.getElementById('status').textContent.includes('ready')")
    assert await page.get_attribute("#status", "aria-live") == "assertive"

    # The numbered screenshot, with alt text listing the top items of the latest observation.
    shot = page.locator("#shot")
    await shot.wait_for(state="visible", timeout=20_000)
    await page.wait_for_function("document.getElementById('shot').naturalWidth > 0")
    alt = await shot.get_attribute("alt") or ""
    assert alt.startswith("Screenshot of “Search results") and "Top numbered items: 1 " in alt
    assert demo_site.state.searches == ["chat-demo"]

    # A confirmation: focus moves to the Yes button, Enter answers it, the action runs exactly once.
    assert await focused_id(page) == "message"
    await page.keyboard.type("confirm the search")
    await page.keyboard.press("Enter")
    await page.locator("#confirm").wait_for(state="visible", timeout=20_000)
    await page.wait_for_function("document.activeElement && document.activeElement.id === 'yes'")
    assert "confirmed-once" in (await page.locator("#confirm-text").text_content() or "")
    assert demo_site.state.searches == ["chat-demo"]
    assert await run_axe(page) == []  # also with the confirmation dialog open
    await page.keyboard.press("Enter")
    await log.locator("li.agent", has_text="after your confirmation").wait_for(timeout=20_000)
    assert await page.locator("#confirm").is_hidden()
    assert await focused_id(page) == "message"
    assert demo_site.state.searches == ["chat-demo", "confirmed-once", "after-confirm"]
    assert await run_axe(page) == []


async def test_viewer_page_watches_read_only(page: Page, server: ChatServer, engine: ChatEngine) -> None:
    await page.goto(server.page_url(server.tokens.viewer))
    await page.wait_for_function("document.getElementById('status').textContent.includes('ready')")
    assert await page.locator("#message").is_disabled()
    assert "Read-only viewer" in (await page.locator("#message-help").text_content() or "")
    await engine.submit("default", "/chat")
    await engine.submit("default", "confirm the search")  # the owner asks elsewhere (e.g. the REPL)
    await page.locator("#log li.agent", has_text="May I").wait_for(timeout=20_000)
    assert await page.locator("#confirm").is_hidden()  # no Yes/No for a viewer
    assert await run_axe(page) == []


async def test_page_without_token_is_refused(page: Page, server: ChatServer) -> None:
    response = await page.goto(server.url + "/")
    assert response is not None and response.status == 401
