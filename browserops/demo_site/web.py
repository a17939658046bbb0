"""Shared helpers for the demo site's route modules (templates, state access, cookies, banners)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast
from urllib.parse import quote, unquote

import jinja2
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.templating import Jinja2Templates

from browserops.demo_site.state import DemoState

PACKAGE_DIR = Path(__file__).resolve().parent
TEMPLATE_DIR = PACKAGE_DIR / "templates"
STATIC_DIR = PACKAGE_DIR / "static"

SESSION_COOKIE = "session"
CONSENT_COOKIE = "consent"
NEWSLETTER_COOKIE = "newsletter"

CONSENT_TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "lang": "en",
        "title": "We value your privacy",
        "body": "We use cookies to improve your experience. Choose whether to accept them.",
        "accept": "Accept all",
        "reject": "Reject",
    },
    "ru": {
        "lang": "ru",
        "title": "Мы ценим вашу конфиденциальность",
        "body": "Мы используем файлы cookie, чтобы сайт работал лучше. Выберите, принять ли их.",
        "accept": "Принять все",
        "reject": "Отклонить",
    },
    "zh": {
        "lang": "zh",
        "title": "我们重视您的隐私",
        "body": "我们使用 Cookie 来改善您的体验。请选择是否接受。",
        "accept": "全部接受",
        "reject": "拒绝",
    },
}

_env = jinja2.Environment(
    loader=jinja2.FileSystemLoader(str(TEMPLATE_DIR)),
    autoescape=True,
    trim_blocks=True,
    lstrip_blocks=True,
)
templates = Jinja2Templates(env=_env)


def demo_state(request: Request) -> DemoState:
    return cast(DemoState, request.app.state.demo)


def alt_url(request: Request) -> str:
    """Base URL of the alt (cross-origin) server as seen from this request's host."""
    host = cast("str | None", request.app.state.alt_host) or request.url.hostname or "127.0.0.1"
    if ":" in host and not host.startswith("["):
        host = f"[{host}]"
    return f"{request.url.scheme}://{host}:{int(request.app.state.alt_port)}"


def current_user(request: Request) -> str | None:
    raw = request.cookies.get(SESSION_COOKIE)
    if not raw:
        return None
    user = unquote(raw)
    return user or None


def session_cookie_value(user: str) -> str:
    return quote(user, safe="")


def safe_next(target: str | None, default: str = "/account") -> str:
    """Only local absolute paths are accepted as redirect targets (no open redirect)."""
    if not target or not target.startswith("/") or target.startswith("//") or "\\" in target:
        return default
    return target


def login_wall(request: Request) -> RedirectResponse | None:
    """Redirect to ``/login?next=<path>`` when nobody is logged in."""
    if current_user(request) is not None:
        return None
    path = request.url.path
    if request.url.query:
        path = f"{path}?{request.url.query}"
    return RedirectResponse(f"/login?next={quote(path, safe='/')}", status_code=303)


def consent_banner(request: Request, *, on_by_default: bool) -> bool:
    """Whether to show the cookie-consent banner on this request.

    ``?nobanner=1`` hides it; ``?banner=force`` always shows it; otherwise a ``consent``
    cookie hides it, and without the cookie it shows on pages where it is on by default
    (home and the banner pages) or when ``?banner=1`` is passed.
    """
    params = request.query_params
    if params.get("nobanner") == "1":
        return False
    if params.get("banner") == "force":
        return True
    if request.cookies.get(CONSENT_COOKIE):
        return False
    return on_by_default or params.get("banner") == "1"


def render(
    request: Request,
    name: str,
    title: str,
    context: dict[str, Any] | None = None,
    *,
    status_code: int = 200,
    banner: bool = False,
    lang: str = "en",
) -> Response:
    ctx: dict[str, Any] = {
        "title": title,
        "banner": banner,
        "lang": lang,
        "user": current_user(request),
        "consent_texts": CONSENT_TEXTS["en"],
    }
    ctx.update(context or {})
    return templates.TemplateResponse(request, name, ctx, status_code=status_code)


def int_param(request: Request, name: str, default: int, low: int, high: int) -> int:
    try:
        value = int(request.query_params.get(name, default))
    except ValueError:
        value = default
    return max(low, min(high, value))
