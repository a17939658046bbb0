"""The widget zoo: real UI libraries from npm (``tests/js/node_modules``) on a local loopback site.

Each page in ``demo_site/zoo/`` instantiates one library's widgets the way its documentation shows; the
libraries themselves are served unchanged from ``/lib/<package>/...``. Nothing here imitates a library: a page
that needs one it cannot find gets a 404 for the script and the test using it fails.
"""

from __future__ import annotations

import json
import mimetypes
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any

PAGES_DIR = Path(__file__).resolve().parent / "zoo"
# From the repository root: tests/js/node_modules (installed by `npm ci --prefix tests/js`).
MODULES_DIR = Path(__file__).resolve().parents[2] / "tests" / "js" / "node_modules"
_TYPES = {".js": "text/javascript", ".mjs": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml",
          ".html": "text/html; charset=utf-8", ".png": "image/png", ".gif": "image/gif", ".json": "application/json"}


# The server-backed suggestions of remote.html: offered only for what was typed.
CITIES = ("Porto", "Portland", "Port Louis", "Lisbon", "Lyon", "Oslo", "Osaka", "Ottawa", "Zurich")
SUGGEST_DELAY_S = 2.0  # longer than a drop-down takes to open: only a wait for the server gets them


def page_names() -> list[str]:
    """The zoo's pages (one per library), without ``.html``."""
    return sorted(p.stem for p in PAGES_DIR.glob("*.html"))


def _inside(root: Path, rel: str) -> Path | None:
    path = (root / rel).resolve()
    return path if path.is_relative_to(root.resolve()) and path.is_file() else None


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_GET(self) -> None:
        rel = self.path.split("?", 1)[0].lstrip("/")
        if rel == "received":
            self._received()
            return
        if rel == "suggest":
            self._suggest()
            return
        pages = self.server.pages_dir
        path = _inside(MODULES_DIR, rel.removeprefix("lib/")) if rel.startswith("lib/") else _inside(pages, rel)
        if path is None:
            self.send_error(404)
            return
        body = path.read_bytes()
        self.send_response(200)
        ctype = _TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        if rel.startswith("lib/"):
            # An npm package's file never changes while the site runs: a browser may keep it (and the code it
            # compiled from it) as it does a real site's libraries, instead of fetching and compiling antd or
            # Shoelace's modules again on every page. Measured (4 zoo pages opened 4 times in one browser, the
            # first round excluded): 8.9 -> 4.8 CPU s; Shoelace's page 1.6-2.1 -> 0.5-0.6 CPU s.
            self.send_header("Cache-Control", "max-age=86400")
        self.end_headers()
        self.wfile.write(body)

    def do_POST(self) -> None:
        """A form sent from a zoo page: kept as fields (``ZooSite.posts``: each name's values joined by commas, as a
        test compares them), answered with a confirmation page."""
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if "urlencoded" in (self.headers.get("Content-Type") or ""):
            fields = urllib.parse.parse_qs(body.decode("utf-8", "replace"), keep_blank_values=True)
            self.server.posts.append({name: ",".join(values) for name, values in fields.items()})
        self._received()

    def _suggest(self) -> None:
        """Server-backed suggestions (remote.html): the cities whose name holds ``q`` (or jQuery UI's ``term``),
        answered after a short delay, as a real search endpoint would."""
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        text = (query.get("q") or query.get("term") or [""])[0].casefold()
        time.sleep(SUGGEST_DELAY_S)  # the answer takes a moment, as a real server's does
        names = [c for c in CITIES if text and text in c.casefold()]
        body = json.dumps(names).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def _received(self) -> None:
        body = b"<!doctype html><html lang='en'><title>Received</title><h1>Form received</h1></html>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        return None


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, pages_dir: Path) -> None:
        self.pages_dir = pages_dir
        self.posts: list[dict[str, str]] = []  # the forms sent to it, in order
        super().__init__(("127.0.0.1", 0), _Handler)


class ZooSite:
    """The zoo on a free loopback port, from a background thread: ``with ZooSite() as zoo: zoo.url("bootstrap")``.
    ``pages_dir``: serve other pages (tests' own) beside the same ``/lib/`` packages."""

    def __init__(self, pages_dir: Path = PAGES_DIR) -> None:
        self.pages_dir = pages_dir
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None, "the zoo is not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def url(self, page: str) -> str:
        return f"{self.base_url}/{page}.html"

    @property
    def posts(self) -> list[dict[str, str]]:
        """The urlencoded forms its pages sent, in order (each field's values joined by commas)."""
        assert self._server is not None, "the zoo is not started"
        return self._server.posts

    def __enter__(self) -> ZooSite:
        self._server = _Server(self.pages_dir)
        self._thread = threading.Thread(target=self._server.serve_forever, name="zoo-site", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._server = self._thread = None
