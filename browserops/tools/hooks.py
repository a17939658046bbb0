"""The post-action hook: close banners after page-changing tools, within the seed's budgets (000 §10.1).

Call :func:`after_action` after every tool call (the agent loop, the plan runner and the MCP server do):

    result = await call_tool(name, ctx, args)
    hook = await after_action(ctx, name, result, args)
    if hook["relist"]: ...list the elements again before using numbers...

It runs the banner closer when

- a page-changing tool succeeded: ``browser_navigate``, ``browser_reload``, ``browser_back``,
  ``browser_forward``, ``browser_open_in_new_tab`` (on the new tab), ``browser_switch_tab``, and
  ``browser_overlay_act``/``browser_act_by_index`` with action click/select/type (a full budget when the
  action navigated, as ``ctx.signals["navigated"]`` says; also for ``browser_press``);
- or ``browser_list_interactives`` (or ``browser_observe``) ran for the first time on a domain.

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
from browserops.config import Settings
from browserops.contract import ToolResult
from browserops.tools.base import ToolContext

log = logging.getLogger(__name__)

NEW_DOCUMENT_TOOLS = frozenset({
    "browser_navigate", "browser_reload", "browser_back", "browser_forward", "browser_open_in_new_tab",
    "browser_switch_tab",
})
ACT_TOOLS = frozenset({"browser_overlay_act", "browser_act_by_index"})
ACT_ACTIONS = frozenset({"click", "select", "type"})
# A key press is not a trigger of its own, but one that navigated (Enter in a search box) brings a new page.
NAVIGATING_TOOLS = ACT_TOOLS | {"browser_press"}
LIST_TOOL = "browser_list_interactives"
LISTING_TOOLS = frozenset({LIST_TOOL, "browser_observe"})

_DOMAINS_KEY = "banners.domains_seen"
_SPENT_KEY = "banners.spent"  # document key -> ms spent closing banners on it


def budget_from_settings(settings: Settings) -> BannerBudget:
    return BannerBudget(
        max_passes=settings.banners_max_passes,
        total_ms=settings.banners_total_budget_ms,
        pass_ms=settings.banners_pass_budget_ms,
    )


def _skip(reason: str) -> dict[str, Any]:
    return {"ran": False, "reason": reason, "found": 0, "closed": 0, "spent_ms": 0, "relist": False}


def _trigger(tool_name: str, args: Mapping[str, Any] | None, signals: Mapping[str, Any]) -> str | None:
    """'document' (full budget), 'action' (one pass), 'listing' (first on a domain) or None."""
    if tool_name in NEW_DOCUMENT_TOOLS:
        return "document"
    if tool_name in NAVIGATING_TOOLS and signals.get("navigated"):
        return "document"
    if tool_name in ACT_TOOLS:
        action = str((args or {}).get("action", "click"))
        return "action" if action in ACT_ACTIONS else None
    if tool_name in LISTING_TOOLS:
        return "listing"
    return None


def _target_tab(ctx: ToolContext, tool_name: str, result: ToolResult) -> int:
    if tool_name == "browser_open_in_new_tab":
        index = (result.get("data") or {}).get("index")
        if isinstance(index, int) and 0 <= index < len(ctx.session.pages):
            return index
    return ctx.session.active_index


async def after_action(ctx: ToolContext, tool_name: str, result: ToolResult,
                       args: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Close banners if ``tool_name`` (called with ``args``, returning ``result``) may have shown new ones.

    Returns ``{"ran", "reason", "found", "closed", "spent_ms", "relist", "banners"?, "relisted"?}``. When
    something was closed and the page had a listing, the hook re-lists it (same limit/offset/scope, overlay
    redrawn) and returns the new listing in ``relisted``; otherwise ``relist`` is True when numbers held from
    before are stale and the caller should list again.
    """
    settings = ctx.settings
    if not settings.banners_auto_close:
        return _skip("disabled (banners_auto_close = false)")
    trigger = _trigger(tool_name, args, ctx.signals)
    if trigger is None:
        return _skip("not a page-changing tool")
    if result.get("status") != "ok":
        return _skip("the action failed")
    session = ctx.session
    if not session.alive:
        return _skip("no browser")
    pages = session.pages
    index = _target_tab(ctx, tool_name, result)
    if not 0 <= index < len(pages):
        return _skip("no open tab")
    page = pages[index]
    if blocking_dialog(session) is not None or any(d.page is page for d in session.dialogs):
        return _skip("a dialog is open")
    host = urlsplit(page.url).hostname or ""
    seen: set[str] = session.extras.setdefault(_DOMAINS_KEY, set())
    if trigger == "listing":
        if not host or host in seen:
            return _skip("not the first listing on this domain")
        trigger = "document"
    if host:
        seen.add(host)

    full = budget_from_settings(settings)
    spent: dict[str, float] = session.extras.setdefault(_SPENT_KEY, {})
    doc_key = f"{id(page)}:{page.url.split('#', 1)[0]}"
    if trigger == "document":
        spent[doc_key] = 0.0
        budget = full
    else:
        left = full.total_ms - spent.get(doc_key, 0.0)
        if left <= 0:
            return _skip("banner budget for this page is used up")
        budget = BannerBudget(max_passes=1, total_ms=int(min(full.pass_ms, left)), pass_ms=full.pass_ms)

    report = await close_banners_quietly(page, budget)
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
    if report.closed:
        relisted = await _relist(ctx, page)
        if relisted is not None:
            out["relisted"] = relisted
            out["relist"] = False
    return out


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



async def finish_call(ctx: ToolContext, name: str, args: Mapping[str, Any] | None, result: ToolResult) -> ToolResult:
    """What every front door does after a tool call (browser alive): the banner hook, and the notices the session
    collected meanwhile (a tab the site opened, a dialog), merged into ``data`` as ``banners_auto_closed`` (only
    when banners were found) and ``notices``. Never raises."""
    session = ctx.session
    if not session.alive:
        return result
    extra: dict[str, Any] = {}
    hook = await after_action(ctx, name, result, args)
    if hook["ran"] and hook["found"]:
        extra["banners_auto_closed"] = hook
    taken = session.take_notices()
    # A restart is reported by whoever restarted the browser; leave that notice for them.
    session.notices.extend(n for n in taken if n.get("kind") == "browser_restarted")
    notices = [n for n in taken if n.get("kind") != "browser_restarted"]
    if notices:
        extra["notices"] = notices
    if extra:
        result = {**result, "data": {**(result.get("data") or {}), **extra}}
    return result
