"""A partner server that records everything it receives, for the origin-rule tests: a raw TCP listener on a free
loopback port, so a connection counts even when it never becomes a whole HTTP request or WebSocket handshake (a
test asserts it received nothing at all). It answers each request with a small 200, so an attack that does reach
it runs to its end as it would on a real partner."""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator

import pytest

ANSWER = (b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nAccess-Control-Allow-Origin: *\r\nContent-Length: 2\r\n"
          b"Connection: close\r\n\r\nok")


class Partner:
    def __init__(self) -> None:
        self._server = socket.create_server(("127.0.0.1", 0))
        self.port = self._server.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self._lock = threading.Lock()
        self._received: list[str] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    @property
    def received(self) -> list[str]:
        """The first line of every connection that reached it ("" for one that sent nothing)."""
        with self._lock:
            return list(self._received)

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self._server.accept()
            except OSError:
                return  # closed
            threading.Thread(target=self._one, args=(conn,), daemon=True).start()

    def _one(self, conn: socket.socket) -> None:
        with conn:
            conn.settimeout(5)
            try:
                first = conn.recv(4096).split(b"\r\n", 1)[0].decode("latin-1")
            except OSError:
                first = ""
            with self._lock:
                self._received.append(first)
            with contextlib.suppress(OSError):
                conn.sendall(ANSWER)

    def close(self) -> None:
        self._server.close()


@pytest.fixture
def partner() -> Iterator[Partner]:
    server = Partner()
    yield server
    server.close()
