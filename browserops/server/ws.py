"""``WS /ws``: the chat channel of a session.

In (JSON text frames, owner only): ``{"type": "user_message", "text": "..."}`` — a chat line, slash commands
included; ``{"type": "confirm", "approved": true|false}`` — ``/yes``/``/no``; ``{"type": "stop"}``.
Out: ``hello`` (role and state) on connect, then the session's ``agent_message``, ``agent_question``,
``status``, ``policy_request``, ``policy_result``, ``manual_stop`` and ``error`` events as they happen, in the
event shape ``{type, session_id, seq, at, data}``. Replies meant only for the sender (``/status``, "busy")
come as ``agent_message`` with ``seq: null`` and ``data.kind == "info"``. A viewer receives everything but
any message it sends is answered with an ``error`` event ``BROWSER_UNAUTHORIZED``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect

from browserops.chat.api import TurnOutcome, now
from browserops.chat.engine import VIEWER_REFUSAL, ChatEngine
from browserops.chat.events import Subscription
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.server.auth import Role

log = logging.getLogger(__name__)

CHAT_EVENT_TYPES = frozenset({"agent_message", "agent_question", "status", "policy_request", "policy_result",
                              "manual_stop", "error"})
MAX_MESSAGE_CHARS = 4000


def _direct(session_id: str, type: str, **data: Any) -> dict[str, Any]:
    return {"type": type, "session_id": session_id, "seq": None, "at": now().isoformat(), "data": data}


class ChatSocket:
    """One connected client: forwards bus events and turns its messages into engine input."""

    def __init__(self, websocket: WebSocket, engine: ChatEngine, session_id: str, role: Role,
                 subscription: Subscription) -> None:
        self.ws = websocket
        self.engine = engine
        self.session_id = session_id
        self.role = role
        self.subscription = subscription
        self._send_lock = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    async def send(self, payload: dict[str, Any]) -> None:
        async with self._send_lock:
            await self.ws.send_text(orjson.dumps(payload).decode())

    async def run(self) -> None:
        state = self.engine.session(self.session_id)
        view = {**state.public_view(), "running": self.engine.is_running(self.session_id)}
        await self.send(_direct(self.session_id, "hello", role=self.role, state=view))
        forward = asyncio.create_task(self._forward())
        try:
            while True:
                message = await self.ws.receive()
                if message["type"] == "websocket.disconnect":
                    break
                await self._on_frame(message.get("text"))
        except WebSocketDisconnect:
            pass
        finally:
            self.subscription.close()
            forward.cancel()
            # A turn keeps running in the engine after its client leaves; only the waiting wrappers go.
            for task in [forward, *self._tasks]:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _forward(self) -> None:
        async for event in self.subscription:
            try:
                await self.send(event.to_json())
            except (WebSocketDisconnect, RuntimeError, OSError):
                return
        # The subscription ended (server shutdown): say goodbye so the client reconnects later.
        with contextlib.suppress(RuntimeError, OSError):
            await self.ws.close(code=1001)

    async def _error(self, code: ErrorCode, message: str) -> None:
        await self.send(_direct(self.session_id, "error", code=code.value, error=message))

    async def _on_frame(self, text: str | None) -> None:
        try:
            message = orjson.loads(text or "")
        except orjson.JSONDecodeError:
            message = None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self._error(ErrorCode.INVALID_ARGS, 'Send JSON like {"type": "user_message", "text": "..."}.')
            return
        kind = message["type"]
        line: str | None = None
        if kind == "user_message":
            raw = message.get("text")
            if not isinstance(raw, str) or not raw.strip() or len(raw) > MAX_MESSAGE_CHARS:
                await self._error(ErrorCode.INVALID_ARGS, f"user_message needs a text of 1-{MAX_MESSAGE_CHARS} "
                                                          "characters.")
                return
            line = raw
        elif kind == "confirm":
            if not isinstance(message.get("approved"), bool):
                await self._error(ErrorCode.INVALID_ARGS, 'confirm needs "approved": true or false.')
                return
            line = "/yes" if message["approved"] else "/no"
        elif kind == "stop":
            line = "/stop"
        else:
            await self._error(ErrorCode.INVALID_ARGS, f"Unknown message type {kind!r}: use user_message, "
                                                      "confirm or stop.")
            return
        if self.role != "owner":
            await self._error(ErrorCode.UNAUTHORIZED, VIEWER_REFUSAL)
            return
        task = asyncio.create_task(self._submit(line))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _submit(self, line: str) -> None:
        sid = self.session_id
        try:
            # The page is a chat: a plain message enters chat mode first, as /chat would in the REPL.
            if not line.startswith("/") and self.engine.session(sid).mode != "chat":
                await self.engine.submit(sid, "/chat", role=self.role)
            replies = await self.engine.submit(sid, line, role=self.role)
        except BrowserOpsError as exc:
            await self._error(exc.code, exc.message)
            return
        for reply in replies:
            # Outcomes reach every client through the bus; only plain replies are sent directly.
            if not isinstance(reply, TurnOutcome):
                await self.send(_direct(sid, "agent_message", text=reply, kind="info"))


async def chat_socket(websocket: WebSocket, engine: ChatEngine, session_id: str, role: Role,
                      subscription: Subscription) -> None:
    await websocket.accept()
    await ChatSocket(websocket, engine, session_id, role, subscription).run()
