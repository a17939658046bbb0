"""Tokens and the ASGI middleware that requires one on every request (HTTP and WebSocket).

Two random tokens are made at start: the owner's (may chat, confirm, stop) and a read-only viewer's (may
watch; docs/design.md §10.5: no side effects from anyone but the owner). A token comes as ``Authorization: Bearer``
or, for EventSource/WebSocket/page loads that cannot set headers, as ``?token=``. Comparison is constant
time. The Host header must name the loopback interface, so a DNS-rebinding page cannot reach the server.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Literal
from urllib.parse import parse_qs

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from browserops.contract import ErrorCode

Role = Literal["owner", "viewer"]
ROLE_KEY = "browserops.role"
LOOPBACK_NAMES = frozenset({"127.0.0.1", "localhost", "::1"})


@dataclass(frozen=True)
class Tokens:
    owner: str
    viewer: str

    @classmethod
    def generate(cls) -> Tokens:
        return cls(owner=secrets.token_urlsafe(32), viewer=secrets.token_urlsafe(32))

    def role_for(self, token: str | None) -> Role | None:
        if not token:
            return None
        given = token.encode("utf-8", "surrogateescape")
        # Both comparisons always run, so timing does not tell which token was close.
        is_owner = secrets.compare_digest(given, self.owner.encode())
        is_viewer = secrets.compare_digest(given, self.viewer.encode())
        return "owner" if is_owner else "viewer" if is_viewer else None


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return str(value.decode("latin-1"))
    return None


def token_from_scope(scope: Scope) -> str | None:
    auth = _header(scope, b"authorization")
    if auth and auth[:7].lower() == "bearer ":
        return auth[7:].strip()
    query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
    values = query.get("token")
    return values[0] if values else None


def host_is_loopback(host_header: str | None) -> bool:
    if not host_header:
        return False
    host = host_header.strip()
    if host.startswith("["):
        name = host[1 : host.find("]")] if "]" in host else host
    else:
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    return name.lower() in LOOPBACK_NAMES


def _error(status: int, code: ErrorCode, message: str) -> JSONResponse:
    headers = {"WWW-Authenticate": "Bearer"} if status == 401 else None
    return JSONResponse({"status": "error", "code": code.value, "error": message}, status_code=status,
                        headers=headers)


class TokenAuth:
    """Rejects any request without a valid token (401) or with a non-loopback Host (400)."""

    def __init__(self, app: ASGIApp, tokens: Tokens) -> None:
        self.app = app
        self.tokens = tokens

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        if not host_is_loopback(_header(scope, b"host")):
            await self._deny(scope, receive, send, _error(
                400, ErrorCode.UNAUTHORIZED, "This server only answers requests addressed to 127.0.0.1."))
            return
        role = self.tokens.role_for(token_from_scope(scope))
        if role is None:
            await self._deny(scope, receive, send, _error(
                401, ErrorCode.UNAUTHORIZED,
                "A token is required: use the owner or viewer token printed when `browserops serve` started "
                "(header 'Authorization: Bearer TOKEN' or '?token=TOKEN')."))
            return
        scope[ROLE_KEY] = role
        await self.app(scope, receive, send)

    @staticmethod
    async def _deny(scope: Scope, receive: Receive, send: Send, response: JSONResponse) -> None:
        if scope["type"] == "websocket":
            if "websocket.http.response" in scope.get("extensions", {}):
                await response(scope, receive, send)  # a real HTTP 401 instead of the handshake
            else:
                await send({"type": "websocket.close", "code": 1008})
            return
        await response(scope, receive, send)


def role_of(scope: Scope) -> Role:
    role: Role = scope[ROLE_KEY]
    return role
