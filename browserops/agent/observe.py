"""Observing the page for the model: numbered listing + overlay + screenshot + summary, only when needed.

The loop calls :meth:`Observer.observe` at the start, after page-changing steps and after errors. It goes
through the host like every other call (``browser_observe``), so an MCP-backed run observes the same way.
With ``force=False`` the tool first checks whether the page changed since the last look (another tab, URL,
document or DOM content) and answers ``unchanged`` cheaply; the previous observation then stays current.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote_plus

from browserops.agent.fence import PROCESS_FENCE, Fence
from browserops.agent.model_summaries import Observation, observation_from_result, one_line
from browserops.agent.toolhost import ToolHost
from browserops.listing_rows import listing_items

log = logging.getLogger(__name__)

OBSERVE = "browser_observe"


@dataclass
class PageView:
    """The latest observation as the loop keeps it. Page-derived strings are untrusted data."""

    url: str = ""
    title: str = ""
    items: list[dict[str, Any]] = field(default_factory=list)
    total: int = 0
    headings: list[str] = field(default_factory=list)
    text: str = ""
    messages: list[str] = field(default_factory=list)
    screenshot: str | None = None
    png: bytes | None = None
    observation: Observation | None = None
    overlay_active: bool = False

    def item(self, number: int) -> dict[str, Any] | None:
        for item in self.items:
            if item.get("n") == number:
                return item
        return None

    def haystack(self) -> str:
        """Everything the page shows that the done check may look for (case-folded)."""
        names = " ".join(str(i.get("name", "")) for i in self.items)
        parts = [unquote_plus(self.url), self.title, " ".join(self.headings), self.text, " ".join(self.messages), names]
        return " ".join(parts).casefold()


@dataclass
class ObserveOutcome:
    view: PageView
    refreshed: bool
    why: str
    ms: float
    error: str | None = None
    code: str | None = None


def _headings(summary: Mapping[str, Any]) -> list[str]:
    out: list[str] = []
    for entry in summary.get("headings") or []:
        if isinstance(entry, list | tuple) and len(entry) == 2:
            out.append(f"h{entry[0]} {entry[1]}")
        elif isinstance(entry, str):
            out.append(entry)
    return out


def _page_text(view: PageView) -> str:
    """The untrusted part of the observation: headings, live messages and the start of the main text."""
    lines = []
    if view.headings:
        lines.append("Headings: " + " | ".join(one_line(h, 100) for h in view.headings[:12]))
    if view.messages:
        lines.append("Messages: " + " | ".join(one_line(m, 160) for m in view.messages[:5]))
    if view.text:
        lines.append("Text: " + view.text)
    return "\n".join(lines)


def view_from_result(result: Mapping[str, Any], *, vision: bool, fence: Fence = PROCESS_FENCE) -> PageView:
    data = result.get("data")
    data = data if isinstance(data, Mapping) else {}
    summary = data.get("summary") if isinstance(data.get("summary"), Mapping) else {}
    assert isinstance(summary, Mapping)
    view = PageView(
        url=str(summary.get("url") or data.get("url") or ""),
        title=str(summary.get("title") or data.get("title") or ""),
        items=listing_items(data),
        total=int(data.get("total") or 0),
        headings=_headings(summary),
        text=str(summary.get("text") or ""),
        messages=[str(m) for m in summary.get("messages") or []],
        screenshot=data.get("screenshot") if isinstance(data.get("screenshot"), str) else None,
        overlay_active=bool(data.get("overlay")),
    )
    if view.screenshot:
        try:
            view.png = Path(view.screenshot).read_bytes()
        except OSError:
            log.warning("the observation screenshot could not be read")
    flat = {"status": result.get("status"), "code": result.get("code"), "error": result.get("error"),
            "data": {"url": view.url, "title": view.title, "items": view.items, "total": view.total,
                     "offset": data.get("offset"), "notices": data.get("notices"), "text": _page_text(view)}}
    view.observation = observation_from_result(flat, view.png if vision else None, fence=fence)
    return view


class Observer:
    """Keeps the latest :class:`PageView` and refreshes it through the host."""

    def __init__(self, host: ToolHost, *, vision: bool = True, fence: Fence = PROCESS_FENCE) -> None:
        self.host = host
        self.vision = vision
        self.fence = fence
        self.view = PageView()
        self.count = 0

    async def observe(self, *, force: bool, why: str = "") -> ObserveOutcome:
        started = time.monotonic()
        result = await self.host.call(OBSERVE, {"if_changed": not force and self.count > 0})
        ms = round((time.monotonic() - started) * 1000, 1)
        data = result.get("data") if isinstance(result.get("data"), Mapping) else {}
        assert isinstance(data, Mapping)
        if result.get("status") != "ok":
            return ObserveOutcome(self.view, False, why or "observation failed", ms,
                                  error=str(result.get("error") or ""), code=str(result.get("code") or ""))
        if data.get("unchanged"):
            self.view.url = str(data.get("url") or self.view.url)
            self.view.title = str(data.get("title") or self.view.title)
            return ObserveOutcome(self.view, False, "unchanged since the last observation", ms)
        self.count += 1
        banners = data.get("banners_auto_closed")
        if isinstance(banners, Mapping) and banners.get("closed") and why != "banners were closed":
            # The hook closed a banner after the screenshot (a first look at a domain): look once more.
            again = await self.observe(force=True, why="banners were closed")
            again.ms += ms
            return again
        self.view = view_from_result(result, vision=self.vision, fence=self.fence)
        return ObserveOutcome(self.view, True, why or "observed", ms)


def chat_observation(view: PageView, workspace: Path, scrub: Any) -> dict[str, Any]:
    """The observation event of chat_api's convention: url, title, summary, workspace-relative screenshot, items."""
    shot: str | None = None
    if view.screenshot:
        try:
            shot = Path(view.screenshot).resolve().relative_to(workspace.resolve()).as_posix()
        except ValueError:
            shot = None
    summary = f"{view.total} numbered elements" + (f"; {view.headings[0]}" if view.headings else "")
    return {
        "url": scrub(view.url),
        "title": scrub(view.title),
        "summary": scrub(summary),
        "screenshot": shot,
        "items": [{"n": i.get("n"), "role": str(i.get("role", ""))[:40], "name": scrub(str(i.get("name", "")))[:120]}
                  for i in view.items[:20]],
    }
