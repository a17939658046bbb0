"""Run the chat server with uvicorn on the loopback interface only.

``ChatServer`` binds the socket itself (so ``port=0`` picks a free port that is known before the first
request), starts uvicorn in the current event loop, and on stop — or on Ctrl+C/SIGTERM — first ends the open
SSE/WebSocket streams, so shutdown never waits on an endless stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
import threading
from collections.abc import Callable, Generator
from types import FrameType
from urllib.parse import quote

import uvicorn

from browserops.chat.engine import ChatEngine
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.server.app import DEFAULT_SESSION, ServerState, create_app
from browserops.server.auth import LOOPBACK_NAMES, Tokens

DEFAULT_PORT = 8770


def check_loopback(host: str) -> str:
    if host not in LOOPBACK_NAMES:
        raise BrowserOpsError(
            ErrorCode.INVALID_ARGS,
            f"The chat server listens on the loopback interface only (127.0.0.1); {host!r} is refused because it "
            "would let other machines drive your browser. Use an SSH tunnel to reach it from elsewhere.",
        )
    return host


def bind_socket(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise BrowserOpsError(
            ErrorCode.SERVER_START_FAILED,
            f"Cannot listen on {host}:{port}: {exc.strerror or exc}. Choose another --port (0 picks a free one).",
        ) from exc
    sock.listen(128)
    sock.setblocking(False)
    return sock


class _Server(uvicorn.Server):
    """uvicorn's server; Ctrl+C/SIGTERM end our streams first and shut down cleanly (exit status 0).

    With ``handle_signals=False`` (tests, embedding) it leaves the process's signal handling alone.
    """

    def __init__(self, config: uvicorn.Config, on_exit: Callable[[], None], *, handle_signals: bool) -> None:
        super().__init__(config)
        self._on_exit = on_exit
        self._handle_signals = handle_signals

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        installed: list[int] = []
        if self._handle_signals and threading.current_thread() is threading.main_thread():
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.add_signal_handler(sig, self._on_signal, sig)
                installed.append(sig)
        try:
            yield
        finally:
            for installed_sig in installed:
                asyncio.get_running_loop().remove_signal_handler(installed_sig)

    def _on_signal(self, sig: int) -> None:
        self._on_exit()
        if self.should_exit and sig == signal.SIGINT:
            self.force_exit = True  # a second Ctrl+C: stop waiting for connections
        self.should_exit = True

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        self._on_signal(sig)


class ChatServer:
    def __init__(self, engine: ChatEngine, *, host: str = "127.0.0.1", port: int = DEFAULT_PORT,
                 tokens: Tokens | None = None, handle_signals: bool = False) -> None:
        self.engine = engine
        self.host = check_loopback(host)
        self.requested_port = port
        self.tokens = tokens or Tokens.generate()
        self.handle_signals = handle_signals
        self.app = create_app(engine, self.tokens)
        self._state: ServerState = self.app.state.server
        self._server: _Server | None = None
        self._task: asyncio.Task[None] | None = None
        self.port = 0

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def page_url(self, token: str, session_id: str = DEFAULT_SESSION) -> str:
        return f"{self.url}/?session={quote(session_id)}&token={quote(token)}"

    def _end_streams(self) -> None:
        self._state.close_streams()

    async def start(self) -> None:
        sock = bind_socket(self.host, self.requested_port)
        self.port = sock.getsockname()[1]
        config = uvicorn.Config(self.app, log_level="warning", access_log=False, lifespan="off",
                                ws="websockets-sansio", timeout_graceful_shutdown=3)
        self._server = _Server(config, self._end_streams, handle_signals=self.handle_signals)
        self._task = asyncio.create_task(self._server.serve(sockets=[sock]), name="chat-server")
        while not self._server.started:
            if self._task.done():
                sock.close()
                await self._task  # re-raises what stopped it
                raise BrowserOpsError(ErrorCode.SERVER_START_FAILED, "The chat server stopped while starting.")
            await asyncio.sleep(0.01)

    async def wait_closed(self) -> None:
        if self._task is not None:
            await self._task

    async def stop(self) -> None:
        self._state.close_streams()
        if self._server is not None:
            self._server.should_exit = True
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
