"""The post-action hook: close banners after page-changing tools, within the seed's budgets (000 §10.1).

The tool runner calls :func:`after_action` after every tool call of a front door whose profile has the hook
(``tools/runner.py``, ``BannerHook``: the MCP server, the agent, chat, and ``run`` after navigating and acting):

    hook = await after_action(ctx, name, result, args, tool.traits)
    if hook["relist"]: ...list the elements again before using numbers...

It runs the banner closer when, by the tool's traits (``ToolTraits`` on its definition),

- a tool that brings a new document succeeded (``new_document``: navigate, reload, back, forward, open in a
  new tab — on the new tab, ``opens_tab`` — and switch tab), or a ``banners="action"`` tool (act by number)
  with an action word whose traits say so (``closes_banners``: click, select, type; a full budget when it
  navigated, as ``ctx.signals.navigated`` says, for any ``navigates_on_action`` tool such as a key press);
- or a ``banners="listing"`` tool (listing, observing) ran for the first time on a domain.

Budgets: a new document (navigation, tab change, first listing on a domain) gets the full budget
(``banners_max_passes`` passes, ``banners_total_budget_ms`` in all, ``banners_pass_budget_ms`` per pass).
Later triggers on the same document (clicks, typing) get one pass of at most ``banners_pass_budget_ms``, and
only while that document's total budget is not used up: one iteration is never delayed by more than a pass.
Time counts only when a run found something; a clean page costs one cheap pass and no budget.
It never raises and never turns a good result into an error.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

from browserops.browser.numbering import listing, overlay
from browserops.browser.numbering.elements import latest_listing
from browserops.browser.page.banners import BannerBudget, close_banners_quietly
from browserops.browser.page.dialogs import blocking_dialog
from browserops.contract import ErrorCode, SideEffect, ToolResult, ToolTraits
from browserops.tools.banners import budget_from_settings
from browserops.tools.context import Signals, ToolContext
from browserops.tools.definitions import get_definition
from browserops.tools.definitions.acting import action_word

log = logging.getLogger(__name__)


def _skip(reason: str) -> dict[str, Any]:
    return {"ran": False, "reason": reason, "found": 0, "closed": 0, "spent_ms": 0, "relist": False}


def _trigger(traits: ToolTraits, args: Mapping[str, Any] | None, signals: Signals) -> str | None:
    """'document' (full budget), 'action' (one pass), 'listing' (first on a domain) or None."""
    if traits.new_document:
        return "document"
    # A key press is not a trigger of its own, but one that navigated (Enter in a search box) brings a new page.
    if traits.navigates_on_action and signals.navigated:
        return "document"
    if traits.banners == "action":
        word = action_word(args or {})
        return "action" if word is not None and word.closes_banners else None
    if traits.banners == "listing":
        return "listing"
    return None


def _target_tab(ctx: ToolContext, traits: ToolTraits, result: ToolResult) -> int:
    if traits.opens_tab:
        index = (result.get("data") or {}).get("index")
        if isinstance(index, int) and 0 <= index < len(ctx.session.pages):
            return index
    return ctx.session.active_index


def traits_of(tool_name: str) -> ToolTraits:
    """The catalogue's traits for a tool; an unknown tool triggers nothing here."""
    found = get_definition(tool_name)
    return found.traits if found is not None else ToolTraits(side_effect=SideEffect.READ_ONLY)


