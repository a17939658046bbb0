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
from urllib.parse import unquote_plus

from browserops.agent.done_states import outcome_shown
from browserops.agent.toolhost import ToolHost
from browserops.config import Settings
from browserops.contract import ErrorCode, SideEffect, ToolTraits
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


# What a call's data says when the browser (or the MCP server) died under it and was restarted.
RESTART_SIGNS = ("mcp_server_restarted", "browser_restarted", "retried_after_crash")


def browser_came_back(result: Mapping[str, Any]) -> bool:
    """Whether a call's answer says the browser died under it (and was, or will be, restarted)."""
    data = result.get("data") if isinstance(result.get("data"), Mapping) else {}
    assert isinstance(data, Mapping)
    return result.get("code") == ErrorCode.CRASHED.value or any(data.get(k) for k in RESTART_SIGNS)


def observe_reason(traits: ToolTraits, result: Mapping[str, Any]) -> ObserveNeed:
    """Observe again after this call? ``force``: certainly changed; otherwise a cheap change check decides."""
    data = result.get("data") if isinstance(result.get("data"), Mapping) else {}
    assert isinstance(data, Mapping)
    banners = data.get("banners_auto_closed")
    if isinstance(banners, Mapping) and banners.get("closed"):
        return ObserveNeed(True, True, "banners were closed")
    if any(data.get(k) for k in RESTART_SIGNS):
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


# What a page says when something it was asked to do went through (whole words, several languages).
_CONFIRMATION = re.compile(
    r"\b(?:thank you|thanks for|success(?:ful(?:ly)?)?|submitted|sent|saved|created|added|updated|deleted|removed|"
    r"confirmed|confirmation|received|placed|booked|paid|signed in|logged in|no results|"
    r"спасибо|успешно|отправлен\w*|сохранен\w*|оплачен\w*|danke|erfolgreich|gespeichert|merci|"
    r"enregistr\w+|gracias|guardad\w|enviad\w)\b|成功|已提交|已保存|谢谢|已发送", re.IGNORECASE)
_QUOTED = re.compile(r"[\"“«'‘]([^\"”»'’]{2,80})[\"”»'’]")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_SUFFIXES = ("ing", "ed", "es", "s", "e")


def _stem(word: str) -> str:
    """A crude English stem, enough to match 'pens' with 'pen', 'expenses' with 'expense' and 'deleting' with
    'Delete' (one suffix off, three letters kept)."""
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).casefold()


def goal_values(goal: str) -> list[str]:
    """What the goal asks for by value: quoted text and numbers, which the page must show all of."""
    folded = _fold(goal)
    return list(dict.fromkeys([q.strip() for q in _QUOTED.findall(folded)] + _NUMBER.findall(folded)))


def _goal_terms(goal: str) -> set[str]:
    """The goal's words that name things (3+ letters, not stop words), stemmed: 'pen' in 'search for pen'."""
    text = _fold(goal)
    words = {_stem(w) for w in _WORD.findall(_CJK.sub(" ", text)) if len(w) >= 3 and w not in _STOP}
    return words | set(keywords(goal))


def _value_visible(value: str, folded: str) -> bool:
    """A goal's value on the page; a number also with the other decimal mark (120.00 is 120,00 in German)."""
    if value in folded:
        return True
    return bool(_NUMBER.fullmatch(value)) and value.translate(str.maketrans(".,", ",.")) in folded


@dataclass(frozen=True)
class DoneCheck:
    verified: bool
    matched: list[str] = field(default_factory=list)
    words: list[str] = field(default_factory=list)
    # Which evidence agreed: values (what the goal asks for is visible), confirmation (the page says it went
    # through, as the reason claims), url (the page moved to a URL carrying what was asked), claims (most of
    # what the reason names is visible, two things at least), state (the page shows the outcome claimed).
    evidence: list[str] = field(default_factory=list)
    # The outcome states the reason claims or the goal asks for (paid, sent, deleted…, agent/done_states.py), and
    # whether the page shows them: without that, no other evidence verifies.
    states: list[str] = field(default_factory=list)
    state_shown: bool = True


def check_done(reason: str, haystack: str, *, goal: str = "", url: str = "", start_url: str = "") -> DoneCheck:
    """Does the page show evidence that matches the goal and the reason? One word in common is not enough.

    Evidence is any of: the values the goal asks for (quoted text, numbers; and the goal's own terms the reason
    repeats) all visible; a confirmation text on the page that the reason also states; a URL change from the
    start to a URL carrying a term of the goal or the reason; or at least two of the reason's telling words
    visible and at least half of them. None of it counts when the reason claims an outcome (or the goal asks for
    one) that the page does not show in that state (agent/done_states.py): identifiers alone prove no outcome.
    """
    words = keywords(reason)
    folded = _fold(haystack)
    visible = set(_WORD.findall(folded))
    visible_stems = {_stem(w) for w in visible}

    def seen(word: str) -> bool:
        if _CJK.fullmatch(word):
            return word in folded
        return word in visible or _stem(word) in visible_stems or (len(word) > 4 and word in folded)

    matched = [w for w in words if seen(w)]
    evidence: list[str] = []
    values = goal_values(goal)
    terms = _goal_terms(goal)
    asked = [w for w in words if _stem(w) in terms]
    values_ok = all(_value_visible(v, folded) for v in values)
    if values_ok and (values or (asked and all(seen(w) for w in asked))):
        evidence.append("values")
    reason_folded = _fold(reason)
    if values_ok and any(m.group(0).casefold() in folded for m in _CONFIRMATION.finditer(reason_folded)):
        evidence.append("confirmation")
    if values_ok and url and start_url and url.split("#", 1)[0] != start_url.split("#", 1)[0]:
        url_folded = _fold(unquote_plus(url))
        carried = [w for w in {*(_stem(w) for w in words), *terms} if len(w) >= 3 and w in url_folded]
        if carried:
            evidence.append("url")
    if values_ok and len(matched) >= 2 and 2 * len(matched) >= len(words):
        evidence.append("claims")
    states, state_shown = outcome_shown(reason, goal, haystack)
    verified = bool(evidence) and state_shown  # the state is required on top, never enough alone
    if states and state_shown:
        evidence.append("state")
    return DoneCheck(verified, matched[:10], words[:10], evidence, states, state_shown)


def not_confirmed_message(check: DoneCheck) -> str:
    """What the model is told when the page does not confirm its done reason."""
    if check.states and not check.state_shown:
        return (f"Not finished: the page does not show the outcome claimed ({', '.join(check.states)}) for what the "
                "goal names; showing its identifiers or amounts is not showing that it happened. Check the page "
                "(browser_extract), continue working, or call assistant_done again naming the state the page shows.")
    words = ", ".join(repr(w) for w in check.words[:6]) or "(no telling words)"
    return (f"Not finished: the page does not show evidence of what the goal asks for (of {words}, too few appear "
            "in its title, URL, headings, messages or text; no confirmation text, no asked-for value, no URL change "
            "carrying it). Check the page (browser_extract), continue working, or call assistant_done again naming "
            "what the page visibly shows.")
