"""Serving the saved real pages (``tests/realweb/pages/`` in the repository) locally, for tests and benchmarks.

The pages are offline copies of real articles: their scripts, styles, images and frames point at hosts that
cannot be reached from a test machine, and every such request would wait on DNS. :func:`blank_offsite` empties
the ``src``/``href``/``srcset`` of the resource-loading tags (``script``, ``link``, ``img``, ``iframe``,
``source``, ``video``, ``audio``, ``embed``) when they point off this machine; everything else — links, forms,
``<base href>``, inline scripts and styles — stays as the site wrote it. Pages are served as bytes (decoded as
Latin-1 only to rewrite tags), so each page keeps its own character encoding.
"""

from __future__ import annotations

import gzip
import os
import re
import threading
from functools import cache
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType
from typing import Any

# In the repository, beside the tests that use them (with their LICENSE and a README saying where they came from).
DEFAULT_DIR = Path(__file__).resolve().parents[2] / "tests" / "realweb" / "pages"
ENV_DIR = "BROWSEROPS_REAL_PAGES"

_RESOURCE_TAG = re.compile(r"<(script|link|img|iframe|frame|source|video|audio|embed|input)\b[^>]*>", re.I | re.S)
_URL_ATTR = re.compile(r"""(\s(?:src|href|srcset|data-src|data-srcset|poster)\s*=\s*)("[^"]*"|'[^']*'|[^\s>]+)""",
                       re.I)
_BASE = re.compile(r"""<base\b[^>]*\shref\s*=\s*["']?([^"'\s>]+)""", re.I)
_OFFSITE = re.compile(r"^\s*(?:[a-z][a-z0-9+.-]*:)?//", re.I)
_LOCAL_SCHEMES = re.compile(r"^\s*(?:data|blob|about|javascript):", re.I)


def pages_dir() -> Path:
    return Path(os.environ.get(ENV_DIR) or DEFAULT_DIR)


def page_names(directory: Path | None = None) -> list[str]:
    """The saved pages' names (``<sha256>.html``), sorted."""
    folder = directory or pages_dir()
    return sorted(p.name.removesuffix(".gz") for p in folder.glob("*.html.gz"))


def blank_offsite(html: str) -> str:
    """``html`` with every off-machine resource URL of the loading tags emptied (see the module docstring).

    A relative URL counts as off-machine too when the page's ``<base href>`` points at another host, since
    the browser resolves it there.
    """
    base = _BASE.search(html)
    base_offsite = bool(base and _OFFSITE.match(base.group(1)))

    def attr(match: re.Match[str]) -> str:
        value = match.group(2).strip("\"'")
        if _LOCAL_SCHEMES.match(value) or not value.strip():
            return match.group(0)
        if _OFFSITE.match(value) or base_offsite:
            return f'{match.group(1)}""'
        return match.group(0)

    def tag(match: re.Match[str]) -> str:
        return _URL_ATTR.sub(attr, match.group(0))

    return _RESOURCE_TAG.sub(tag, html)


@cache
def _served_bytes(path: Path) -> bytes:
    raw = gzip.decompress(path.read_bytes()).decode("latin-1")
    return blank_offsite(raw).encode("latin-1")


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_GET(self) -> None:
        name = self.path.split("?", 1)[0].lstrip("/")
        path = self.server.directory / f"{name}.gz"
        if "/" in name or not name.endswith(".html") or not path.is_file():
            self.send_error(404)
            return
        body = _served_bytes(path)
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        return None


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        super().__init__(("127.0.0.1", 0), _Handler)


class RealPagesSite:
    """The saved pages on a free loopback port, from a background thread: ``with RealPagesSite() as site:``."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = directory or pages_dir()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None, "the site is not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def url(self, name: str) -> str:
        return f"{self.base_url}/{name}"

    def names(self) -> list[str]:
        return page_names(self.directory)

    def start(self) -> RealPagesSite:
        self._server = _Server(self.directory)
        self._thread = threading.Thread(target=self._server.serve_forever, name="real-pages", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def __enter__(self) -> RealPagesSite:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
