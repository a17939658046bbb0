"""Running the demo site: :class:`DemoSite` (background thread, two origins) and :func:`serve_forever`."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import socket
import threading
import time
from collections.abc import Callable
from types import FrameType, TracebackType
from typing import Any

import uvicorn

from browserops.demo_site.app import create_app
from browserops.demo_site.state import DemoState

logger = logging.getLogger(__name__)

_START_TIMEOUT_S = 15.0
_STOP_TIMEOUT_S = 10.0


def _bind(host: str, port: int) -> socket.socket:
    """A bound (not yet listening) TCP socket; port 0 picks a free port."""
    family, socktype, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    sock = socket.socket(family, socktype, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
    except OSError:
        sock.close()
        raise
    sock.set_inheritable(False)
    return sock


def _url_host(host: str) -> str:
    """The host name to put in URLs (wildcard binds are reached over loopback)."""
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    if ":" in host and not host.startswith("["):
        return f"[{host}]"
    return host


class DemoSite:
    """The demo site on two local origins, served from a background thread.

    ``base_url`` serves every page; ``alt_url`` (another port, so another origin) serves the same
    app and is used for the cross-origin iframe on ``/frames``. Pass ``alt_host`` (e.g.
    ``"localhost"`` or ``"127.0.0.2"``) to make the alt origin cross-*site* as well.
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        alt_port: int = 0,
        *,
        alt_host: str | None = None,
        state: DemoState | None = None,
    ) -> None:
        self.host = host
        self.alt_host = alt_host
        self._requested_ports = (port, alt_port)
        self.state = state if state is not None else DemoState()
        self._ports: tuple[int, int] | None = None
        self._sockets: list[socket.socket] = []
        self._servers: list[uvicorn.Server] = []
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None

    # ------------------------------------------------------------------ addresses

    @property
    def port(self) -> int:
        return self._require_ports()[0]

    @property
    def alt_port(self) -> int:
        return self._require_ports()[1]

    @property
    def base_url(self) -> str:
        return f"http://{_url_host(self.host)}:{self.port}"

    @property
    def alt_url(self) -> str:
        return f"http://{_url_host(self.alt_host or self.host)}:{self.alt_port}"

    def url(self, path: str = "/", *, alt: bool = False) -> str:
        """Absolute URL of ``path`` on the main (or alt) origin."""
        if not path.startswith("/"):
            path = "/" + path
        return (self.alt_url if alt else self.base_url) + path

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def _require_ports(self) -> tuple[int, int]:
        if self._ports is None:
            raise RuntimeError("DemoSite is not started")
        return self._ports

    # ------------------------------------------------------------------ lifecycle

    def start(self) -> DemoSite:
        """Bind both ports and serve in a background thread; return once both accept connections."""
        if self.running:
            raise RuntimeError("DemoSite is already running")
        port, alt_port = self._requested_ports
        main_sock = _bind(self.host, port)
        try:
            alt_sock = _bind(self.alt_host or self.host, alt_port)
        except OSError:
            main_sock.close()
            raise
        self._sockets = [main_sock, alt_sock]
        self._ports = (main_sock.getsockname()[1], alt_sock.getsockname()[1])
        app = create_app(self.state, alt_port=self._ports[1], alt_host=self.alt_host)
        self._servers = [
            uvicorn.Server(
                uvicorn.Config(
                    app,
                    log_config=None,
                    log_level="warning",
                    access_log=False,
                    lifespan="off",
                    ws="websockets-sansio",  # the rehearsal page's chat socket
                    server_header=False,
                    timeout_graceful_shutdown=1,
                )
            )
            for _ in self._sockets
        ]
        self._error = None
        self._thread = threading.Thread(target=self._run, name="browserops-demo-site", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + _START_TIMEOUT_S
        while not all(s.started for s in self._servers):
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"demo site failed to start: {self._error!r}")
            time.sleep(0.01)
        logger.info("demo site serving on %s (alt origin %s)", self.base_url, self.alt_url)
        return self

    def _run(self) -> None:
        async def serve_all() -> None:
            await asyncio.gather(
                *(srv.serve(sockets=[sock]) for srv, sock in zip(self._servers, self._sockets, strict=True))
            )

        try:
            asyncio.run(serve_all())
        except BaseException as exc:  # recorded for start() and logged; the thread must not die silently
            self._error = exc
            logger.exception("demo site server thread failed")

    def stop(self) -> None:
        """Shut both servers down, join the thread and free the ports. Safe to call twice."""
        for srv in self._servers:
            srv.should_exit = True
        if self._thread is not None:
            self._thread.join(_STOP_TIMEOUT_S)
            if self._thread.is_alive():
                for srv in self._servers:
                    srv.force_exit = True
                self._thread.join(_STOP_TIMEOUT_S)
            if self._thread.is_alive():
                logger.warning("demo site thread did not stop in time")
        for sock in self._sockets:
            with contextlib.suppress(OSError):
                sock.close()
        self._thread = None
        self._servers = []
        self._sockets = []

    def reset(self) -> None:
        """Back to the initial server state (cookies live in the browser and are not touched)."""
        self.state.reset()

    def __enter__(self) -> DemoSite:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        where = f"{self.base_url}, alt {self.alt_url}" if self._ports else "not started"
        return f"DemoSite({where})"


def serve_forever(
    host: str,
    port: int,
    alt_port: int | None = None,
    *,
    on_ready: Callable[[DemoSite], None] | None = None,
) -> None:
    """Serve the demo site until SIGINT/SIGTERM (for ``browserops demo-site``).

    ``alt_port`` defaults to ``port + 1`` (or a free port when ``port`` is 0). ``on_ready`` is
    called with the started :class:`DemoSite` (e.g. for the CLI to print its URLs).
    """
    if alt_port is None:
        alt_port = port + 1 if port else 0
    if port and alt_port == port:
        raise ValueError("alt_port must differ from port")
    stop_event = threading.Event()

    def on_signal(signum: int, frame: FrameType | None) -> None:
        stop_event.set()

    previous: dict[signal.Signals, Any] = {}
    if threading.current_thread() is threading.main_thread():
        for sig in (signal.SIGINT, signal.SIGTERM):
            previous[sig] = signal.signal(sig, on_signal)
    site = DemoSite(host=host, port=port, alt_port=alt_port)
    try:
        site.start()
        if on_ready is not None:
            on_ready(site)
        while not stop_event.wait(0.5):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        site.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
        logger.info("demo site stopped")
