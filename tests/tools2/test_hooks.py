"""The post-action hook: which tools trigger it, its budgets, and that it never gets in the way."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from browserops.browser.launch.session import BrowserSession
from browserops.config import Settings
from browserops.demo_site import DemoSite
from browserops.tools.context import Signals, ToolContext
from browserops.tools.hooks import after_action
from tests.tools2.helpers import call, goto

OK = {"status": "ok", "data": {}}
# What the hook closes and when is tested here, not how fast: roomy budgets, so a loaded machine (the other worker
# starting browsers) cannot make the closer give up before it looked. That the budgets bound it: test_banners.py.
ROOMY = {"banners_total_budget_ms": 20_000, "banners_pass_budget_ms": 10_000}


@pytest.fixture
def tool_ctx(session: BrowserSession, workspace: Path) -> ToolContext:
    return ToolContext(session=session, settings=Settings(**ROOMY), workspace=workspace)


async def test_navigation_closes_the_banner_and_asks_for_a_relist(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    result = await goto(tool_ctx, demo_site.base_url + "/")
    hook = await after_action(tool_ctx, "browser_navigate", result, {"url": demo_site.base_url + "/"})
    assert hook["ran"] is True and hook["reason"] == "document"
    assert (hook["found"], hook["closed"], hook["relist"]) == (1, 1, True)
    assert hook["spent_ms"] <= tool_ctx.settings.banners_total_budget_ms
    assert hook["banners"][0]["kind"] == "cookie"
    assert await tool_ctx.session.page.locator("#cookie-consent").count() == 0
    # Nothing left: the next trigger costs one cheap pass and asks for nothing.
    again = await after_action(tool_ctx, "browser_reload", OK)
    assert again["ran"] is True and (again["found"], again["relist"]) == (0, False)


async def test_a_click_that_reveals_a_banner(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/dialogs")
    # The click (made here directly) brings up a newsletter modal, as a site might after some action.
    await session.page.evaluate("""() => {
      document.body.insertAdjacentHTML('beforeend', '<div class="modal-overlay" data-banner-root>' +
        '<div class="modal" role="dialog"><p>Subscribe to our newsletter</p>' +
        '<button data-dismiss>Subscribe</button><button data-dismiss>No thanks</button></div></div>');
      document.addEventListener('click', (ev) => {
        const root = ev.target.closest('[data-banner-root]');
        if (root) { window.__pressed = ev.target.textContent; root.remove(); }
      });
    }""")
    tool_ctx.signals = Signals()  # the signals of the (simulated) click: it did not navigate
    hook = await after_action(tool_ctx, "browser_overlay_act", OK, {"index": 3, "action": "click"})
    assert hook["reason"] == "action" and hook["closed"] == 1
    assert hook["banners"][0]["control"] == "No thanks"
    assert await session.page.evaluate("window.__pressed") == "No thanks"
    # One pass at most for an in-page action.
    assert hook["spent_ms"] <= tool_ctx.settings.banners_pass_budget_ms


async def test_which_tools_trigger(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await goto(tool_ctx, demo_site.base_url + "/search")
    tool_ctx.signals = Signals()  # each simulated call below did not navigate
    assert (await after_action(tool_ctx, "browser_find", OK))["ran"] is False
    assert (await after_action(tool_ctx, "browser_overlay_act", OK, {"action": "scroll"}))["ran"] is False
    failed = {"status": "error", "code": "BROWSER_TIMEOUT", "error": "x"}
    assert (await after_action(tool_ctx, "browser_navigate", failed))["reason"] == "the action failed"
    # The first listing on a domain runs it once; later listings on that domain do not.
    first = await after_action(tool_ctx, "browser_list_interactives", OK)
    assert first["ran"] is True and first["reason"] == "document"
    second = await after_action(tool_ctx, "browser_list_interactives", OK)
    assert second["ran"] is False


async def test_first_listing_on_a_new_domain(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await goto(tool_ctx, demo_site.base_url + "/search")
    await after_action(tool_ctx, "browser_list_interactives", OK)
    # "localhost" is another domain than 127.0.0.1 for the browser and for the hook.
    await goto(tool_ctx, demo_site.base_url.replace("127.0.0.1", "localhost") + "/?banner=force")
    hook = await after_action(tool_ctx, "browser_list_interactives", OK)
    assert hook["ran"] is True and hook["closed"] == 1 and hook["relist"] is True


async def test_switched_off_and_dialogs(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await goto(tool_ctx, demo_site.base_url + "/")
    tool_ctx.settings = Settings(banners_auto_close=False, **ROOMY)
    off = await after_action(tool_ctx, "browser_navigate", OK)
    assert off["ran"] is False and "disabled" in off["reason"]
    assert await tool_ctx.session.page.locator("#cookie-consent").count() == 1
    tool_ctx.settings = Settings(**ROOMY)
    await goto(tool_ctx, demo_site.base_url + "/dialogs")
    await tool_ctx.session.page.evaluate("setTimeout(() => alert('hi'), 0)")
    for _ in range(50):
        if tool_ctx.session.dialogs:
            break
        await asyncio.sleep(0.02)
    blocked = await after_action(tool_ctx, "browser_navigate", OK)
    assert blocked["ran"] is False and blocked["reason"] == "a dialog is open"


async def test_new_tab_gets_its_banner_closed(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/search")
    await session.page.evaluate(
        "(u) => { const a = document.createElement('a'); a.href = u; a.textContent = 'Home';"
        " a.setAttribute('data-blind-id', 't-home'); document.body.append(a); }",
        demo_site.base_url + "/",
    )
    opened = await call(tool_ctx, "browser_open_in_new_tab", id="t-home")
    assert opened["status"] == "ok"
    hook = await after_action(tool_ctx, "browser_open_in_new_tab", opened, {"id": "t-home"})
    assert hook["closed"] == 1
    assert await session.pages[1].locator("#cookie-consent").count() == 0
    assert session.active_index == 0


async def test_a_key_press_that_navigated_counts_as_a_new_page(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await goto(tool_ctx, demo_site.base_url + "/search")
    tool_ctx.signals = Signals()
    assert (await after_action(tool_ctx, "browser_press", OK, {"key": "Enter"}))["ran"] is False
    await tool_ctx.session.page.goto(demo_site.base_url + "/?banner=force")  # what the Enter led to
    tool_ctx.signals.navigated = True
    hook = await after_action(tool_ctx, "browser_press", OK, {"key": "Enter"})
    assert hook["reason"] == "document" and hook["closed"] == 1


async def test_signals_belong_to_one_call(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await goto(tool_ctx, demo_site.base_url + "/search")
    assert tool_ctx.signals.navigated is True
    await call(tool_ctx, "browser_switch_tab")
    assert tool_ctx.signals.navigated is False  # a reused context does not carry the last call's facts
