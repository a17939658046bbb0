"""Nothing of a session in any file (issue 36.5): the trace of a signed-in ``--profile`` run is unzipped and every
file searched for the session cookie's value and the API token the page keeps in local storage and sends in an
``Authorization`` header. A tiny local app signs in with a lasting cookie (so the profile stays signed in between
runs, as a person's does) and saves a note through its API."""

from __future__ import annotations

import asyncio
import json
import secrets
import threading
import zipfile
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar
from urllib.parse import quote, quote_plus

import pytest

from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.evidence import verify_bundle
from browserops.evidence.trace import MASK
from tests.plan_e2e.helpers import cli_json, write_steps

SESSION = "sid-" + secrets.token_hex(12)
API_TOKEN = "tok-" + secrets.token_hex(12)
NOTE_PAGE = f"""<!doctype html><title>Notes</title><h1>Notes</h1>
<p><label>Note <input id="note"></label></p><p><button type="button" id="save">Save</button></p>
<p id="status" role="status">Not saved</p>
<script>
localStorage.setItem("api_token", "{API_TOKEN}");
const auth = () => ({{Authorization: "Bearer " + localStorage.getItem("api_token"),
                     "Content-Type": "application/json"}});
fetch("/api/me", {{headers: auth()}});
document.getElementById("save").addEventListener("click", () => fetch("/api/note", {{method: "POST", headers: auth(),
  body: JSON.stringify({{note: document.getElementById("note").value}})}})
  .then((r) => {{ document.getElementById("status").textContent = r.ok ? "Saved" : "Refused"; }}));
</script>"""


class _App(BaseHTTPRequestHandler):
    notes: ClassVar[list[str]] = []

    def _signed_in(self) -> bool:
        return f"sid={SESSION}" in (self.headers.get("Cookie") or "")

    def _send(self, status: int, body: bytes, kind: str = "text/html") -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        if self.path == "/login":
            self.send_response(303)
            self.send_header("Location", "/note")
            self.send_header("Set-Cookie", f"sid={SESSION}; Path=/; Max-Age=3600; HttpOnly")
            self.end_headers()
        elif self.path == "/api/me":
            authorized = self.headers.get("Authorization") == f"Bearer {API_TOKEN}" and self._signed_in()
            self._send(200 if authorized else 401, b'{"user": "ada"}', "application/json")
        else:
            self._send(200, NOTE_PAGE.encode() if self._signed_in() else b"<h1>Signed out</h1>")

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        authorized = self.headers.get("Authorization") == f"Bearer {API_TOKEN}" and self._signed_in()
        if authorized:
            _App.notes.append(json.loads(body)["note"])
        self._send(200 if authorized else 401, b'{"ok": true}', "application/json")

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def app() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _App)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def _spellings(value: str) -> set[bytes]:
    return {f.encode() for f in (value, quote(value, safe=""), quote_plus(value), json.dumps(value)[1:-1])}


async def _sign_in(profile: Path, app: str) -> str:
    """What the person does once: sign in with the profile; it keeps the cookie."""
    async with BrowserSession(SessionOptions(mode="persistent", profile_dir=profile)) as session:
        await session.page.goto(app + "/login")
        return await session.page.inner_text("h1")


def test_the_trace_of_a_signed_in_profile_run_holds_no_session(app: str, tmp_path: Path) -> None:
    profile, workspace = tmp_path / "profile", tmp_path / "ws"
    assert asyncio.run(_sign_in(profile, app)) == "Notes"
    steps = write_steps(tmp_path, "note.yaml", {"title": "Save a note", "startUrl": app + "/note", "steps": [
        {"kind": "fill", "field": "note", "target": {"role": "textbox", "names": ["Note"]}, "value": "buy milk"},
        {"kind": "submit", "target": {"role": "button", "names": ["Save"]}, "expect": {"text": ["Saved"]}},
    ]})
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--profile", str(profile))
    assert code == 2, (prepared, err)
    code, run, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"],
                              "--profile", str(profile), "--trace")
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    assert _App.notes[-1] == "buy milk"  # signed in: the app took the note
    bundle = Path(run["bundle"])
    assert verify_bundle(bundle).ok
    with zipfile.ZipFile(bundle / "trace.zip") as archive:
        contents = {name: archive.read(name) for name in archive.namelist()}
    for secret in (SESSION, API_TOKEN):
        found = sorted({name for name, blob in contents.items() for form in _spellings(secret) if form in blob})
        assert found == [], f"{secret[:4]}… is in {found}"
    # The trace still shows the requests, with the session's headers masked by name.
    network = contents["trace.network"].decode()
    assert "/api/note" in network and '"name":"Cookie","value":"[masked]"' in network
    assert '"name":"Authorization","value":"[masked]"' in network and MASK in network
    for name in ("bundle.json", "events.jsonl", "summary.md", "plan.json"):
        text = (bundle / name).read_bytes()
        assert not any(form in text for secret in (SESSION, API_TOKEN) for form in _spellings(secret)), name
