"""Whole-page tools: browser_navigate/back/forward/reload, browser_wait, browser_open_in_new_tab,
browser_switch_tab, browser_dialog, browser_close_banners."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from browserops.contract import ElementRef, SideEffect, ToolTraits
from browserops.tools.definitions.core import ElementId, NoArgs, ToolArgs, ToolDef


class NavigateArgs(ToolArgs):
    url: str = Field(description="Absolute URL to open, e.g. https://example.com/page.", min_length=1)


NAVIGATE = ToolDef(
    name="browser_navigate",
    handler="browserops.tools.navigation:navigate",
    args=NavigateArgs,
    description=(
        "Open a URL in the current tab and wait until its DOM is loaded. Returns the final URL, title and "
        "HTTP status. Element numbers from earlier listings are invalid afterwards: call "
        "browser_list_interactives before acting on the new page."
    ),
    traits=ToolTraits(side_effect=SideEffect.READ_ONLY, new_document=True, plan_verb="navigate"),
)


BACK = ToolDef(
    name="browser_back",
    handler="browserops.tools.navigation:back",
    args=NoArgs,
    description="Go back one entry in the tab's history, like the browser's Back button. Re-list elements after.",
    traits=ToolTraits(side_effect=SideEffect.READ_ONLY, new_document=True),
)


FORWARD = ToolDef(
    name="browser_forward",
    handler="browserops.tools.navigation:forward",
    args=NoArgs,
    description="Go forward one entry in the tab's history. Re-list elements after.",
    traits=ToolTraits(side_effect=SideEffect.READ_ONLY, new_document=True),
)


RELOAD = ToolDef(
    name="browser_reload",
    handler="browserops.tools.navigation:reload",
    args=NoArgs,
    description="Reload the current page. Unsaved form input on the page is lost. Re-list elements after.",
    traits=ToolTraits(side_effect=SideEffect.READ_ONLY, new_document=True),
)


State = Literal[
    "visible", "hidden", "attached", "detached", "dom_quiet", "settled", "load", "domcontentloaded", "networkidle"
]


class WaitArgs(ToolArgs):
    selector: int | str | None = Field(
        None,
        description="An element number from the latest listing or an element id (data-blind-id) to wait for; "
        "never a CSS selector.",
    )
    state: State | None = Field(
        None,
        description="For selector: visible (default), hidden, attached or detached. Without selector: dom_quiet "
        "(no DOM change for a short window), settled (no data request in flight — fetch, XHR, document, script; "
        "not images, beacons or a long poll — and the DOM quiet), load, "
        "domcontentloaded or networkidle.",
    )
    network_idle: bool = Field(False, description="Wait until no request has run for 500 ms (returns anyway at "
                               "the timeout on pages that poll, saying so).")
    ms: int | None = Field(None, ge=0, le=60_000, description="A fixed pause first, in milliseconds.")
    text: str | None = Field(None, min_length=1, max_length=500, description="Wait until this text is on the "
                             "page (case-insensitive, any frame).")
    url_contains: str | None = Field(None, min_length=1, max_length=2000, description="Wait until the URL "
                                     "contains this.")
    timeout_ms: int = Field(10_000, ge=100, le=120_000, description="How long conditions may take.")
    quiet_ms: int | None = Field(None, ge=20, le=10_000, description="The DOM-quiet window for dom_quiet/settled "
                                 "(default: the dom_quiet_ms setting). A page whose scripts have nothing "
                                 "scheduled before the window would end (no timer due, no animation frame, no "
                                 "animation ending) is quiet after 50 ms: nothing_scheduled=true in the result.")

    @property
    def budget_ms(self) -> int:
        """The whole wait: the pause plus the conditions' timeout (the tool's own time limit)."""
        return (self.ms or 0) + self.timeout_ms

    @property
    def element(self) -> ElementRef | None:
        """The element the call names (``selector``): its number or id, as every layer below calls it."""
        return self.selector


WAIT = ToolDef(
    name="browser_wait",
    handler="browserops.tools.waiting:wait",
    args=WaitArgs,
    description=(
        "Wait until the page is ready instead of sleeping blindly. With no arguments: until the DOM has "
        "been quiet for a moment (returns at the timeout on pages that never stop changing, saying so). "
        "Or wait for an element (selector = its number or id; state visible/hidden/attached/detached), a "
        "text, a URL fragment, a load state, or network idle (which single-page apps may never reach: it "
        "still returns, with network_idle=false). ms adds a fixed pause. Fails with BROWSER_TIMEOUT only "
        "when an element, text, URL or load state did not come in time."
    ),
    timeout_from_args="budget_ms",
    traits=ToolTraits(side_effect=SideEffect.READ_ONLY, pure_read=True, activation="never", plan_verb="wait_text"),
)


class OpenInNewTabArgs(ToolArgs):
    id: ElementId
    switch: bool = Field(False, description="Also make the new tab the active one (default: stay on this tab).")

    @property
    def element(self) -> ElementRef:
        """The element the call names (``id``): its number or id, as every layer below calls it."""
        return self.id


class SwitchTabArgs(ToolArgs):
    index: int | None = Field(None, ge=0, description="Tab number from the tab list (0 = first tab).")
    title_contains: str | None = Field(
        None, min_length=1, max_length=200,
        description="Part of the tab's title (case-insensitive; the address is tried when no title matches).",
    )


OPEN_IN_NEW_TAB = ToolDef(
    name="browser_open_in_new_tab",
    handler="browserops.tools.tabs:open_in_new_tab",
    args=OpenInNewTabArgs,
    description=(
        "Open a link (by number or id) in a new tab, leaving the current tab as it is. Only links can be "
        "opened this way; click buttons with browser_overlay_act. Returns the new tab's index and the tab "
        "list; use browser_switch_tab to work in it."
    ),
    traits=ToolTraits(side_effect=SideEffect.READ_ONLY, new_document=True, opens_tab=True, target_arg="id"),
)


SWITCH_TAB = ToolDef(
    name="browser_switch_tab",
    handler="browserops.tools.tabs:switch_tab",
    args=SwitchTabArgs,
    description=(
        "Make another tab the active one, by index or by part of its title. Without arguments, only lists "
        "the tabs (index, title, url, active, opened_by_site). Tabs the site opened itself (target=_blank, "
        "window.open) appear here. Element numbers belong to one tab: list elements again after switching."
    ),
    traits=ToolTraits(side_effect=SideEffect.READ_ONLY, new_document=True, dialog_safe=True),
)


class DialogArgs(ToolArgs):
    accept: bool = Field(description="true presses OK (or Leave for a leave-page dialog); false presses Cancel.")
    text: str | None = Field(
        None, max_length=10_000, description="Answer typed into a prompt dialog before accepting it.",
    )


DIALOG = ToolDef(
    name="browser_dialog",
    handler="browserops.tools.dialogs:dialog",
    args=DialogArgs,
    description=(
        "Answer the JavaScript dialog (alert, confirm, prompt, or 'leave this page?') that blocks the page. "
        "While one is open every other page tool fails with BROWSER_DIALOG_OPEN and shows its message. "
        "accept=true presses OK; accept=false presses Cancel; text is typed into a prompt."
    ),
    traits=ToolTraits(side_effect=SideEffect.BROWSER_ACT, acts_on_focus=True, dialog_safe=True, activation="by_dialog"),
)


CLOSE_BANNERS = ToolDef(
    name="browser_close_banners",
    handler="browserops.tools.banners:close_banners",
    args=NoArgs,
    description=(
        "Close cookie-consent, newsletter, age and region overlays on the page, in its frames and shadow "
        "roots (prefers 'reject'/'close' over 'accept'; never 'subscribe'). Reports what it found and "
        "closed. Also runs on its own after page-changing actions."
    ),
    traits=ToolTraits(side_effect=SideEffect.BROWSER_ACT, activation="never"),
)

DEFINITIONS: tuple[ToolDef[Any], ...] = (
    NAVIGATE, BACK, FORWARD, RELOAD, WAIT, OPEN_IN_NEW_TAB, SWITCH_TAB, DIALOG, CLOSE_BANNERS,
)
