"""Page-level moves shared by prepare and run: open a URL (and notice a login wall), wait for a step's proof,
and put screenshots and ARIA snapshots into the evidence bundle. Everything goes through :class:`GuardedTools`.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import re
import time
import urllib.parse
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence import BundleWriter
from browserops.listing_rows import listing_items
from browserops.plan.interpret.guard import GuardedTools
from browserops.plan.model.steps import Expectation

_LOGIN_PATH = re.compile(r"(^|/)(log-?in|sign-?in|signon|auth|sso|session/new|accounts?/login)(/|$|\.)", re.I)
LOGIN_POLL_S = 1.0
TEXT_POLL_MS = 100
GIVE_UP_POLL_S = 0.5  # how often a submit's form is read for fields marked invalid while its text is awaited
SETTLE_MS = 3000  # the bound of the wait after a navigation or a click before the page is read


@dataclass
class PageSeen:
    """Where the tab is, as the last tool that knew said."""

    url: str = ""
    title: str = ""

    def update(self, data: dict[str, Any]) -> None:
        if isinstance(data.get("url"), str):
            self.url = data["url"]
        if isinstance(data.get("title"), str):
            self.title = data["title"]


def page_name(url: str) -> str:
    """A short name for file names: the last path segment (``/expense`` -> ``expense``), else ``home``."""
    path = urllib.parse.urlsplit(url).path
    parts = [p for p in path.split("/") if p]
    return parts[-1] if parts else "home"


def _hash_route(url: str) -> str:
    """The route of a hash-routed single-page app (``/#/login`` -> ``/login``; ``#!/x`` too), else ''."""
    fragment = urllib.parse.urlsplit(url).fragment.removeprefix("!")
    return urllib.parse.urlsplit(fragment).path if fragment.startswith("/") else ""


def looks_like_login(url: str) -> bool:
    """A login-looking path, in the URL's path or in a hash-routed app's route."""
    return bool(_LOGIN_PATH.search(urllib.parse.urlsplit(url).path) or _LOGIN_PATH.search(_hash_route(url)))


def _same_path(a: str, b: str) -> bool:
    sa, sb = urllib.parse.urlsplit(a), urllib.parse.urlsplit(b)
    return ((sa.netloc, sa.path.rstrip("/"), _hash_route(a).rstrip("/"))
            == (sb.netloc, sb.path.rstrip("/"), _hash_route(b).rstrip("/")))


async def _login_wall(tools: GuardedTools, requested: str, data: dict[str, Any]) -> str | None:
    """The login page's URL when opening ``requested`` landed on one, else None.

    A wall is a redirect (the path changed) to a login-looking URL or to a page asking for a password, or an
    HTTP 401; asking for ``/login`` itself is not a wall."""
    final = str(data.get("url") or "")
    if data.get("http_status") == 401:
        return final or requested
    if looks_like_login(requested) or _same_path(requested, final):
        return None
    if looks_like_login(final):
        return final
    listed = await tools.need("browser_list_interactives", {"limit": 500})
    if any(item.get("type") == "password" for item in listing_items(listed)):
        return final
    return None


def login_error(requested: str, wall: str, *, waited_s: float = 0.0) -> BrowserOpsError:
    waited = f" Waited {waited_s:.0f} s for a login in the window; none came." if waited_s else ""
    return BrowserOpsError(
        ErrorCode.LOGIN_REQUIRED,
        f"{requested} shows a login page ({wall}) instead.{waited} Log in once in a dedicated browser profile: "
        "re-run with `--profile DIR --headed` and log in in the window that opens (browserops waits for it, "
        "see --login-wait); later runs with the same `--profile DIR` are logged in. browserops never types "
        "your password.",
        details={"url": requested, "login_url": wall},
    )


async def login_shown(tools: GuardedTools, seen: PageSeen) -> str | None:
    """The page's URL when the tab shows a login page now (a login-looking URL, or a password field), else None:
    asked when something expected is missing, since a single-page app may redirect to its login route after the
    page loaded (long after a navigation returned)."""
    summary = await tools.need("browser_extract", {"mode": "summary"})
    seen.update(summary)
    if looks_like_login(seen.url):
        return seen.url
    return seen.url if await _asks_for_password(tools) else None


async def _asks_for_password(tools: GuardedTools) -> bool:
    listed = await tools.need("browser_list_interactives", {"limit": 500, "format": "objects"})
    return any(item.get("type") == "password" for item in listing_items(listed))


async def open_url(tools: GuardedTools, url: str, seen: PageSeen, *, login_wait_s: float = 0.0,
                   on_wait: Callable[[str], None] | None = None, signs_in: bool = False) -> dict[str, Any]:
    """Navigate; on a login wall wait up to ``login_wait_s`` for the person to log in (headed), else raise.
    ``signs_in``: the plan's own next steps sign in on this page, so a login page is where it expects to be."""
    args = {"url": url}
    result = await tools.call("browser_navigate", args)
    if result.get("status") != "ok":
        code = str(result.get("code"))
        raise BrowserOpsError(ErrorCode(code) if code in ErrorCode._value2member_map_ else ErrorCode.NAVIGATION_FAILED,
                              str(result.get("error")))
    data = dict(result.get("data") or {})
    seen.update(data)
    await settle(tools)
    wall = None if signs_in else await _login_wall(tools, url, data)
    if wall is None:
        return data
    if login_wait_s <= 0:
        raise login_error(url, wall)
    if on_wait:
        on_wait(f"{url} needs a login: log in in the browser window (waiting up to {login_wait_s:.0f} s)…")
    started = time.monotonic()
    while time.monotonic() - started < login_wait_s:
        await asyncio.sleep(LOGIN_POLL_S)
        now = await tools.call("browser_extract", {"mode": "summary"})
        where = str((now.get("data") or {}).get("url") or "")
        if now.get("status") == "ok" and where and not looks_like_login(where):
            return await open_url(tools, url, seen, login_wait_s=0.0)
    raise login_error(url, wall, waited_s=login_wait_s)


async def settle(tools: GuardedTools) -> None:
    """Wait, at most SETTLE_MS, until the page has settled: no request its content waits for in flight (a
    single-page app fills a form only once its GETs are answered; a long poll or a beacon does not count) and the
    DOM quiet. Before the page's values are read (prepare's diff, the run's staleness check) after a navigation
    or a click: read earlier, a form shows its defaults. It only waits: nothing is clicked, typed or sent."""
    await tools.need("browser_wait", {"state": "settled", "timeout_ms": SETTLE_MS})


async def wait_expect(tools: GuardedTools, expect: Expectation, seen: PageSeen,
                      gave_up: Callable[[], Awaitable[bool]] | None = None) -> dict[str, Any] | None:
    """Wait until one of the texts is on the page and the URL contains the fragment. The proof found, or
    None when it did not come within the expectation's timeout — or sooner, once ``gave_up`` (asked every
    GIVE_UP_POLL_S while no text is there) says something on the page shows it will not come. ``proof["at_once"]``:
    it was all there at the first look (no wait timed out, the URL matched at its first check), so the page did not
    change meanwhile."""
    deadline = time.monotonic() + expect.timeout_ms / 1000
    proof: dict[str, Any] = {"at_once": True}
    if expect.text:
        matched = None
        asked = time.monotonic()
        while matched is None:
            for text in expect.text:
                result = await tools.call("browser_wait", {"text": text, "timeout_ms": TEXT_POLL_MS})
                if result.get("status") == "ok":
                    matched = text
                    break
                if result.get("code") not in (ErrorCode.TIMEOUT.value, None):
                    return None
                proof["at_once"] = False
            if matched is None and time.monotonic() >= deadline:
                return None
            if matched is None and gave_up is not None and time.monotonic() - asked >= GIVE_UP_POLL_S:
                asked = time.monotonic()
                if await gave_up():
                    return None
        proof["text"] = matched
    if expect.url_contains:
        left = max(100, int((deadline - time.monotonic()) * 1000))
        result = await tools.call("browser_wait", {"url_contains": expect.url_contains, "timeout_ms": left})
        if result.get("status") != "ok":
            return None
        data = result.get("data") or {}
        proof["url"] = data.get("url")
        proof["at_once"] = proof["at_once"] and int(data.get("waited_ms") or 0) < TEXT_POLL_MS
        seen.update({"url": proof["url"]})
    return proof


async def screenshot_into(tools: GuardedTools, writer: BundleWriter, step: int, phase: str, label: str) -> str:
    """A viewport PNG moved from the workspace's screenshots folder into the bundle; its bundle path."""
    return (await screenshot_png(tools, writer, step, phase, label))[0]


async def screenshot_png(tools: GuardedTools, writer: BundleWriter, step: int, phase: str,
                         label: str) -> tuple[str, bytes]:
    """Like :func:`screenshot_into`, also returning the image."""
    data = await tools.need("browser_screenshot", {})
    return _move_screenshot(Path(str(data["path"])), writer, step, phase, label)


def _move_screenshot(path: Path, writer: BundleWriter, step: int, phase: str, label: str) -> tuple[str, bytes]:
    try:
        png = path.read_bytes()
    except OSError as exc:
        raise BrowserOpsError(ErrorCode.INTERNAL, f"The screenshot {path} vanished: {exc.strerror}.") from exc
    rel = writer.add_screenshot(step, phase, png, label)  # type: ignore[arg-type]
    with contextlib.suppress(OSError):
        path.unlink()
    return rel, png


async def snapshot_into(tools: GuardedTools, writer: BundleWriter, n: int, name: str) -> tuple[str, str]:
    """The page's ARIA snapshot as ``snapshots/NNN_<name>.aria.txt``; (bundle path, SHA-256 of the text)."""
    data = await tools.need("browser_snapshot", {"max_chars": 500_000})
    text = str(data.get("snapshot") or "")
    rel = writer.add_snapshot(n, name, text)
    return rel, hashlib.sha256(text.encode("utf-8")).hexdigest()
