"""Session-only cookies kept in a ``--profile DIR`` from one run to the next.

Chromium drops cookies without an expiry when it closes, so a sign-in without "Remember me" did not outlast a
run. Like a browser set to "continue where you left off", the session saves them when it closes and restores
them when it opens, before the first page is loaded. They live inside the profile
(``DIR/browserops-session/cookies.json``, folder 0700, file 0600) and nowhere else: never in a bundle or a log
(logs say how many). Lasting cookies, localStorage and IndexedDB are kept by the Chromium profile itself;
sessionStorage belongs to a tab and ends with it, as in any browser. ``browserops profile clear DIR`` deletes
the saved session (signing out of sites whose sign-in was session-only).
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
from pathlib import Path
from typing import Any

import orjson
from playwright.async_api import BrowserContext

log = logging.getLogger(__name__)

SESSION_DIR = "browserops-session"
COOKIES_FILE = "cookies.json"


def session_dir(profile: Path) -> Path:
    return profile / SESSION_DIR


def _session_only(cookies: list[Any]) -> list[dict[str, Any]]:
    return [dict(c) for c in cookies if float(c.get("expires", -1)) < 0]


def saved_cookies(profile: Path) -> list[dict[str, Any]]:
    """The saved session-only cookies ([] when none or unreadable: a broken file only costs a sign-in)."""
    path = session_dir(profile) / COOKIES_FILE
    try:
        data = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return []
    return [c for c in data if isinstance(c, dict)] if isinstance(data, list) else []


async def restore(context: BrowserContext, profile: Path) -> int:
    """Add the saved session-only cookies to a freshly opened profile context; how many."""
    cookies = saved_cookies(profile)
    if cookies:
        await context.add_cookies(cookies)  # type: ignore[arg-type]
    log.info("profile session restored: %d session-only cookies", len(cookies))
    return len(cookies)


async def save(context: BrowserContext, profile: Path) -> int:
    """Write the context's session-only cookies into the profile (replacing what was saved); how many."""
    cookies = _session_only(list(await context.cookies()))
    folder = session_dir(profile)
    folder.mkdir(mode=0o700, exist_ok=True)
    os.chmod(folder, 0o700)
    tmp = folder / (COOKIES_FILE + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(orjson.dumps(cookies))
    os.replace(tmp, folder / COOKIES_FILE)
    log.info("profile session saved: %d session-only cookies", len(cookies))
    return len(cookies)


def clear(profile: Path) -> bool:
    """Delete the saved session; True when there was one."""
    folder = session_dir(profile)
    existed = folder.exists()
    with contextlib.suppress(FileNotFoundError):
        shutil.rmtree(folder)
    return existed
