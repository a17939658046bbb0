"""Pages whose "Save" says one thing and sends another, for the run's saved check ("complete means saved").

``/save/<case>``: a title field and a Save button; what Save does depends on the case:

- ``plain``: POSTs the title (``/save/api``, answered 200), then says "Saved";
- ``local``: says "Saved" and sends nothing at all (the change lives only in the page);
- ``broken``: says "Saved" at once and POSTs to ``/save/api?fail=1``, which answers 500;
- ``undoable``: says "Element updated" with an Undo button in an alert and holds a leave-page guard; the PUT leaves
  only when the notice closes (``delay`` ms, 2000 by default), as an undoable save of an admin framework does;
- ``debounced``: says nothing and POSTs the title ``delay`` ms after the click, as an autosave's debounce does;
- ``rest``: PUTs to ``/save/api/<the title>`` (the value in the URL's path, as a REST API names a resource), then
  says "Saved";
- ``beacon``: says "Saved" and sends only an analytics beacon to another site (``/save/collect`` on the other
  loopback name: ``localhost`` for a page on ``127.0.0.1``, answered 204); nothing of its own;
- ``csp``: served with a Content-Security-Policy whose reports go to ``/save/csp`` (answered 400); Save shows a
  picture from the other site, which the policy refuses and reports, then (500 ms later) POSTs the title (answered
  200) and says "Saved";
- ``heartbeat``: a WebSocket to ``/rehearse/chat`` sends "ping" every 200 ms from the start (the page says "Live"
  once the first has left); Save says "Saved" and sends nothing else;
- ``autosave``: no Save needed: every change of the title is POSTed ``delay`` ms after the last key (a debounced
  autosave), then the page says "Saved".

``/save/leave``: a form whose Save posts and navigates away (``POST /save/form``, answered 303 to a page saying
"Saved"); as the page goes, its pagehide listener releases its lock with ``sendBeacon`` (``POST /save/release``,
answered 202), which the browser sends after the document is gone, as a CMS editor does.

``/save/rows``: a list of rows, each with an "Approve" link that approves by GET (``/save/approve?row=N``, answered
303 back to the list, which then says "<row> approved"), as admin apps' row actions do; the table is one bulk-action
form whose action choice is required (an admin change list), so that form is invalid while a link in it is clicked.

``/save/order``: a Russian page (``lang="ru"``) whose amount and date show as the language writes them
(``13 250,50``, ``02.11.2026``), with an empty comment; Сохранить POSTs all three to ``/save/api``.

Every request reaches the site's request log (``GET /__requests``), so a test compares the run's ledger with it.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from browserops.demo_site.web import render

CASES = ("plain", "local", "broken", "undoable", "debounced", "rest", "beacon", "csp", "autosave", "heartbeat")
ROWS = ("Printer toner", "Desk lamp", "Office chairs")


def other_site(request: Request) -> str:
    """The demo site under its other loopback name: another site to the browser, the same server."""
    host = request.url.hostname or "127.0.0.1"
    other = "localhost" if host != "localhost" else "127.0.0.1"
    return f"{request.url.scheme}://{other}:{request.url.port}"


async def save_page(request: Request) -> Response:
    case = request.path_params["case"]
    if case not in CASES:
        return JSONResponse({"error": "no such case"}, status_code=404)
    delay = request.query_params.get("delay", "2000")
    page = render(request, "save.html", "Edit the title", {"case": case, "other": other_site(request),
                                                           "delay": int(delay) if delay.isdigit() else 2000})
    if case == "csp":
        page.headers["Content-Security-Policy"] = "img-src 'self'; report-uri /save/csp"
    return page


async def collect(request: Request) -> Response:
    await request.body()
    return Response(status_code=204)


async def csp_report(request: Request) -> Response:
    await request.body()
    return JSONResponse({"error": "reports are not taken here"}, status_code=400)


async def rows_page(request: Request) -> Response:
    shown = request.query_params.get("approved", "")
    said = f"{ROWS[int(shown)]} approved" if shown.isdigit() and int(shown) < len(ROWS) else ""
    return render(request, "save_rows.html", "Orders", {"rows": list(enumerate(ROWS)),
                                                        "approved": set(request.app.state.demo.approvals),
                                                        "said": said})


async def approve(request: Request) -> Response:
    row = request.query_params.get("row", "")
    if not row.isdigit() or int(row) >= len(ROWS):
        return JSONResponse({"error": "no such row"}, status_code=404)
    request.app.state.demo.record_approval(int(row))
    return RedirectResponse(f"/save/rows?approved={row}", status_code=303)


async def order_page(request: Request) -> Response:
    return render(request, "save_order.html", "Заказ З-1003", lang="ru")


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
    Route("/save/collect", collect, methods=["POST"]),
    Route("/save/csp", csp_report, methods=["POST"]),
    Route("/save/rows", rows_page, methods=["GET"]),
    Route("/save/approve", approve, methods=["GET"]),
    Route("/save/order", order_page, methods=["GET"]),
    Route("/save/leave", leave_page, methods=["GET"]),
    Route("/save/form", leave_form, methods=["POST"]),
    Route("/save/release", release, methods=["POST"]),
    Route("/save/api", save_api, methods=["POST", "PUT"]),
    Route("/save/api/{title}", save_api, methods=["PUT"]),
    Route("/save/{case}", save_page, methods=["GET"]),
]
