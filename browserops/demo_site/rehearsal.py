"""Pages for prepare's rehearsal, and the site's own request log (``GET /__requests``).

``/rehearse/order`` is a form whose fields appear only after in-page clicks (a "More options" disclosure that also
sends an analytics beacon, "Add another row", a Billing tab) or typing (a product search whose "Add …" buttons
appear as one types), and posts to itself; ``/rehearse/editing`` releases its "editing session" with a beacon and a
keepalive POST when the page is left or closed (as a CMS editor does); ``/rehearse/unsafe`` has one
control per kind of request a rehearsal must keep from leaving (a POST the page needs, a beacon, a WebSocket
message, a link to a page no plan names, a popup, a download). The request log records every request and
WebSocket message that reached the site, so a test can say that ``prepare`` sent nothing unsafe.
"""

from __future__ import annotations

import threading

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from browserops.demo_site.web import demo_state, render

LOG_LIMIT = 5000


class RequestLog:
    """Every request that reached the site: method and path (test endpoints under ``/__`` are left out)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.entries: list[dict[str, str]] = []

    def add(self, method: str, path: str) -> None:
        if path.startswith("/__"):
            return
        with self._lock:
            self.entries = [*self.entries[-(LOG_LIMIT - 1):], {"method": method, "path": path}]

    def clear(self) -> None:
        with self._lock:
            self.entries = []

    def copy(self) -> list[dict[str, str]]:
        with self._lock:
            return list(self.entries)


class LogRequests:
    """ASGI middleware: each HTTP request (and each WebSocket handshake, as ``WS``) into the log."""

    def __init__(self, app: ASGIApp, log: RequestLog) -> None:
        self.app = app
        self.log = log

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            self.log.add(str(scope["method"]), str(scope["path"]))
        elif scope["type"] == "websocket":
            self.log.add("WS", str(scope["path"]))
        await self.app(scope, receive, send)


def _log(request: Request | WebSocket) -> RequestLog:
    log: RequestLog = request.app.state.request_log
    return log


async def get_requests(request: Request) -> Response:
    return JSONResponse({"requests": _log(request).copy()}, headers={"Cache-Control": "no-store"})


async def post_reset_requests(request: Request) -> Response:
    _log(request).clear()
    return JSONResponse({"ok": True})


async def order(request: Request) -> Response:
    if request.method == "POST":
        form = await request.form()
        return render(request, "rehearse/done.html", "Order placed", {"items": len(form)})
    # A test variant renames the section's field, as a site update would between prepare and run.
    notes_label = demo_state(request).variant("order_notes_label") or "Delivery notes"
    return render(request, "rehearse/order.html", "New order", {"notes_label": notes_label})


async def unsafe(request: Request) -> Response:
    return render(request, "rehearse/unsafe.html", "Unsafe controls", {"q": request.query_params.get("q", "")})


async def editing(request: Request) -> Response:
    if request.method == "POST":
        return render(request, "rehearse/done.html", "Note saved", {"items": len(await request.form())})
    return render(request, "rehearse/editing.html", "Edit the note", {})


async def report(request: Request) -> Response:
    return render(request, "rehearse/done.html", "Report", {"items": 0})


async def accepted(request: Request) -> Response:
    """The endpoint of the draft save and the beacon: it answers, and the log says it was reached."""
    return JSONResponse({"ok": True})


async def export_csv(request: Request) -> Response:
    return PlainTextResponse("name\nAcme\n", headers={"Content-Disposition": 'attachment; filename="orders.csv"'})


async def chat(websocket: WebSocket) -> None:
    """Says "welcome" on connect; every message the page sends is logged as ``WSMSG``."""
    await websocket.accept()
    await websocket.send_text("welcome")
    try:
        while True:
            await websocket.receive_text()
            _log(websocket).add("WSMSG", "/rehearse/chat")
    except WebSocketDisconnect:
        return


ROUTES: list[BaseRoute] = [
    Route("/__requests", get_requests, methods=["GET"]),
    Route("/__requests/reset", post_reset_requests, methods=["POST"]),
    Route("/rehearse/order", order, methods=["GET", "POST"]),
    Route("/rehearse/unsafe", unsafe, methods=["GET"]),
    Route("/rehearse/report", report, methods=["GET"]),
    Route("/rehearse/editing", editing, methods=["GET", "POST"]),
    Route("/rehearse/draft", accepted, methods=["POST"]),
    Route("/rehearse/beacon", accepted, methods=["POST"]),
    Route("/rehearse/export.csv", export_csv, methods=["GET"]),
    WebSocketRoute("/rehearse/chat", chat),
]

