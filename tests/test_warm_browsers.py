"""Warm browsers (setting ``browser_reuse``, browserops/browser/launch/warm.py): the launched sessions of one event
loop share one Chromium, each in a context of its own that shares nothing a site sees; a crash of the shared
browser ends the sessions using it as a crash, and the next session launches a new one; a loop's warm browsers
close with it."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
from pathlib import Path

import orjson
import pytest

from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.browser.launch.warm import close_warm_browsers, closing_warm_browsers, warm_browsers
from browserops.config import Settings
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.demo_site import DemoSite
from tests.plan_e2e.helpers import EXPENSE_INPUT, browserops_cmd, subprocess_env
from tests.procs import chromium_processes, wait_gone

SHARED = SessionOptions(reuse=True)


@pytest.fixture(autouse=True)
async def no_warm_browser_yet() -> None:
    """Each test starts with no warm browser in the loop: the suite's async tests share one loop with reuse on
    (tests/conftest.py), so a test before this one may have left one warm, and the counts below start from none."""
    await close_warm_browsers()


async def test_sessions_share_one_browser_in_contexts_of_their_own(demo_site: DemoSite) -> None:
    before = set(chromium_processes())
    try:
        async with BrowserSession(SHARED) as first, BrowserSession(SHARED) as second:
            assert first.browser is not None and first.browser is second.browser
            assert warm_browsers().launches == 1
            await first.page.goto(demo_site.base_url + "/?nobanner=1")
            await first.context.add_cookies([{"name": "mine", "value": "first", "url": demo_site.base_url}])
            await first.page.evaluate("localStorage.setItem('mine', 'first')")
            await second.page.goto(demo_site.base_url + "/?nobanner=1")
            assert await second.context.cookies() == []  # nothing of the first session's is seen here
            assert await second.page.evaluate("localStorage.getItem('mine')") is None
        # Both sessions ended: their contexts are gone, the browser stays for the next session.
        shared = set(chromium_processes()) - before
        assert shared, "the warm browser should outlive the sessions that used it"
        async with BrowserSession(SHARED) as third:
            await third.page.goto(demo_site.base_url + "/?nobanner=1")
            assert warm_browsers().launches == 1 and third.browser is not None and third.browser.contexts == [
                third.context]
    finally:
        await close_warm_browsers()
    assert wait_gone(set(chromium_processes()) - before) == set(), "closing the loop's warm browsers left processes"


async def test_a_crash_of_the_shared_browser_is_each_sessions_crash_and_the_next_start_launches_anew(
        demo_site: DemoSite) -> None:
    before = set(chromium_processes())
    try:
        async with BrowserSession(SHARED) as first, BrowserSession(SHARED) as second:
            await first.page.goto(demo_site.base_url + "/?nobanner=1")
            assert first.browser is not None
            gone = asyncio.Event()
            first.browser.on("disconnected", lambda _b: gone.set())
            for pid in set(chromium_processes()) - before:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGKILL)
            await asyncio.wait_for(gone.wait(), 30)
            for session in (first, second):
                assert not session.alive
                with pytest.raises(BrowserOpsError) as info:
                    _ = session.page
                assert info.value.code is ErrorCode.CRASHED
            assert await second.ensure_alive() is True  # restarted on a newly launched shared browser
            await second.page.goto(demo_site.base_url + "/?nobanner=1")
            assert warm_browsers().launches == 2 and second.browser is not first.browser
    finally:
        await close_warm_browsers()


def test_a_loop_that_ends_closes_its_warm_browsers(demo_site: DemoSite) -> None:
    before = set(chromium_processes())

    async def one_session() -> str:
        async with BrowserSession(SessionOptions.from_settings(Settings(browser_reuse=True))) as session:
            assert session.shares_browser
            await session.page.goto(demo_site.base_url + "/?nobanner=1")
            return await session.page.title()

    assert asyncio.run(closing_warm_browsers(one_session()))
    assert wait_gone(set(chromium_processes()) - before) == set()


def test_persistent_attached_and_remote_sessions_never_share(tmp_path: Path) -> None:
    settings = Settings(browser_reuse=True)
    assert SessionOptions.from_settings(settings).reuse
    for options in (SessionOptions.from_settings(settings, profile_dir=tmp_path),
                    SessionOptions.from_settings(settings, cdp_url="http://127.0.0.1:9"),
                    SessionOptions.from_settings(settings, ws_endpoint="ws://127.0.0.1:9")):
        assert options.reuse and not BrowserSession(options).shares_browser


def test_a_cli_process_with_reuse_on_prepares_and_exits_leaving_no_browser(demo_site: DemoSite,
                                                                            tmp_path: Path) -> None:
    """The in-process loop kept between commands ends with the process: its warm browser is closed at exit."""
    before = set(chromium_processes())
    env = {**subprocess_env(), "BROWSEROPS_BROWSER_REUSE": "1"}
    proc = subprocess.run(browserops_cmd(tmp_path, "--json", "prepare", "--pack", "demo_expense", "--input",
                                         str(EXPENSE_INPUT), "--base-url", demo_site.base_url),
                          env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr[-2000:]  # ready, waiting for the confirm phrase
    assert orjson.loads(proc.stdout)["status"] == "ok"
    assert "Traceback" not in proc.stderr
    assert wait_gone(set(chromium_processes()) - before) == set()


async def test_a_persistent_profile_shares_only_the_driver(demo_site: DemoSite, tmp_path: Path) -> None:
    before = set(chromium_processes())
    try:
        options = SessionOptions.from_settings(Settings(browser_reuse=True), profile_dir=tmp_path / "profile")
        async with BrowserSession(options) as persistent:
            assert not persistent.shares_browser and persistent.browser is None  # its context is its browser
            driver = persistent.playwright
            assert driver is not None and driver is await warm_browsers().driver()
            await persistent.page.goto(demo_site.base_url + "/?nobanner=1")
            own = set(chromium_processes()) - before
        assert wait_gone(own) == set(), "the profile's Chromium outlived its session"
        async with BrowserSession(SHARED) as launched:  # the driver it used still serves the next session
            await launched.page.goto(demo_site.base_url + "/?nobanner=1")
            assert launched.playwright is driver
    finally:
        await close_warm_browsers()
