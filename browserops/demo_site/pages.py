"""Read-mostly pages: home, search, banners, frames, shadow DOM, SPA, popups, slow, large, scroll, dialogs…"""

from __future__ import annotations

import asyncio

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from browserops.demo_site.catalogue import LARGE_MAX, large_sections, search_catalogue
from browserops.demo_site.web import (
    CONSENT_TEXTS,
    NEWSLETTER_COOKIE,
    alt_url,
    consent_banner,
    demo_state,
    int_param,
    render,
    templates,
)

SITE_MAP: list[tuple[str, str]] = [
    ("/search?q=stapler", "Search results"),
    ("/login", "Log in"),
    ("/account", "Account"),
    ("/expense", "New expense"),
    ("/expense/multilang", "Multilingual form"),
    ("/expenses", "Expenses"),
    ("/pay", "Pay invoice"),
    ("/statements", "Statements"),
    ("/frames", "Frames"),
    ("/shadow", "Shadow DOM"),
    ("/spa", "Mailbox app"),
    ("/popup", "Popups"),
    ("/slow?ms=2000", "Slow page"),
    ("/slow-content", "Slow content"),
    ("/large?n=5000", "Large page"),
    ("/scroll", "Scroll"),
    ("/dialogs", "Dialogs"),
    ("/upload", "Upload"),
    ("/injection", "Office tips article"),
    ("/focus", "Focus and navigation"),
    ("/mutating", "Mutating page"),
    ("/repeated", "Repeated controls"),
    ("/banners/iframe", "Banner in an iframe"),
    ("/banners/shadow", "Banner in a shadow root"),
    ("/banners/subscribe", "Newsletter modal"),
    ("/banners/ru", "Russian banner"),
    ("/banners/zh", "Chinese banner"),
]

SPA_TABS: list[tuple[str, str]] = [("inbox", "Inbox"), ("archive", "Archive"), ("settings", "Settings")]

BANNER_PAGES: dict[str, tuple[str, str]] = {
    "iframe": ("Banner in an iframe", "The cookie banner on this page lives in a same-origin iframe."),
    "shadow": ("Banner in a shadow root", "The cookie banner on this page lives in an open shadow root."),
    "subscribe": ("Newsletter modal", "This page greets visitors with a newsletter modal."),
    "ru": ("Russian banner", "The cookie banner on this page is in Russian."),
    "zh": ("Chinese banner", "The cookie banner on this page is in Chinese."),
    "cross-frame": ("Banner in a cross-origin iframe",
                    "The cookie banner on this page lives in an iframe from another origin."),
    "traps": ("Not banners", "This page has a skip link, a cookie notice inside the article and a fixed bar "
              "whose only way out is a link to another page: none of them may be clicked by the closer."),
    "navigating": ("Banner that navigates", "The cookie banner's Reject button sends the page elsewhere."),
}


async def home(request: Request) -> Response:
    return render(
        request,
        "home.html",
        "Browserops demo site",
        {"site_map": SITE_MAP},
        banner=consent_banner(request, on_by_default=True),
    )


async def search(request: Request) -> Response:
    query = request.query_params.get("q", "")
    if "q" in request.query_params:
        demo_state(request).record_search(query)
    return render(
        request,
        "search.html",
        "Search results",
        {"query": query, "results": search_catalogue(query)},
        banner=consent_banner(request, on_by_default=False),
    )


async def banner_page(request: Request) -> Response:
    variant = str(request.path_params["variant"])
    if variant not in BANNER_PAGES:
        return render(request, "not_found.html", "Page not found", status_code=404)
    title, description = BANNER_PAGES[variant]
    nobanner = request.query_params.get("nobanner") == "1"
    if variant == "subscribe":
        show = not nobanner and not request.cookies.get(NEWSLETTER_COOKIE)
    else:
        show = consent_banner(request, on_by_default=True)
    context = {"variant": variant, "show": show, "description": description, "alt_url": alt_url(request)}
    if variant in ("ru", "zh"):
        context["consent_texts"] = CONSENT_TEXTS[variant]
    # The iframe/shadow/subscribe variants draw their own overlay instead of the base template's banner.
    return render(request, "banners/page.html", title, context, banner=show and variant in ("ru", "zh"))


async def consent_frame(request: Request) -> Response:
    return templates.TemplateResponse(request, "banners/consent_frame.html", {"consent_texts": CONSENT_TEXTS["en"]})


async def frames(request: Request) -> Response:
    return render(
        request,
        "frames.html",
        "Frames",
        {"alt_url": alt_url(request)},
        banner=consent_banner(request, on_by_default=False),
    )


async def frame_inner(request: Request) -> Response:
    return templates.TemplateResponse(request, "frame_inner.html", {})


async def frame_cross(request: Request) -> Response:
    return templates.TemplateResponse(request, "frame_cross.html", {"clicks": demo_state(request).cross_clicks})


async def frame_cross_click(request: Request) -> Response:
    return JSONResponse({"clicks": demo_state(request).record_cross_click()})


async def shadow(request: Request) -> Response:
    return render(request, "shadow.html", "Shadow DOM", banner=consent_banner(request, on_by_default=False))


