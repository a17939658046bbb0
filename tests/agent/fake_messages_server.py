"""A real HTTP server on 127.0.0.1 that speaks just enough of the Messages API for wire tests.

It records every request (path, headers, JSON body) and answers from a queue of :class:`Reply` entries:
a message, an error status (with ``retry-after`` if wanted), or a slow reply that outlives a timeout.
When the queue is empty, ``responder`` (if set) computes the reply from the request body, so a scripted model
can answer over the real wire; otherwise an empty queue answers 500 so a test that under-fills it fails loudly
rather than hanging.
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

_ids = itertools.count(1)


@dataclass
class Reply:
    status: int = 200
    body: dict[str, Any] = field(default_factory=dict)
    headers: dict[str, str] = field(default_factory=dict)
    delay_s: float = 0.0


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


def message(text: str = "", tool_uses: list[tuple[str, dict[str, Any]]] | None = None, *,
            stop_reason: str | None = None, model: str = "fake-model") -> Reply:
    content: list[dict[str, Any]] = []
    if text:
        content.append({"type": "text", "text": text})
    for name, args in tool_uses or []:
        content.append({"type": "tool_use", "id": f"toolu_fake_{next(_ids):04d}", "name": name, "input": args})
    return Reply(body={
        "id": f"msg_fake_{next(_ids):04d}",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": stop_reason or ("tool_use" if tool_uses else "end_turn"),
        "stop_sequence": None,
        "usage": {"input_tokens": 120, "output_tokens": 17},
    })


def error(status: int, kind: str, text: str = "fake error", *, retry_after: str | None = None) -> Reply:
    headers = {"retry-after": retry_after} if retry_after is not None else {}
    return Reply(status=status, body={"type": "error", "error": {"type": kind, "message": text}}, headers=headers)


def slow(reply: Reply, delay_s: float) -> Reply:
    return Reply(status=reply.status, body=reply.body, headers=reply.headers, delay_s=delay_s)


class FakeMessagesServer:
    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.queue: list[Reply] = []
        self.responder: Callable[[dict[str, Any]], Reply] | None = None
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # keep test output clean
                return

            def do_POST(self) -> None:
                length = int(self.headers.get("content-length", "0"))
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw or b"{}")
                except json.JSONDecodeError:
                    body = {"_raw": raw.decode("utf-8", "replace")}
                with server._lock:
                    server.requests.append(Recorded("POST", self.path, {k.lower(): v for k, v in self.headers.items()},
                                                    body))
                    if server.queue:
                        reply = server.queue.pop(0)
                    elif server.responder is not None:
                        try:
                            reply = server.responder(body)
                        except Exception as exc:  # a failing script must fail the test, not hang it
                            reply = error(500, "api_error", f"responder failed: {type(exc).__name__}: {exc}")
                    else:
                        reply = error(500, "api_error", "queue empty")
                if self.path.split("?")[0] != "/v1/messages":
                    reply = error(404, "not_found_error", f"no route {self.path}")
                if reply.delay_s and server._stopping.wait(reply.delay_s):
                    return
                payload = json.dumps(reply.body).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(payload)))
                    for key, value in reply.headers.items():
                        self.send_header(key, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a timeout test): nothing to answer

        self._httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                        name="fake-messages", daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}"

    def push(self, *replies: Reply) -> None:
        with self._lock:
            self.queue.extend(replies)

    def __enter__(self) -> FakeMessagesServer:
        self._thread.start()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self._stopping.set()
        self._httpd.shutdown()
        self._httpd.server_close()
        self._thread.join(timeout=5)
