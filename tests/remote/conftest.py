"""Remote browsers started by the tests: a Playwright browser server (npm ``playwright-core``'s
``chromium.launchServer`` on the system Chromium, tests/js/browser_server.js) and a Chromium with a DevTools port."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from browserops.browser.launch.discovery import find_chromium, launch_args
from tests.redis_server import free_port

ROOT = Path(__file__).resolve().parents[2]
SERVER_JS = ROOT / "tests" / "js" / "browser_server.js"


@dataclass
class RemoteBrowser:
    proc: subprocess.Popen[bytes]
    endpoint: str  # ws://… for a Playwright server, http://127.0.0.1:PORT for CDP

    def kill(self) -> None:
        """SIGKILL the server and the browser it started (its own process group): the browser is lost."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=10)


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
    else:  # the test killed the leader: take its browser children down too
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.fixture
def playwright_server() -> Iterator[RemoteBrowser]:
    """``chromium.launchServer`` from playwright-core on a free port; yields its ws:// endpoint."""
    node = shutil.which("node")
    assert node, "node is needed for the Playwright browser server (apt-get install -y nodejs npm)"
    assert (ROOT / "tests" / "js" / "node_modules" / "playwright-core").is_dir(), \
        "run `npm ci --prefix tests/js` (scripts/setup.sh does) to install playwright-core"
    proc = subprocess.Popen([node, str(SERVER_JS), find_chromium().path], cwd=SERVER_JS.parent,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline().decode().strip()  # the server prints its endpoint once it listens
        assert line.startswith("ws://"), (line, proc.stderr.read().decode() if proc.stderr else "")
        yield RemoteBrowser(proc, line)
    finally:
        _stop(proc)


@pytest.fixture
def cdp_browser(tmp_path: Path) -> Iterator[RemoteBrowser]:
    """A Chromium started with ``--remote-debugging-port`` on a free port; yields its http:// endpoint."""
    port = free_port()
    args = [find_chromium().path, "--headless=new", "--no-sandbox", f"--remote-debugging-port={port}",
            "--remote-debugging-address=127.0.0.1", f"--user-data-dir={tmp_path / 'cdp-profile'}",
            *launch_args(), "about:blank"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    endpoint = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, "Chromium exited before its DevTools port answered"
            try:
                with urllib.request.urlopen(endpoint + "/json/version", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                assert time.monotonic() < deadline, "Chromium's DevTools port did not answer"
                time.sleep(0.1)
        yield RemoteBrowser(proc, endpoint)
    finally:
        _stop(proc)
