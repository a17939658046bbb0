"""The quiet window and what a page's scripts have scheduled (``js/watch.js`` trackScheduled): a page with nothing
scheduled is quiet at once; a timer, an animation frame or an animation ending within the window is waited for;
what a page sees of its timer functions stays native."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

from browserops.browser.page.waiting import nothing_due
from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from tests.tools.helpers import ok, open_page

WINDOW_MS = 1500  # long, so that ending early and waiting the window out cannot be mistaken for each other
# A page's clock (every 100 ms, writing nothing) that has ticked four times: started well before what comes next.
TICKING_A_WHILE = """() => new Promise((ticked) => { window.__ticks = 0;
    window.__clock = setInterval(() => { window.__ticks += 1; if (window.__ticks === 4) ticked(); }, 100); })"""


async def test_a_page_with_nothing_scheduled_is_quiet_before_its_window(tool_ctx: ToolContext,
                                                                         demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    await tool_ctx.session.page.evaluate("() => { const p = document.createElement('p'); p.textContent = 'x';"
                                         " document.body.append(p); }")
    data = await ok(tool_ctx, "browser_wait", state="settled", quiet_ms=WINDOW_MS)
    assert data["settled"] is True and data["nothing_scheduled"] is True, data
    assert data["waited_ms"] < WINDOW_MS, data


async def test_a_timer_due_within_the_window_is_waited_for(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    """A change a timer makes 400 ms from now is part of what the act set off: the settle ends after it."""
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    page = tool_ctx.session.page
    await page.evaluate("() => setTimeout(() => { const p = document.createElement('p'); p.id = 'later';"
                        " document.body.append(p); }, 400)")
    data = await ok(tool_ctx, "browser_wait", state="settled", quiet_ms=WINDOW_MS)
    assert await page.evaluate("() => !!document.getElementById('later')"), "settled before the timer's change"
    assert data["settled"] is True and data["nothing_scheduled"] is True, data


async def test_a_timer_due_after_the_window_and_a_cleared_one_do_not_hold_it(tool_ctx: ToolContext,
                                                                             demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    page = tool_ctx.session.page
    await page.evaluate("""() => {
        window.__fired = 0;
        setTimeout(() => { window.__fired += 1; }, 20000);
        const soon = setTimeout(() => { window.__fired += 1; }, 300);
        clearTimeout(soon); }""")
    data = await ok(tool_ctx, "browser_wait", state="settled", quiet_ms=WINDOW_MS)
    assert data["nothing_scheduled"] is True and data["waited_ms"] < WINDOW_MS, data
    assert await page.evaluate("() => window.__fired") == 0


async def test_a_page_clock_ticking_within_the_window_keeps_it_waiting(tool_ctx: ToolContext,
                                                                       demo_site: DemoSite) -> None:
    """An interval is due again after each tick: a page that ticks every 100 ms (even writing nothing) has work
    due until its next tick falls after the window's end, so the window is waited out but for that last tick; its
    ticks are not changes, so the window does end."""
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    page = tool_ctx.session.page
    await page.evaluate("""() => { window.__ticks = 0;
        window.__clock = setInterval(() => { window.__ticks += 1; }, 100);
        document.body.append(document.createElement('p')); window.__changed = performance.now(); }""")
    try:  # the change just made: the window counts from it (not from when the wait's call reached the page)
        data = await ok(tool_ctx, "browser_wait", state="settled", quiet_ms=600)
        assert data["settled"] is True, data
        assert await page.evaluate("() => performance.now() - window.__changed") >= 600 - 100 - 50, data
        assert await page.evaluate("() => window.__ticks") >= 4  # it ticked on while the window was waited out
    finally:
        await page.evaluate("() => clearInterval(window.__clock)")


async def test_a_clock_the_page_started_before_the_act_is_not_waited_for(tool_ctx: ToolContext,
                                                                        demo_site: DemoSite) -> None:
    """The same clock started before the latest act (a form's unsaved-changes check every 500 ms, a page's
    clock) is nothing the act set off: the settle after it does not wait out its ticks."""
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    page = tool_ctx.session.page
    await page.evaluate(TICKING_A_WHILE)
    try:
        await ok(tool_ctx, "browser_press", key="Shift")  # the act
        await page.evaluate("() => document.body.append(document.createElement('p'))")  # the window counts from here
        data = await ok(tool_ctx, "browser_wait", state="settled", quiet_ms=600)
        assert data["settled"] is True and data["nothing_scheduled"] is True, data
        assert data["waited_ms"] < 600 - 100 - 50, data
    finally:
        await page.evaluate("() => clearInterval(window.__clock)")


async def test_an_animation_ending_soon_is_waited_for_an_endless_one_is_not(tool_ctx: ToolContext,
                                                                             demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    page = tool_ctx.session.page
    await page.evaluate("""() => {
        const spin = document.createElement('div'); spin.textContent = 'spinner'; document.body.append(spin);
        spin.animate([{opacity: 1}, {opacity: 0.5}], {duration: 300, iterations: Infinity});
        const menu = document.createElement('div'); menu.id = 'menu'; menu.textContent = 'menu';
        document.body.append(menu);
        menu.animate([{opacity: 0}, {opacity: 1}], {duration: 500}); }""")
    data = await ok(tool_ctx, "browser_wait", state="settled", quiet_ms=WINDOW_MS)
    assert data["nothing_scheduled"] is True and data["waited_ms"] < WINDOW_MS, data
    running = await page.evaluate("""() => document.getElementById('menu').getAnimations()
        .filter((a) => a.playState === 'running').length""")
    assert running == 0, "settled while the menu was still fading in"


async def test_an_animation_frame_loop_keeps_the_whole_window(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    page = tool_ctx.session.page
    await page.evaluate("""() => { window.__loop = true;
        const f = () => { if (window.__loop) requestAnimationFrame(f); }; requestAnimationFrame(f);
        document.body.append(document.createElement('p')); }""")
    try:
        data = await ok(tool_ctx, "browser_wait", state="dom_quiet", quiet_ms=400)
        assert data["dom_quiet"] is True and data["nothing_scheduled"] is False, data
    finally:
        await page.evaluate("() => { window.__loop = false; }")


async def test_the_page_sees_its_timer_functions_as_native(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    seen = await tool_ctx.session.page.evaluate("""async () => {
        const text = (f) => Function.prototype.toString.call(f);
        const names = [setTimeout.name, setInterval.name, clearTimeout.name, requestAnimationFrame.name];
        const id = setTimeout((a, b) => { window.__args = [a, b]; }, 0, 'one', 'two');
        const frame = requestAnimationFrame((t) => { window.__frameTime = typeof t; });
        await new Promise((r) => setTimeout(r, 100));
        return {names, native: [setTimeout, setInterval, clearTimeout, requestAnimationFrame]
                  .every((f) => text(f).includes('[native code]')),
                id: typeof id, frame: typeof frame, args: window.__args, frameTime: window.__frameTime};
    }""")
    assert seen == {"names": ["setTimeout", "setInterval", "clearTimeout", "requestAnimationFrame"], "native": True,
                    "id": "number", "frame": "number", "args": ["one", "two"], "frameTime": "number"}, seen


async def _becomes_true(ask: Callable[[], Awaitable[bool]], within_s: float = 2.0) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if await ask():
            return True
        await asyncio.sleep(0.02)
    return False


async def test_the_save_look_leaves_out_a_clock_started_before_the_act(tool_ctx: ToolContext,
                                                                       demo_site: DemoSite) -> None:
    """What a run's look for the request a click sets off asks (plan/saved_check.py): a clock the page started
    before the act (a heartbeat, a form check) is not the act's; one started by the act may be its debounce."""
    await open_page(tool_ctx, demo_site.base_url + "/expense")
    session = tool_ctx.session
    page = session.page
    await page.evaluate(TICKING_A_WHILE)
    try:
        await ok(tool_ctx, "browser_press", key="Shift")  # the act
        assert await _becomes_true(lambda: nothing_due(page, 300, session))  # once calm for the idle time
        assert await nothing_due(page, 300) is False  # asked about every clock, the old one is due
        await page.evaluate("() => { window.__new = setInterval(() => {}, 100); }")  # after the act: its own
        assert await nothing_due(page, 300, session) is False
    finally:
        await page.evaluate("() => { clearInterval(window.__clock); clearInterval(window.__new); }")
