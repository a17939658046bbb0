"""What a :class:`~browserops.browser.launch.session.BrowserSession` is asked to be: its mode, browser and limits."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from browserops.config import Settings
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.origins import OriginRules

Mode = Literal["launch", "persistent", "cdp", "remote"]
# With origin rules every document passes through the origin guard (fetched there, then handed to the page), so
# Chromium can no longer tell which network a document came from, and its local-network check would refuse the
# page's own WebSocket to a local server. The rules, checked on every request, take its place.
GUARDED_ARGS = ["--disable-features=LocalNetworkAccessChecks"]


@dataclass
class SessionOptions:
    mode: Mode = "launch"
    headless: bool = True
    profile_dir: Path | None = None
    cdp_url: str | None = None
    ws_endpoint: str | None = None
    chromium: str | None = None
    viewport: tuple[int, int] = (1280, 800)
    tool_timeout_ms: int = 15_000
    navigation_timeout_ms: int = 30_000
    extra_args: list[str] = field(default_factory=list)
    origin_rules: OriginRules = field(default_factory=OriginRules)
    # A launched browser shared by the sessions of one event loop, a fresh context each (launch/warm.py).
    reuse: bool = False

    @classmethod
    def from_settings(
        cls,
        settings: Settings,
        *,
        profile_dir: Path | None = None,
        cdp_url: str | None = None,
        ws_endpoint: str | None = None,
        headed: bool | None = None,
    ) -> SessionOptions:
        chosen = [name for name, v in (("--profile", profile_dir), ("--cdp-url", cdp_url),
                                       ("--ws-endpoint", ws_endpoint)) if v]
        if len(chosen) > 1:
            raise BrowserOpsError(
                ErrorCode.INVALID_ARGS, f"Choose one browser mode, not {' and '.join(chosen)}."
            )
        mode: Mode = "launch"
        if profile_dir:
            mode = "persistent"
        elif cdp_url:
            mode = "cdp"
        elif ws_endpoint:
            mode = "remote"
        return cls(
            mode=mode,
            headless=settings.headless if headed is None else not headed,
            profile_dir=profile_dir,
            cdp_url=cdp_url,
            ws_endpoint=ws_endpoint,
            chromium=settings.chromium,
            viewport=(settings.viewport_width, settings.viewport_height),
            tool_timeout_ms=settings.tool_timeout_ms,
            navigation_timeout_ms=settings.navigation_timeout_ms,
            origin_rules=OriginRules.of(settings.allowed_origins, settings.blocked_origins),
            reuse=settings.browser_reuse,
        )
