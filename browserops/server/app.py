"""The Starlette app of ``browserops serve``: routes, security headers, and the set of open streams.

Every route needs a token (see ``auth.py``). ``?session=ID`` picks the chat session (default ``default``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from browserops.chat.api import check_session_id
from browserops.chat.engine import ChatEngine
from browserops.chat.events import Subscription
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.server.auth import TokenAuth, Tokens, role_of
from browserops.server.page import render_page
from browserops.server.sse import EventStream
from browserops.server.ws import CHAT_EVENT_TYPES, chat_socket

DEFAULT_SESSION = "default"


@dataclass
class ServerState:
    """What the routes share: the engine, and the streams to end when the server stops."""

    engine: ChatEngine
    workspace: Path
    streams: set[Subscription] = field(default_factory=set)
    closing: bool = False

    def track(self, sub: Subscription) -> Subscription:
        self.streams.add(sub)
        return sub

    def close_streams(self) -> None:
        self.closing = True
        for sub in list(self.streams):
            sub.close()
        self.streams.clear()


def _error(status: int, code: ErrorCode, message: str) -> JSONResponse:
    return JSONResponse({"status": "error", "code": code.value, "error": message}, status_code=status)


def _session_param(request: Request | WebSocket) -> str:
    return check_session_id(request.query_params.get("session") or DEFAULT_SESSION)


class SecurityHeaders:
    """No caching, no sniffing, no referrer (the page URL may still carry the token when first opened)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {k.lower() for k, _ in headers}
                for key, value in ((b"referrer-policy", b"no-referrer"), (b"x-content-type-options", b"nosniff"),
                                   (b"cache-control", b"no-store"), (b"x-frame-options", b"DENY")):
                    if key not in names:
                        headers.append((key, value))
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, with_headers)


def create_app(engine: ChatEngine, tokens: Tokens, *, workspace: Path | None = None) -> Starlette:
    state = ServerState(engine=engine, workspace=(workspace or engine.workspace).resolve())

    async def page(request: Request) -> Response:
        _session_param(request)
        nonce = secrets.token_urlsafe(16)
        host = request.headers.get("host", "127.0.0.1")
        csp = (f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; img-src 'self' blob:; "
               f"connect-src 'self' ws://{host}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
        return HTMLResponse(render_page(nonce), headers={"Content-Security-Policy": csp})

    async def events(request: Request) -> Response:
        sid = _session_param(request)
        if state.closing:
            return _error(503, ErrorCode.INTERNAL, "The server is shutting down.")
        raw = request.headers.get("last-event-id") or request.query_params.get("after") or "0"
        try:
            after = max(0, int(raw))
        except ValueError:
            return _error(400, ErrorCode.INVALID_ARGS, f"Last-Event-ID/after must be a number, got {raw[:20]!r}.")
        sub = state.track(engine.bus.subscribe(sid, after_seq=after))
        return _StreamResponse(EventStream(sub), lambda: state.streams.discard(sub))

    async def api_state(request: Request) -> Response:
        sid = _session_param(request)
        session = engine.session(sid)
        return JSONResponse({
            "role": role_of(request.scope),
            "running": engine.is_running(sid),
            "last_seq": engine.bus.last_seq(sid),
            **session.public_view(),
        })

    async def latest_screenshot(request: Request) -> Response:
        sid = _session_param(request)
        observation = engine.session(sid).last_observation or {}
        rel = observation.get("screenshot")
        if isinstance(rel, str) and rel:
            path = (state.workspace / rel).resolve()
            # Only PNGs inside this workspace: the path came from an event, never trust it blindly.
            if path.is_relative_to(state.workspace) and path.suffix.lower() == ".png" and path.is_file():
                return FileResponse(path, media_type="image/png")
        return _error(404, ErrorCode.FILE_NOT_FOUND, "No screenshot in this session yet.")

    async def websocket(ws: WebSocket) -> None:
        try:
            sid = _session_param(ws)
            engine.session(sid)
        except BrowserOpsError as exc:
            await ws.close(code=1008, reason=exc.message[:120])
            return
        sub = state.track(engine.bus.subscribe(sid, types=CHAT_EVENT_TYPES))
        try:
            await chat_socket(ws, engine, sid, role_of(ws.scope), sub)
        finally:
            state.streams.discard(sub)
            sub.close()

    async def bad_request(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, BrowserOpsError)
        return _error(409 if exc.code is ErrorCode.SESSION_IN_USE else 400, exc.code, exc.message)

    app = Starlette(
        routes=[
            Route("/", page, methods=["GET"]),
            Route("/events", events, methods=["GET"]),
            Route("/api/state", api_state, methods=["GET"]),
            Route("/screenshot/latest", latest_screenshot, methods=["GET"]),
            WebSocketRoute("/ws", websocket),
        ],
        exception_handlers={BrowserOpsError: bad_request},
    )
    app.state.server = state
    app.add_middleware(TokenAuth, tokens=tokens)
    app.add_middleware(SecurityHeaders)
    return app


class _StreamResponse(Response):
    """Adapts an ASGI callable (the SSE stream) to a Starlette Response, with a cleanup callback."""

    def __init__(self, stream: EventStream, on_close: Callable[[], None]) -> None:
        self.stream = stream
        self.on_close = on_close

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            await self.stream(scope, receive, send)
        finally:
            self.on_close()
