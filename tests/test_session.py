"""BrowserSession modes, Chromium discovery and clean shutdown, in real Chromium."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from browserops.browser.errors import browser_errors
from browserops.browser.launch.discovery import driver_compile_cache, find_chromium
from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.browser.page.user_watch import UserWatch
from browserops.config import Settings
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.demo_site import DemoSite
from tests.procs import chromium_processes, wait_gone


def test_missing_chromium_says_how_to_install(tmp_path: Path) -> None:
    with pytest.raises(BrowserOpsError) as info:
        find_chromium(env={}, search_path=str(tmp_path), playwright_path=str(tmp_path / "nope"), system_paths=())
    assert info.value.code is ErrorCode.NOT_INSTALLED
    assert "playwright install chromium" in info.value.message
    assert "apt-get install -y chromium" in info.value.message


def test_env_override_must_exist(tmp_path: Path) -> None:
    with pytest.raises(BrowserOpsError) as info:
        find_chromium(env={"BROWSEROPS_CHROMIUM": str(tmp_path / "chrome")}, search_path="")
    assert info.value.code is ErrorCode.NOT_INSTALLED and "BROWSEROPS_CHROMIUM" in info.value.message


def test_discovery_order(tmp_path: Path) -> None:
    fake_pw = tmp_path / "pw-chrome"
    fake_sys_dir = tmp_path / "bin"
    fake_sys_dir.mkdir()
    for exe in (fake_pw, fake_sys_dir / "chromium"):
        exe.write_text("#!/bin/sh\n")
        exe.chmod(0o755)
    # Playwright's own build wins over the system one...
    found = find_chromium(env={}, playwright_path=str(fake_pw), search_path=str(fake_sys_dir))
    assert (found.path, found.source) == (str(fake_pw), "playwright")
    # ...the system one is used when Playwright's is absent...
    found = find_chromium(env={}, playwright_path=str(tmp_path / "missing"), search_path=str(fake_sys_dir))
    assert (found.path, found.source) == (str(fake_sys_dir / "chromium"), "system")
    # ...and BROWSEROPS_CHROMIUM beats both.
    found = find_chromium(env={"BROWSEROPS_CHROMIUM": str(fake_sys_dir / "chromium")}, playwright_path=str(fake_pw))
    assert found.source == "env"


def test_modes_are_exclusive() -> None:
    with pytest.raises(BrowserOpsError) as info:
        SessionOptions.from_settings(Settings(), profile_dir=Path("/tmp/p"), cdp_url="http://127.0.0.1:9222")
    assert info.value.code is ErrorCode.INVALID_ARGS


async def test_launch_mode_opens_a_page_and_leaves_no_process(demo_site: DemoSite) -> None:
    before = set(chromium_processes())
    async with BrowserSession(SessionOptions()) as session:
        await session.page.goto(demo_site.base_url + "/?nobanner=1")
        assert await session.page.title(), "the demo home page has a title"
        ours = set(chromium_processes()) - before
        assert ours, "a Chromium process should be running during the session"
    assert wait_gone(ours) == set(), "Chromium processes survived the session"


async def test_persistent_profile_keeps_cookies(tmp_path: Path, demo_site: DemoSite) -> None:
    profile = tmp_path / "profile"
    opts = SessionOptions(mode="persistent", profile_dir=profile)
    async with BrowserSession(opts) as session:
        await session.page.goto(demo_site.base_url + "/")
        # A persistent cookie (session cookies end with the browser, as in any Chrome).
        await session.context.add_cookies(
            [{"name": "remember", "value": "me", "url": demo_site.base_url, "expires": time.time() + 3600}]
        )
    async with BrowserSession(opts) as session:
        cookies = await session.context.cookies(demo_site.base_url)
        assert {"remember": "me"}.items() <= {c["name"]: c["value"] for c in cookies}.items()


@pytest.fixture
def external_chromium(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """A Chromium the user started themselves, with a DevTools port; yields (process, http endpoint)."""
    args = [
        find_chromium().path, "--headless=new", "--no-sandbox", "--remote-debugging-port=0",
        "--remote-debugging-address=127.0.0.1", f"--user-data-dir={tmp_path / 'ud'}",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", "about:blank",
    ]
    proc = subprocess.Popen(args, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stderr is not None
        endpoint = None
        for _ in range(200):
            match = re.search(r"DevTools listening on (ws://\S+)", proc.stderr.readline())
            if match:
                endpoint = match.group(1)
                break
        assert endpoint, "external Chromium did not report a DevTools endpoint"
        yield proc, "http://" + endpoint.split("/")[2]
    finally:
        proc.terminate()
        proc.wait(timeout=10)


async def test_cdp_attach_leaves_the_users_browser_running(
    external_chromium: tuple[subprocess.Popen[str], str], demo_site: DemoSite
) -> None:
    proc, http_url = external_chromium
    async with BrowserSession(SessionOptions(mode="cdp", cdp_url=http_url)) as session:
        await session.page.goto(demo_site.base_url + "/?nobanner=1")
        assert session.page.url.startswith(demo_site.base_url)
        # The side-effect ledger's DevTools tap works over an attachment too (else the ledger says it is blind).
        session.requests.start_tapping()  # as a run does
        await session.requests.tapped()
        assert session.requests.blind is None
    # The user's browser still works after the session closed: a second attachment opens a page in it (a
    # browser told to close would be shutting down and refuse), and its process is still running.
    async with BrowserSession(SessionOptions(mode="cdp", cdp_url=http_url)) as again:
        await again.page.goto(demo_site.base_url + "/search?q=still-here&nobanner=1")
        assert "still-here" in again.page.url
    assert proc.poll() is None, "closing an attached session must not kill the user's browser"


async def test_cdp_unreachable_is_a_clear_error() -> None:
    with pytest.raises(BrowserOpsError) as info:
        async with BrowserSession(SessionOptions(mode="cdp", cdp_url="http://127.0.0.1:9")):
            pass
    assert info.value.code is ErrorCode.LAUNCH_FAILED
    assert "cdp" in info.value.message


async def test_crashed_browser_is_restarted(demo_site: DemoSite) -> None:
    before = set(chromium_processes())
    async with BrowserSession(SessionOptions()) as session:
        await session.page.goto(demo_site.base_url + "/?nobanner=1")
        ours = set(chromium_processes()) - before
        assert session.browser is not None
        gone = asyncio.Event()
        session.browser.on("disconnected", lambda _b: gone.set())
        for pid in ours:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        await asyncio.wait_for(gone.wait(), 30)
        assert not session.alive
        with pytest.raises(BrowserOpsError) as info:
            _ = session.page
        assert info.value.code is ErrorCode.CRASHED
        assert await session.ensure_alive() is True
        await session.page.goto(demo_site.base_url + "/?nobanner=1")
        assert session.restarts == 1
        assert session.take_notices()[0]["kind"] == "browser_restarted"
        assert await session.ensure_alive() is False


async def test_a_recording_whose_browser_dies_as_it_starts_is_a_crash(demo_site: DemoSite) -> None:
    """The browser killed just before the recorder's watch is installed (CI's start-up sweep killed ``record`` at
    0.4 s, inside it): BROWSER_CRASHED, never Playwright's own "Target crashed" escaping as a traceback."""
    before = set(chromium_processes())
    async with BrowserSession(SessionOptions()) as session:
        await session.page.goto(demo_site.base_url + "/?nobanner=1")
        ours = set(chromium_processes()) - before
        for pid in ours:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        wait_gone(ours)
        with pytest.raises(BrowserOpsError) as info:
            await UserWatch(session).start()
        assert info.value.code is ErrorCode.CRASHED, info.value.message


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    except OSError:
        return ""


