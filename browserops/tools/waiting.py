"""browser_wait: wait for the page to settle or for a condition, never a blind sleep by default."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from browserops.browser.page import waiting
from browserops.contract import SideEffect, ToolTraits
from browserops.tools.base import ToolArgs, ToolContext, ToolDef

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
        "(no DOM change for a short window), settled (no request in flight and the DOM quiet), load, "
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
                                 "(default: the dom_quiet_ms setting).")

    @property
    def budget_ms(self) -> int:
        """The whole wait: the pause plus the conditions' timeout (the tool's own time limit)."""
        return (self.ms or 0) + self.timeout_ms


async def _wait(ctx: ToolContext, args: WaitArgs) -> dict[str, Any]:
    return await waiting.wait(
        ctx.session,
        target=args.selector,
        state=args.state,
        network_idle=args.network_idle,
        ms=args.ms,
        text=args.text,
        url_contains=args.url_contains,
        timeout_ms=args.timeout_ms,
        quiet_ms=args.quiet_ms or ctx.settings.dom_quiet_ms,
    )


TOOLS: list[ToolDef[Any]] = [
    ToolDef(
        name="browser_wait",
        args=WaitArgs,
        description=(
            "Wait until the page is ready instead of sleeping blindly. With no arguments: until the DOM has "
            "been quiet for a moment (returns at the timeout on pages that never stop changing, saying so). "
            "Or wait for an element (selector = its number or id; state visible/hidden/attached/detached), a "
            "text, a URL fragment, a load state, or network idle (which single-page apps may never reach: it "
            "still returns, with network_idle=false). ms adds a fixed pause. Fails with BROWSER_TIMEOUT only "
            "when an element, text, URL or load state did not come in time."
        ),
        side_effect=SideEffect.READ_ONLY,
        handler=_wait,
        timeout_from_args="budget_ms",
        traits=ToolTraits(pure_read=True, activation="never"),
    ),
]
