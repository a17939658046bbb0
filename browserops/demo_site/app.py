"""The Starlette application of the demo site (routes are defined in pages/forms/files/testhooks)."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles

from browserops.demo_site import attacks, files, forms, hops, invoices, leaks, pages, rehearsal, saving, testhooks
from browserops.demo_site.state import DemoState
from browserops.demo_site.web import STATIC_DIR, render


async def _not_found(request: Request, exc: Exception) -> Response:
    return render(request, "not_found.html", "Page not found", status_code=404)


def create_app(state: DemoState, *, alt_port: int, alt_host: str | None = None) -> Starlette:
    """Build the app. Both origins (main and alt) serve this same app over the same ``state``.

    ``alt_port``/``alt_host`` tell pages where the cross-origin server lives; without ``alt_host``
    the alt origin uses the host name of the incoming request (so it works behind any address).
    """
    routes: list[BaseRoute] = [
        *pages.ROUTES,
        *forms.ROUTES,
        *files.ROUTES,
        *testhooks.ROUTES,
        *attacks.ROUTES,
        *hops.ROUTES,
        *leaks.ROUTES,
        *invoices.ROUTES,
        *rehearsal.ROUTES,
        *saving.ROUTES,
        Mount("/static", app=StaticFiles(directory=str(STATIC_DIR)), name="static"),
    ]
    log = rehearsal.RequestLog()
    app = Starlette(routes=routes, exception_handlers={404: _not_found},
                    middleware=[Middleware(rehearsal.LogRequests, log=log)])
    app.state.demo = state
    app.state.request_log = log
    app.state.alt_port = alt_port
    app.state.alt_host = alt_host
    return app
