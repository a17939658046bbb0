"""Test-only HTTP endpoints (``/__state``, ``/__reset``, ``/__variant``, ``/__draft``)."""

from __future__ import annotations

import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from browserops.demo_site.web import demo_state


async def _json_object(request: Request) -> dict[str, Any] | None:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError):
        return None
    return body if isinstance(body, dict) else None


def _bad(message: str) -> Response:
    return JSONResponse({"ok": False, "error": message}, status_code=400)


async def get_state(request: Request) -> Response:
    return JSONResponse(demo_state(request).snapshot(), headers={"Cache-Control": "no-store"})


async def post_reset(request: Request) -> Response:
    demo_state(request).reset()
    return JSONResponse({"ok": True})


async def post_variant(request: Request) -> Response:
    body = await _json_object(request)
    if body is None or not isinstance(body.get("name"), str) or not body["name"]:
        return _bad('expected {"name": str, "value": str | null}')
    value = body.get("value")
    if value is not None and not isinstance(value, str):
        return _bad("value must be a string or null")
    demo_state(request).set_variant(body["name"], value)
    return JSONResponse({"ok": True, "variants": demo_state(request).snapshot()["variants"]})


async def post_draft(request: Request) -> Response:
    body = await _json_object(request)
    if body is None or not all(isinstance(v, str) or v is None for v in body.values()):
        return _bad("expected a JSON object of field -> string (or null to clear)")
    demo_state(request).update_draft(body)
    return JSONResponse({"ok": True, "draft": demo_state(request).draft_copy()})


ROUTES: list[Route] = [
    Route("/__state", get_state, methods=["GET"], name="test_state"),
    Route("/__reset", post_reset, methods=["POST"], name="test_reset"),
    Route("/__variant", post_variant, methods=["POST"], name="test_variant"),
    Route("/__draft", post_draft, methods=["POST"], name="test_draft"),
]
