"""A sign-in whose cookie lasts "until the browser closes" outlives the browser of a ``--profile DIR`` (issue 24
item 3): saved inside the profile when the session closes, restored when the next one opens, gone after
``browserops profile clear DIR`` (which also shows Chromium itself dropped it). A tiny local app signs in with
a cookie without Expires."""

from __future__ import annotations

import logging
import secrets
import stat
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from browserops.browser.launch import profile_state
from browserops.browser.launch.session import BrowserSession, SessionOptions
from tests.plan_e2e.helpers import cli_json

TOKEN = secrets.token_hex(16)


class _App(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        if self.path == "/login":
            self.send_response(303)
            self.send_header("Location", "/")
            self.send_header("Set-Cookie", f"sid={TOKEN}; Path=/; HttpOnly")  # no Expires: session-only
            self.end_headers()
            return
        signed_in = f"sid={TOKEN}" in (self.headers.get("Cookie") or "")
        body = (b"<h1>Signed in as ada</h1>" if signed_in else b"<h1>Signed out</h1>")
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def app() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _App)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


async def _heading(options: SessionOptions, url: str) -> str:
    async with BrowserSession(options) as session:
        await session.page.goto(url)
        return await session.page.inner_text("h1")


async def test_a_session_only_sign_in_outlives_the_browser_until_cleared(app: str, tmp_path: Path,
                                                                          caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    profile = tmp_path / "profile"
    options = SessionOptions(mode="persistent", profile_dir=profile)
    assert await _heading(options, app + "/login") == "Signed in as ada"

    saved = profile_state.session_dir(profile)
    assert stat.S_IMODE(saved.stat().st_mode) == 0o700
    assert stat.S_IMODE((saved / profile_state.COOKIES_FILE).stat().st_mode) == 0o600
    assert [c["name"] for c in profile_state.saved_cookies(profile)] == ["sid"]

    # A new browser on the same profile: still signed in.
    assert await _heading(options, app + "/") == "Signed in as ada"

    code, data, _ = cli_json(tmp_path / "ws", "profile", "clear", str(profile))
    assert (code, data["status"], data["cleared"]) == (0, "ok", True)
    assert not saved.exists()
    # Without the saved session the cookie is gone: Chromium itself dropped it when it closed.
    assert await _heading(options, app + "/") == "Signed out"
    assert TOKEN not in caplog.text


def test_profile_clear_of_a_missing_folder_says_so(tmp_path: Path) -> None:
    code, data, _ = cli_json(tmp_path / "ws", "profile", "clear", str(tmp_path / "nowhere"))
    assert code == 1 and data["code"] == "BROWSER_FILE_NOT_FOUND" and "--profile" in data["error"]