async def spa(request: Request) -> Response:
    tab = str(request.path_params.get("tab", "inbox"))
    if tab not in dict(SPA_TABS):
        return render(request, "not_found.html", "Page not found", status_code=404)
    return render(
        request,
        "spa.html",
        "Mailbox",
        {"tabs": SPA_TABS, "initial_tab": tab},
        banner=consent_banner(request, on_by_default=False),
    )


PING_HOLD_MAX_MS = 1000


async def api_ping(request: Request) -> Response:
    """``?hold=MS`` (at most 1 s) answers after that long: the SPA's long poll, so one request is always in
    flight and the network never goes idle however late the page's timers fire."""
    try:
        hold = min(PING_HOLD_MAX_MS, max(0, int(request.query_params.get("hold", "0"))))
    except ValueError:
        hold = 0
    if hold:
        await asyncio.sleep(hold / 1000)
    return JSONResponse({"ok": True}, headers={"Cache-Control": "no-store"})


async def popup(request: Request) -> Response:
    return render(request, "popup.html", "Popups", banner=consent_banner(request, on_by_default=False))


async def popup_target(request: Request) -> Response:
    return render(request, "popup_target.html", "Report", {"via": request.query_params.get("via", "")})


async def slow(request: Request) -> Response:
    ms = int_param(request, "ms", 2000, 0, 60_000)
    await asyncio.sleep(ms / 1000)
    return render(request, "slow.html", "Slow page", {"ms": ms}, banner=consent_banner(request, on_by_default=False))


async def slow_content(request: Request) -> Response:
    ms = int_param(request, "ms", 1500, 0, 60_000)
    return render(
        request, "slow_content.html", "Slow content", {"ms": ms}, banner=consent_banner(request, on_by_default=False)
    )


async def large(request: Request) -> Response:
    n = int_param(request, "n", 5000, 0, LARGE_MAX)
    return render(
        request,
        "large.html",
        "Large page",
        {"n": n, "sections": large_sections(n)},
        banner=consent_banner(request, on_by_default=False),
    )


async def scroll(request: Request) -> Response:
    return render(request, "scroll.html", "Scroll", banner=consent_banner(request, on_by_default=False))


async def dialogs(request: Request) -> Response:
    return render(request, "dialogs.html", "Dialogs", banner=consent_banner(request, on_by_default=False))


async def dialogs_beforeunload(request: Request) -> Response:
    return render(request, "beforeunload.html", "Unsaved changes")


async def focus(request: Request) -> Response:
    return render(request, "focus.html", "Focus and navigation", banner=consent_banner(request, on_by_default=False))


async def mutating(request: Request) -> Response:
    return render(request, "mutating.html", "Mutating page", banner=consent_banner(request, on_by_default=False))


REPEATED_POSTS = [("ada", "2h", "Shipped the new release notes."), ("bob", "3h", "Who has the printer key?"),
                  ("cierra", "5h", "Lunch order is in the shared sheet."), ("dmitri", "1d", "Back on Monday."),
                  ("emma", "2d", "Slides for Friday are up.")]
REPEATED_ORDERS = [("Printer toner", 4), ("Stapler", 2), ("A4 paper", 10), ("Desk lamp", 1)]
REPEATED_PRODUCTS = [("Widget Pro", "$12.99"), ("Widget Mini", "$7.49"), ("Gadget Max", "$24.00"),
                     ("Doohickey", "$3.10")]
REPEATED_CHIPS = ["Python", "Rust", "TypeScript", "Go"]


async def repeated(request: Request) -> Response:
    """The same control many times over: per-post icon toolbars and "more" menus, per-row Edit/Delete, per-card
    "Add to cart", per-chip "Remove"; each click reports which one it was."""
    return render(request, "repeated.html", "Repeated controls", {
        "posts": [{"author": a, "when": w, "text": t} for a, w, t in REPEATED_POSTS],
        "orders": [{"item": i, "qty": q} for i, q in REPEATED_ORDERS],
        "products": [{"name": n, "price": p} for n, p in REPEATED_PRODUCTS],
        "chips": REPEATED_CHIPS,
    }, banner=consent_banner(request, on_by_default=False))


ROUTES: list[Route] = [
    Route("/", home, name="home"),
    Route("/search", search, name="search"),
    Route("/banners/consent-frame", consent_frame, name="consent_frame"),
    Route("/banners/{variant}", banner_page, name="banner_page"),
    Route("/frames", frames, name="frames"),
    Route("/frames/inner", frame_inner, name="frame_inner"),
    Route("/frames/cross", frame_cross, name="frame_cross"),
    Route("/frames/cross/click", frame_cross_click, methods=["POST"], name="frame_cross_click"),
    Route("/shadow", shadow, name="shadow"),
    Route("/spa", spa, name="spa"),
    Route("/spa/{tab}", spa, name="spa_tab"),
    Route("/api/ping", api_ping, name="api_ping"),
    Route("/popup", popup, name="popup"),
    Route("/popup/target", popup_target, name="popup_target"),
    Route("/slow", slow, name="slow"),
    Route("/slow-content", slow_content, name="slow_content"),
    Route("/large", large, name="large"),
    Route("/scroll", scroll, name="scroll"),
    Route("/dialogs", dialogs, name="dialogs"),
    Route("/dialogs/beforeunload", dialogs_beforeunload, name="dialogs_beforeunload"),
    Route("/focus", focus, name="focus"),
    Route("/mutating", mutating, name="mutating"),
    Route("/repeated", repeated, name="repeated"),
]
