"""After acting: let the page settle, decide whether to look again; before finishing: check the page agrees.

:func:`settle` replaces the seeds' blind 4 s pause: after a call that can change the page it waits until no
request is in flight and the DOM has been quiet for ``settle_quiet_ms`` (``browser_wait`` with
``state="settled"``, at most ``settle_timeout_ms``; the action itself already waited for any navigation it
started), then — only if ``settings.step_pause_ms`` asks for it — the fixed pause of the seeds.
:func:`observe_reason` says whether the page must be observed again (and whether a cheap change check is
enough). :func:`check_done` compares an ``assistant_done`` reason with what the page shows.
"""

from __future__ import annotations

import re
import time
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from browserops.agent.toolhost import ToolHost
from browserops.config import Settings
from browserops.contract import SideEffect, ToolTraits
from browserops.evidence.agent_events import WaitInfo

WAIT = "browser_wait"


def changes_page(traits: ToolTraits) -> bool:
    """May this tool change the page? Not when it only reads; yes when it brings another document or moves the
    viewport, or anything not read-only."""
    if traits.pure_read:
        return False
    return traits.new_document or traits.changes_viewport or traits.side_effect is not SideEffect.READ_ONLY


async def settle(host: ToolHost, settings: Settings, traits: ToolTraits) -> WaitInfo:
    """Wait for DOM quiet after a page-changing call (plus the fixed pause when configured)."""
    if not changes_page(traits):
        if settings.step_pause_ms:
            return await _pause(host, settings.step_pause_ms)
        return WaitInfo(type="none")
    started = time.monotonic()
    result = await host.call(WAIT, {"state": "settled", "quiet_ms": settings.settle_quiet_ms,
                                    "timeout_ms": settings.settle_timeout_ms})
    data = result.get("data") if isinstance(result.get("data"), Mapping) else {}
    assert isinstance(data, Mapping)
    quiet = bool(data.get("settled")) and result.get("status") == "ok"
    info = WaitInfo(type="settled", value=settings.settle_quiet_ms, completed=quiet, timeout=not quiet,
                    waited_ms=round((time.monotonic() - started) * 1000, 1))
    if settings.step_pause_ms:
        paused = await _pause(host, settings.step_pause_ms)
        info = WaitInfo(type="ms", value=settings.step_pause_ms, completed=quiet, timeout=not quiet,
                        waited_ms=(info.waited_ms or 0) + (paused.waited_ms or 0))
    return info


async def _pause(host: ToolHost, ms: int) -> WaitInfo:
    started = time.monotonic()
    await host.call(WAIT, {"ms": ms, "timeout_ms": 100})
    return WaitInfo(type="ms", value=ms, completed=True, waited_ms=round((time.monotonic() - started) * 1000, 1))


@dataclass(frozen=True)
class ObserveNeed:
    needed: bool
    force: bool
    why: str


def observe_reason(traits: ToolTraits, result: Mapping[str, Any]) -> ObserveNeed:
    """Observe again after this call? ``force``: certainly changed; otherwise a cheap change check decides."""
    data = result.get("data") if isinstance(result.get("data"), Mapping) else {}
    assert isinstance(data, Mapping)
    banners = data.get("banners_auto_closed")
    if isinstance(banners, Mapping) and banners.get("closed"):
        return ObserveNeed(True, True, "banners were closed")
    if any(data.get(k) for k in ("mcp_server_restarted", "browser_restarted", "retried_after_crash")):
        return ObserveNeed(True, True, "the browser was restarted")
    if result.get("status") != "ok":
        return ObserveNeed(True, False, "the call failed")
    if traits.new_document:
        return ObserveNeed(True, True, "another page or tab")
    if data.get("navigated") or data.get("url_changed") or data.get("new_tab") is not None:
        return ObserveNeed(True, True, "the action navigated")
    if traits.changes_viewport:
        return ObserveNeed(True, True, "the viewport moved")
    if data.get("relisted"):
        return ObserveNeed(True, True, "the page was numbered again")
    if not changes_page(traits):
        return ObserveNeed(False, False, "a read-only call")
    return ObserveNeed(True, False, "the page may have changed")


# -- done -------------------------------------------------------------------------------------------------
_STOP_TEXT = """
the and for with that this from have has are was were been into onto page shows show shown showing visible now
done goal task achieved completed complete successfully success confirm confirmed confirms confirming result results
there their which what when where here also just only then than very more most some such each both item items
user found find finds listed lists list lists displayed display displays appears appear appeared see seen
страница показывает видно готово задача выполнена успешно результаты результат найдено найден
"""
_STOP = frozenset(_STOP_TEXT.split())
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\uac00-\ud7af]+")
_WORD = re.compile(r"\w+", re.UNICODE)


def keywords(reason: str) -> list[str]:
    """The telling words of a done reason: not stop words, ≥ 4 letters or a number; CJK as 2-character runs."""
    text = unicodedata.normalize("NFKC", reason).casefold()
    out: list[str] = []
    for run in _CJK.findall(text):
        out.extend(run[i:i + 2] for i in range(max(1, len(run) - 1)))
    for word in _WORD.findall(_CJK.sub(" ", text)):
        if word in _STOP:
            continue
        if word.isdigit() or len(word) >= 4:
            out.append(word)
    return list(dict.fromkeys(out))


@dataclass(frozen=True)
class DoneCheck:
    verified: bool
    matched: list[str] = field(default_factory=list)
    words: list[str] = field(default_factory=list)


def check_done(reason: str, haystack: str) -> DoneCheck:
    """Is what the reason claims visible on the page? True when at least one telling word of it is."""
    words = keywords(reason)
    folded = unicodedata.normalize("NFKC", haystack).casefold()
    matched = [w for w in words if w in folded or (len(w) > 4 and w.endswith("s") and w[:-1] in folded)]
    return DoneCheck(bool(matched), matched[:10], words[:10])
