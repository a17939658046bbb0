"""How many of our own functions a click passes through before Playwright is called (issue 10: at most 8 in
all; the tool pipeline before the handler takes about 3, so at most 5 from the handler on)."""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

from browserops.demo_site import DemoSite
from browserops.tools.base import ToolContext
from tests.tools.helpers import by_name, listed, ok, open_page

HANDLER = "browserops.tools.actions._overlay_act"


def _project_chain(frame: FrameType | None) -> list[str]:
    """Our functions on the stack (outermost first) below ``frame``."""
    chain = []
    while frame is not None:
        module = str(frame.f_globals.get("__name__", ""))
        if module.startswith("browserops."):
            chain.append(f"{module}.{frame.f_code.co_qualname}")
        frame = frame.f_back
    return chain[::-1]


async def calls_into_playwright(ctx: ToolContext, tool: str, **args: Any) -> list[tuple[str, list[str]]]:
    """Every call our code makes into Playwright's API while ``tool`` runs, with the chain of our functions
    from the tool's handler down to the caller."""
    seen: list[tuple[str, list[str]]] = []

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if event != "call" or not str(frame.f_globals.get("__name__", "")).startswith("playwright.async_api"):
            return
        caller = frame.f_back
        if caller is None or not str(caller.f_globals.get("__name__", "")).startswith("browserops."):
            return  # Playwright calling itself
        chain = _project_chain(caller)
        call = (frame.f_code.co_qualname, chain[chain.index(HANDLER):]) if HANDLER in chain else None
        if call is not None and (not seen or seen[-1] != call):  # a coroutine "calls" again on every resume
            seen.append(call)

    sys.setprofile(profile)
    try:
        await ok(ctx, tool, **args)
    finally:
        sys.setprofile(None)
    return seen


async def test_a_click_by_number_reaches_playwright_within_five_functions_of_the_handler(
    tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/shadow")
    items = await listed(tool_ctx)
    calls = await calls_into_playwright(tool_ctx, "browser_overlay_act", index=by_name(items, "Light DOM button")["n"])
    talking = [(api, chain) for api, chain in calls if api.split(".")[-1] in ("evaluate", "click")]
    assert [api for api, _ in talking][:1] == ["Frame.evaluate"] and "Locator.click" in [a for a, _ in talking]
    deepest = max(len(chain) for _, chain in talking)
    for api, chain in talking:
        print(api, len(chain), " -> ".join(c.removeprefix("browserops.") for c in chain))
    assert deepest <= 5, talking
