"""Pages whose "Save" says one thing and sends another, for the run's saved check ("complete means saved").

``/save/<case>``: a title field and a Save button; what Save does depends on the case:

- ``plain``: POSTs the title (``/save/api``, answered 200), then says "Saved";
- ``local``: says "Saved" and sends nothing at all (the change lives only in the page);
- ``broken``: says "Saved" at once and POSTs to ``/save/api?fail=1``, which answers 500;
- ``undoable``: says "Element updated" with an Undo button in an alert and holds a leave-page guard; the PUT leaves
  only when the notice closes (``delay`` ms, 2000 by default), as an undoable save of an admin framework does;
- ``debounced``: says nothing and POSTs the title ``delay`` ms after the click, as an autosave's debounce does;
- ``rest``: PUTs to ``/save/api/<the title>`` (the value in the URL's path, as a REST API names a resource), then
  says "Saved".

``/save/leave``: a form whose Save posts and navigates away (``POST /save/form``, answered 303 to a page saying
"Saved"); as the page goes, its pagehide listener releases its lock with ``sendBeacon`` (``POST /save/release``,
answered 202), which the browser sends after the document is gone, as a CMS editor does.

Every request reaches the site's request log (``GET /__requests``), so a test compares the run's ledger with it.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from browserops.demo_site.web import render

CASES = ("plain", "local", "broken", "undoable", "debounced", "rest")


async def save_page(request: Request) -> Response:
    case = request.path_params["case"]
    if case not in CASES:
        return JSONResponse({"error": "no such case"}, status_code=404)
    delay = request.query_params.get("delay", "2000")
    return render(request, "save.html", "Edit the title", {"case": case,
                                                           "delay": int(delay) if delay.isdigit() else 2000})


async def save_api(request: Request) -> Response:
    await request.body()
    if request.query_params.get("fail"):
        return JSONResponse({"error": "the database is read-only"}, status_code=500)
    return JSONResponse({"ok": True})


async def leave_page(request: Request) -> Response:
    return render(request, "save_leave.html", "Edit the title", {"saved": request.query_params.get("saved", "")})


async def leave_form(request: Request) -> Response:
    form = await request.form()
    title = str(form.get("title", ""))
    return RedirectResponse(f"/save/leave?saved={len(title)}+characters", status_code=303)


async def release(request: Request) -> Response:
    await request.body()
    return Response(status_code=202)


ROUTES: list[BaseRoute] = [
    Route("/save/leave", leave_page, methods=["GET"]),
    Route("/save/form", leave_form, methods=["POST"]),
    Route("/save/release", release, methods=["POST"]),
    Route("/save/api", save_api, methods=["POST", "PUT"]),
    Route("/save/api/{title}", save_api, methods=["PUT"]),
    Route("/save/{case}", save_page, methods=["GET"]),
]