async def after_action(ctx: ToolContext, tool_name: str, result: ToolResult,
                       args: Mapping[str, Any] | None = None, traits: ToolTraits | None = None) -> dict[str, Any]:
    """Close banners if ``tool_name`` (called with ``args``, returning ``result``) may have shown new ones.

    Returns ``{"ran", "reason", "found", "closed", "spent_ms", "relist", "banners"?, "relisted"?}``. When
    something was closed and the page had a listing, the hook re-lists it (same limit/offset/scope, overlay
    redrawn) and returns the new listing in ``relisted``; otherwise ``relist`` is True when numbers held from
    before are stale and the caller should list again.
    """
    settings = ctx.settings
    if not settings.banners_auto_close:
        return _skip("disabled (banners_auto_close = false)")
    traits = traits or traits_of(tool_name)
    trigger = _trigger(traits, args, ctx.signals)
    if trigger is None:
        return _skip("not a page-changing tool")
    if result.get("status") != "ok":
        return _skip("the action failed")
    session = ctx.session
    if not session.alive:
        return _skip("no browser")
    pages = session.pages
    index = _target_tab(ctx, traits, result)
    if not 0 <= index < len(pages):
        return _skip("no open tab")
    page = pages[index]
    if blocking_dialog(session) is not None or any(d.page is page for d in session.dialogs):
        return _skip("a dialog is open")
    doc_key = f"{id(page)}:{page.url.split('#', 1)[0]}"
    stopped = session.state.banners.stopped
    if doc_key in stopped:
        return _skip("the banner closer stopped on this page (a click of it was followed by a navigation)")
    host = urlsplit(page.url).hostname or ""
    seen = session.state.banners.domains_seen
    if trigger == "listing":
        if not host or host in seen:
            return _skip("not the first listing on this domain")
        trigger = "document"
    if host:
        seen.add(host)

    full = budget_from_settings(settings)
    spent = session.state.banners.spent
    if trigger == "document":
        spent[doc_key] = 0.0
        budget = full
    else:
        left = full.total_ms - spent.get(doc_key, 0.0)
        if left <= 0:
            return _skip("banner budget for this page is used up")
        budget = BannerBudget(max_passes=1, total_ms=int(min(full.pass_ms, left)), pass_ms=full.pass_ms)

    report = await close_banners_quietly(page, budget)
    if report.navigated is not None:
        stopped.add(doc_key)
        stopped.add(f"{id(page)}:{page.url.split('#', 1)[0]}")
        session.notices.append(navigation_notice(report.navigated))
    if report.found:
        spent[doc_key] = spent.get(doc_key, 0.0) + report.spent_ms
    out: dict[str, Any] = {
        "ran": True,
        "reason": trigger,
        "found": report.found,
        "closed": report.closed,
        "spent_ms": report.spent_ms,
        "relist": report.closed > 0,
    }
    if report.found:
        out["banners"] = report.items
    if report.navigated is not None:
        out["navigated"] = report.navigated
    if report.closed:
        relisted = await _relist(ctx, page)
        if relisted is not None:
            out["relisted"] = relisted
            out["relist"] = False
    return out


def navigation_notice(evidence: Mapping[str, Any]) -> dict[str, Any]:
    """The error event for a banner click that was followed by a navigation (it reaches data.notices and so
    every front door's events)."""
    return {
        "kind": "error",
        "code": ErrorCode.BANNER_NAVIGATED.value,
        "message": "The banner closer clicked a control and the document then navigated "
                   f"({evidence.get('how')}); it stopped closing banners on this page. Check where the tab is "
                   "(browser_list_tabs) and navigate back if needed.",
        "evidence": dict(evidence),
    }


async def _relist(ctx: ToolContext, page: object) -> dict[str, Any] | None:
    """Seed 000 §10.1: after closing, number the page again if it was numbered (and redraw the overlay), so
    the numbers a caller holds are never stale. None when there was no listing of this page to renew."""
    session = ctx.session
    current = latest_listing(session)
    if current is None or current.kind != "list" or current.page is not page or page is not session.page:
        return None
    try:
        fresh = await listing.list_interactives(session, limit=current.limit, offset=current.offset,
                                                scope=current.scope)
        await overlay.refresh_overlay(session)
    except Exception:  # the hook never fails the action; the caller re-lists itself
        log.exception("re-listing after closing banners failed")
        return None
    return listing.listing_data(fresh)
