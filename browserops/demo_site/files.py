"""Statements and downloads: CSV export, inline PDF, hostile file names."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route

from browserops.demo_site.catalogue import MONTH_RE, statement_csv, statement_pdf, statement_rows
from browserops.demo_site.web import consent_banner, demo_state, render

HOSTILE_NAME = "../../etc/evil name?.csv"
HOSTILE_ABSOLUTE_NAME = "/tmp/x.csv"


async def statements(request: Request) -> Response:
    return render(
        request,
        "statements.html",
        "Statements",
        # Variant statements_export=archives: the export links also post "archive these" (a page that changed after
        # prepare looked at it, for the run's own export check).
        # statements_export=delayed: they post it a second after the click.
        {"rows": statement_rows(), "archives": demo_state(request).variant("statements_export")},
        banner=consent_banner(request, on_by_default=False),
    )


async def export_csv(request: Request) -> Response:
    month = request.query_params.get("month", "2026-01")
    if not MONTH_RE.match(month):
        return PlainTextResponse("month must look like YYYY-MM", status_code=400)
    filename = f"statements_{month}.csv"
    demo_state(request).record_download(filename)
    return Response(
        statement_csv(month),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{filename}"'},
    )


async def statement_pdf_file(request: Request) -> Response:
    month = str(request.path_params["month"])
    if not MONTH_RE.match(month):
        return PlainTextResponse("month must look like YYYY-MM", status_code=404)
    filename = f"statements_{month}.pdf"
    demo_state(request).record_download(filename)
    return Response(
        statement_pdf(month),
        media_type="application/pdf",
        headers={"Content-Disposition": f'inline; filename="{filename}"'},
    )


async def hostile(request: Request) -> Response:
    name = HOSTILE_ABSOLUTE_NAME if request.query_params.get("abs") == "1" else HOSTILE_NAME
    demo_state(request).record_download(name)
    return Response(
        "id,value\n1,harmless\n",
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


async def archive(request: Request) -> Response:
    """What the export links post in the ``archives`` variant: a change an export must never make."""
    await request.body()
    return Response(status_code=204)


ROUTES: list[Route] = [
    Route("/statements/archive", archive, methods=["POST"], name="statements_archive"),
    Route("/statements", statements, name="statements"),
    Route("/statements/export.csv", export_csv, name="statements_export_csv"),
    Route("/statements/hostile", hostile, name="statements_hostile"),
    Route("/statements/{month}.pdf", statement_pdf_file, name="statements_pdf"),
]