async def test_a_tab_whose_renderer_dies_ends_the_call_as_a_crash(demo_site: DemoSite) -> None:
    """Only the tab's renderer is killed (the browser process lives on): the call fails as BROWSER_CRASHED, not
    as an action that failed, and the session counts as crashed so the front door restarts it."""
    async with BrowserSession(SessionOptions()) as session:
        await session.page.goto(demo_site.base_url + "/?nobanner=1")
        renderers = [pid for pid in chromium_processes() if "--type=renderer" in _cmdline(pid)]
        assert renderers
        for pid in renderers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with pytest.raises(BrowserOpsError) as info:
            async with browser_errors(session, "running browser_snapshot"):
                await session.page.wait_for_function("false", timeout=10_000)
        assert info.value.code is ErrorCode.CRASHED and "running browser_snapshot" in info.value.message
        assert not session.alive


async def test_the_driver_gets_a_compile_cache_in_the_users_cache_directory(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A session's Playwright driver (node) keeps its compiled code in the user's cache directory: the next start
    reads it instead of compiling Playwright's bundle again. A cache the user chose, or turned off, is theirs."""
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    driver_compile_cache(env)
    cache = tmp_path / "cache" / "browserops" / "node-compile-cache"
    assert env["NODE_COMPILE_CACHE"] == str(cache)
    chosen = {"NODE_COMPILE_CACHE": "/elsewhere", "XDG_CACHE_HOME": str(tmp_path)}
    driver_compile_cache(chosen)
    assert chosen["NODE_COMPILE_CACHE"] == "/elsewhere"
    off = {"NODE_DISABLE_COMPILE_CACHE": "1"}
    driver_compile_cache(off)
    assert "NODE_COMPILE_CACHE" not in off
    # A real driver started with it writes its cache there (node writes it as the driver exits).
    monkeypatch.setenv("NODE_COMPILE_CACHE", str(cache))  # what driver_compile_cache sets for a session
    async with BrowserSession(SessionOptions()):
        pass
    assert any(p.is_file() for p in cache.rglob("*"))
