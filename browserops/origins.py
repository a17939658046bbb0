"""Which sites a task may touch: ``allowed_origins`` / ``blocked_origins`` patterns and the check of one URL.

A pattern names an origin, or a family of them, the way Playwright MCP's ``--allowed-origins`` and browser-use's
``allowed_domains`` do:

- ``https://example.com`` — that scheme and host (any port unless one is given);
- ``example.com`` — that host over http or https, any port;
- ``*.example.com`` — the host and every subdomain of it;
- ``http://127.0.0.1:8000`` / ``localhost:*`` — a port, or any port;
- ``file://`` — local files; ``*`` — everything.

A blocked pattern always wins; an empty allowed list allows every origin. URLs that load nothing from a network
origin (``about:``, ``data:``, ``blob:``, Chromium's own error pages) are never refused, so a tab can always be
blank and a page can always show its own generated content. This module imports nothing of the project but the
contract, so the tool pipeline, the plan engine and ``browser/`` share one check.
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from publicsuffixlist import PublicSuffixList

from browserops.contract import BrowserOpsError, ErrorCode

# Schemes that name no network origin: refusing them would only break blank tabs and error pages.
ORIGINLESS = frozenset({"about", "data", "blob", "chrome-error", "chrome", "devtools", "javascript"})
WEB = ("http", "https", "ws", "wss")
DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


@dataclass(frozen=True)
class OriginPattern:
    text: str
    scheme: str | None  # None: http or https (and ws/wss)
    host: str  # "" with scheme "file"; "*" for everything
    subdomains: bool
    port: int | None  # None: any port

    def matches(self, scheme: str, host: str, port: int | None) -> bool:
        if self.host == "*":
            return True
        if self.scheme is None:
            if scheme not in WEB:
                return False
        elif self.scheme != scheme:
            return False
        if scheme == "file":
            return True
        if self.port is not None and port != self.port:
            return False
        if host == self.host:
            return True
        return self.subdomains and host.endswith("." + self.host)


def _host(raw: str) -> str:
    host = raw.strip().lower().rstrip(".")
    try:
        return host.encode("idna").decode("ascii") if not host.isascii() else host
    except UnicodeError as exc:
        raise ValueError(f"{raw!r} is not a valid host name") from exc


def parse_pattern(text: str) -> OriginPattern:
    """One pattern; ``ValueError`` saying what is wrong with it."""
    raw = text.strip()
    if not raw:
        raise ValueError("an origin pattern is empty")
    if raw == "*":
        return OriginPattern(raw, None, "*", False, None)
    scheme: str | None = None
    rest = raw
    if "://" in raw:
        scheme, _, rest = raw.partition("://")
        scheme = scheme.lower()
        if scheme == "*":
            scheme = None
        elif not scheme.isalpha():
            raise ValueError(f"{raw!r}: {scheme!r} is not a URL scheme")
        if scheme == "file":
            return OriginPattern(raw, "file", "", False, None)
    rest = rest.rstrip("/")
    if "/" in rest or "?" in rest or "#" in rest:
        raise ValueError(f"{raw!r} names a path; a pattern names an origin (scheme, host, port) only")
    host, port = rest, None
    if rest.startswith("["):  # an IPv6 literal: [::1]:8080
        end = rest.find("]")
        host, tail = rest[: end + 1], rest[end + 1:]
        if tail.startswith(":"):
            port = tail[1:]
        elif tail:
            raise ValueError(f"{raw!r} is not scheme://host:port")
    elif rest.count(":") == 1:
        host, port = rest.split(":")
    subdomains = host.startswith("*.")
    if subdomains:
        host = host[2:]
    if not host or "*" in host or " " in host:
        raise ValueError(f"{raw!r}: the host must be a name such as example.com, or *.example.com for subdomains")
    number: int | None = None
    if port not in (None, "*"):
        if not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"{raw!r}: the port must be a number from 1 to 65535, or *")
        number = int(port)
    return OriginPattern(raw, scheme, _host(host), subdomains, number)


def parse_patterns(texts: Iterable[str]) -> tuple[OriginPattern, ...]:
    return tuple(parse_pattern(t) for t in texts)


def split_list(raw: str) -> list[str]:
    """``a.com, b.com; c.com`` (an env var or a flag) as a list of patterns."""
    return [part.strip() for part in raw.replace(";", ",").split(",") if part.strip()]


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of a URL (what people read as its site); ``""`` for URLs without an origin."""
    parts = urlsplit(url.strip())
    scheme = parts.scheme.lower()
    if scheme in ORIGINLESS or not scheme:
        return ""
    if scheme == "file":
        return "file://"
    try:
        port = parts.port
    except ValueError:
        port = None
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    return f"{scheme}://{host}" + (f":{port}" if port is not None else "")


