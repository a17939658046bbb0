"""Starting a real application for a test: a subprocess on a free loopback port, its log captured, torn down after.

Each application of the corpus lives in ``tests/realapps/apps/<name>/`` with its pinned install (a uv project with a
lock file for Python apps, a package-lock.json for npm apps), the little glue a deployer writes (settings, model
registration, seed data) and an ``app.py`` with a ``start(tmp: Path) -> contextmanager[RunningApp]`` that seeds a
fresh database under ``tmp`` and starts the app. Nothing of browserops' product code may know these apps.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

APPS = Path(__file__).resolve().parent / "apps"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class RunningApp:
    """A started application: where it listens, its database file (or API), and its own request log."""

    name: str
    base_url: str
    log_path: Path
    data: dict[str, object] = field(default_factory=dict)

    def log_text(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")


def wait_until_up(url: str, proc: subprocess.Popen[bytes], log_path: Path, timeout_s: float = 60.0) -> None:
    """Poll ``url`` until it answers (any HTTP status), the process dies, or the bound passes."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"app exited with {proc.returncode}:\n{log_path.read_text(errors='replace')[-4000:]}")
        try:
            with urllib.request.urlopen(url, timeout=2):
                return
        except urllib.error.HTTPError:
            return
        except (urllib.error.URLError, OSError):
            time.sleep(0.1)  # polling a starting server; not synchronisation between our own steps
    raise RuntimeError(f"app at {url} did not answer within {timeout_s} s:\n"
                       f"{log_path.read_text(errors='replace')[-4000:]}")


@contextlib.contextmanager
def app_process(cmd: Sequence[str], *, cwd: Path, env: Mapping[str, str], health_url: str, log_path: Path,
                timeout_s: float = 60.0) -> Iterator[subprocess.Popen[bytes]]:
    """Run ``cmd`` in its own process group with stdout+stderr into ``log_path``; stop the whole group after."""
    full_env = {k: v for k, v in os.environ.items() if not k.startswith(("BROWSEROPS_", "VIRTUAL_ENV"))}
    full_env.update(env)
    with log_path.open("wb") as log:
        proc = subprocess.Popen(list(cmd), cwd=cwd, env=full_env, stdout=log, stderr=subprocess.STDOUT,
                                start_new_session=True)
        try:
            wait_until_up(health_url, proc, log_path, timeout_s)
            yield proc
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=10)
