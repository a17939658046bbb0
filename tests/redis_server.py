"""A real ``redis-server`` (Debian's package, installed by scripts/setup.sh) on a free loopback port, with no
persistence, for the Redis lane tests and bench/lanes.py."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path
from types import TracebackType

import redis


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class RedisServer:
    """``with RedisServer(tmp_dir) as server: server.url`` — started on entry, killed on exit."""

    def __init__(self, folder: Path, *, start_timeout_s: float = 20.0) -> None:
        self.folder = folder
        self.start_timeout_s = start_timeout_s
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _start_once(self) -> bool:
        binary = shutil.which("redis-server")
        assert binary, "redis-server is not installed: run scripts/setup.sh (apt-get install -y redis-server)"
        self.port = free_port()
        self.folder.mkdir(parents=True, exist_ok=True)
        self.proc = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.folder), "--protected-mode", "yes"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        client = redis.Redis(port=self.port, socket_connect_timeout=0.5)
        deadline = time.monotonic() + self.start_timeout_s
        try:
            while time.monotonic() < deadline:
                if self.proc.poll() is not None:
                    return False  # e.g. the port was taken in between: try another
                try:
                    if client.ping():
                        return True
                except redis.RedisError:
                    time.sleep(0.05)
        finally:
            client.close()
        raise AssertionError("redis-server did not answer PING in time")

    def __enter__(self) -> RedisServer:
        for _ in range(5):
            if self._start_once():
                return self
        raise AssertionError("redis-server could not start on a free port")

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.proc is not None:
            self.proc.kill()
            self.proc.wait(timeout=10)