@functools.cache
def _suffixes() -> PublicSuffixList:
    return PublicSuffixList()  # the list the package ships: read once, never fetched


def site_of(url: str) -> str:
    """The site a URL belongs to, as browsers draw the line between sites (HTML's "schemelessly same site"): its
    registrable domain by the Public Suffix List (``app.example.co.uk`` -> ``example.co.uk``), else the host
    itself (an IP address, ``localhost``); ``""`` for a URL without a network host. Ports do not matter."""
    host = (urlsplit(url.strip()).hostname or "").lower().rstrip(".")
    if not host:
        return ""
    try:
        ipaddress.ip_address(host)
        return host
    except ValueError:
        pass
    return _suffixes().privatesuffix(host) or host


def same_site(url: str, other: str) -> bool:
    """Whether two URLs are of one site (:func:`site_of`): ``api.example.com`` and ``www.example.com`` are,
    ``example.com`` and ``collector.analytics.net`` are not."""
    site = site_of(url)
    return bool(site) and site == site_of(other)


@dataclass(frozen=True)
class OriginRules:
    """The allowed and blocked patterns of a session (empty allowed = any origin)."""

    allowed: tuple[OriginPattern, ...] = ()
    blocked: tuple[OriginPattern, ...] = ()
    # Who set the allowed list, for the message: "allowed_origins" or "the plan's prepare".
    allowed_by: str = "allowed_origins"
    # The allowed list applies even when empty (a plan whose prepare saw no site allows none).
    closed: bool = False

    @classmethod
    def of(cls, allowed: Sequence[str] = (), blocked: Sequence[str] = ()) -> OriginRules:
        return cls(parse_patterns(allowed), parse_patterns(blocked))

    @property
    def active(self) -> bool:
        return bool(self.allowed or self.blocked or self.closed)

    def refusal(self, url: str) -> str | None:
        """The rule that refuses ``url`` (as the user wrote it), or None when it may load."""
        parts = urlsplit(url.strip())
        scheme = parts.scheme.lower()
        if not scheme or scheme in ORIGINLESS:
            return None
        host = _host(parts.hostname or "") if scheme != "file" else ""
        try:
            port = parts.port or DEFAULT_PORTS.get(scheme)
        except ValueError:
            port = None
        # A WebSocket belongs to the site it is opened on: ws:// and wss:// are matched as http:// and https://.
        scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
        for pattern in self.blocked:
            if pattern.matches(scheme, host, port):
                return f"blocked_origins: {pattern.text}"
        if (self.allowed or self.closed) and not any(p.matches(scheme, host, port) for p in self.allowed):
            listed = ", ".join(p.text for p in self.allowed) or "(none)"
            return f"{self.allowed_by}: {listed}"
        return None

    def check(self, url: str, *, what: str = "Navigation") -> None:
        """Raise ``BROWSER_ORIGIN_BLOCKED`` naming the URL and the rule when ``url`` may not load."""
        rule = self.refusal(url)
        if rule is not None:
            raise blocked_error(url, rule, what=what)

    def to_json(self) -> dict[str, Any]:
        """The rules as data for the page-side twin of :meth:`refusal` (``browser/js/worker_guard.js``), which
        guards what no route sees: a worker's WebSocket."""
        def one(p: OriginPattern) -> dict[str, Any]:
            return {"text": p.text, "scheme": p.scheme, "host": p.host, "subdomains": p.subdomains, "port": p.port}
        return {"allowed": [one(p) for p in self.allowed], "blocked": [one(p) for p in self.blocked],
                "closed": self.closed, "allowedBy": self.allowed_by}

    def narrowed(self, origins: Iterable[str], *, by: str) -> OriginRules:
        """These rules, further limited to exactly ``origins`` (``scheme://host:port`` each)."""
        mine = tuple(parse_pattern(o) for o in dict.fromkeys(origins) if o)
        mine = tuple(p for p in mine if self.refusal(p.text) is None)
        return OriginRules(mine, self.blocked, by, closed=True)


def blocked_error(url: str, rule: str, *, what: str = "Navigation") -> BrowserOpsError:
    shown = url if len(url) <= 300 else url[:300] + "…"
    return BrowserOpsError(
        ErrorCode.ORIGIN_BLOCKED,
        f"{what} to {shown} was blocked by {rule}. Nothing was loaded from that site. If the task really needs "
        "it, add its origin to allowed_origins (or remove it from blocked_origins) and try again; otherwise "
        "stay on the allowed sites.",
        details={"url": shown, "rule": rule, "origin": origin_of(url)},
    )
