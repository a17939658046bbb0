"""Find a Chromium to launch: ``BROWSEROPS_CHROMIUM`` → Playwright's own build → the system's."""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from playwright.async_api import async_playwright

from browserops.contract import BrowserOpsError, ErrorCode

SYSTEM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")
SYSTEM_PATHS = ("/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome")

INSTALL_HINT = (
    "Install one of:\n"
    "  - Playwright's build:   uv run playwright install chromium   (or: python -m playwright install chromium)\n"
    "  - Debian/Ubuntu:        sudo apt-get install -y chromium\n"
    "or point BROWSEROPS_CHROMIUM at an existing Chrome/Chromium binary."
)


@dataclass(frozen=True)
class ChromiumLocation:
    path: str
    source: str  # "env" | "setting" | "playwright" | "system"


def _executable(path: str) -> bool:
    return Path(path).is_file() and os.access(path, os.X_OK)


def find_chromium(
    *,
    configured: str | None = None,
    playwright_path: str | None = None,
    env: Mapping[str, str] | None = None,
    search_path: str | None = None,
    system_paths: tuple[str, ...] = SYSTEM_PATHS,
) -> ChromiumLocation:
    """Return the first usable Chromium, or raise BROWSER_NOT_INSTALLED saying how to install one.

    ``configured`` is the settings value (which already includes ``BROWSEROPS_CHROMIUM``); ``env`` and
    ``search_path`` exist so tests can simulate a bare machine.
    """
    env = os.environ if env is None else env
    explicit = configured or env.get("BROWSEROPS_CHROMIUM")
    if explicit:
        if _executable(explicit):
            return ChromiumLocation(explicit, "env" if not configured else "setting")
        raise BrowserOpsError(
            ErrorCode.NOT_INSTALLED,
            f"BROWSEROPS_CHROMIUM points at {explicit!r}, which is not an executable file. "
            f"Fix the path or unset it.\n{INSTALL_HINT}",
        )
    if playwright_path and _executable(playwright_path):
        return ChromiumLocation(playwright_path, "playwright")
    path_var = env.get("PATH", "") if search_path is None else search_path
    for name in SYSTEM_NAMES:
        found = shutil.which(name, path=path_var)
        if found:
            return ChromiumLocation(found, "system")
    for candidate in system_paths:
        if _executable(candidate):
            return ChromiumLocation(candidate, "system")
    raise BrowserOpsError(ErrorCode.NOT_INSTALLED, f"No Chromium found.\n{INSTALL_HINT}")


def launch_args() -> list[str]:
    """Flags that keep Chromium quiet on a closed network, and one that keeps every binary isolating sites as
    desktop Chromium does (the headless shell may not by default): a cross-site frame is then always in its own
    process, out of the page's DevTools session, whichever binary runs — what the listing's frame handling is
    built for. ``--no-sandbox`` comes from Playwright's ``chromium_sandbox=False``, which the session sets only
    when running as root."""
    return [
        "--site-per-process",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
        "--no-default-browser-check",
    ]


def driver_compile_cache(env: MutableMapping[str, str] | None = None) -> None:
    """Give the Playwright driver node's compile cache (``NODE_COMPILE_CACHE``: node >= 22.1; the driver's bundled
    node is 26), in the user's cache directory (``$XDG_CACHE_HOME/browserops``, else ``~/.cache/browserops``).

    Every browser session starts a driver, a node process that otherwise compiles Playwright's bundle afresh each
    time: measured, a driver start + stop 0.76 -> 0.69 CPU s (7 runs each, twice). Playwright hands the driver this
    process's environment, so the variable is set here, before a driver starts. A cache node cannot write is
    silently not used by node; a ``NODE_COMPILE_CACHE`` (or ``NODE_DISABLE_COMPILE_CACHE``) already set is left
    as it is."""
    env = os.environ if env is None else env
    if "NODE_COMPILE_CACHE" in env or "NODE_DISABLE_COMPILE_CACHE" in env:
        return
    base = Path(env["XDG_CACHE_HOME"]) if env.get("XDG_CACHE_HOME") else Path.home() / ".cache"
    env["NODE_COMPILE_CACHE"] = str(base / "browserops" / "node-compile-cache")


def running_as_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def launch_options(chromium: ChromiumLocation, *, headless: bool, extra_args: Sequence[str]) -> dict[str, Any]:
    """What Playwright's ``launch`` (or ``launch_persistent_context``) is given for a local Chromium: the binary,
    headless or not, :func:`launch_args` and ``extra_args``, and the sandbox unless running as root."""
    return {"executable_path": chromium.path, "headless": headless, "args": [*launch_args(), *extra_args],
            "chromium_sandbox": not running_as_root()}


async def locate_chromium(configured: str | None) -> dict[str, Any]:
    """Discovery only, without launching: which binary would be used and why."""
    driver_compile_cache()
    async with async_playwright() as pw:
        pw_path = pw.chromium.executable_path
    found = find_chromium(configured=configured, playwright_path=pw_path)
    return {"chromium": found.path, "chromium_source": found.source}
