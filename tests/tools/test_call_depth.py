"""How many of our own functions a click passes through before Playwright is called: at most 8 from the front
doors' one pipeline (``ToolRunner.call``), at most 5 of them from the tool's handler on."""

from __future__ import annotations

import sys
from types import FrameType
from typing import Any

from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from browserops.tools.runner import MCP, ToolRunner
from tests.tools.helpers import by_name, listed, open_page

HANDLER = "browserops.tools.actions.overlay_act"
RUNNER = "browserops.tools.runner.ToolRunner.call"
SPAWNERS = ("wait_for", "ensure_future", "create_task")  # asyncio calls that run a coroutine in a task of its own


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
    """Every call our code makes into Playwright's API while ``tool`` runs (through the front doors' runner),
    with the chain of our functions from the tool's handler down to the caller."""
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

    runner = ToolRunner(ctx, MCP)
    sys.setprofile(profile)
    try:
        result = await runner.call(tool, args)
    finally:
        sys.setprofile(None)
    assert result["status"] == "ok", result
    return seen


def _talking(calls: list[tuple[str, list[str]]]) -> list[tuple[str, list[str]]]:
    """The calls that talk to the page (script runs and the click itself)."""
    talking = [(api, chain) for api, chain in calls if api.split(".")[-1] in ("evaluate", "click")]
    assert [api for api, _ in talking][:1] == ["Frame.evaluate"] and "Locator.click" in [a for a, _ in talking]
    for api, chain in talking:
        print(api, len(chain), " -> ".join(c.removeprefix("browserops.") for c in chain))
    return talking


async def test_a_click_by_number_reaches_playwright_within_five_functions_of_the_handler(
    tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    await open_page(tool_ctx, demo_site.base_url + "/shadow")
    items = await listed(tool_ctx)
    calls = await calls_into_playwright(tool_ctx, "browser_overlay_act", index=by_name(items, "Light DOM button")["n"])
    talking = _talking(calls)
    assert max(len(chain) for _, chain in talking) <= 5, talking


async def test_a_click_by_number_reaches_playwright_within_ten_functions_of_the_runner(
    tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    """The stack breaks where asyncio starts a task (the runner's timeout, the dialog watch), so the path is read
    in pieces: our chain up to each call that hands a coroutine to a new task, then the handler's own chain. The
    race against a lost browser (session.until_lost -> launch/lost.until_lost, issue 20) adds two of the ten."""
    await open_page(tool_ctx, demo_site.base_url + "/shadow")
    items = await listed(tool_ctx)
    number = by_name(items, "Light DOM button")["n"]
    pieces: list[list[str]] = []
    started: list[bool] = []  # the handler has begun: later tasks (the hooks after it) are not on the path

    def profile(frame: FrameType, event: str, arg: object) -> None:
        if f"{frame.f_globals.get('__name__')}.{frame.f_code.co_qualname}" == HANDLER:
            started.append(True)
        spawns = frame.f_code.co_name in SPAWNERS and frame.f_globals.get("__name__") == "asyncio.tasks"
        if event != "call" or not spawns or started:
            return
        chain = _project_chain(frame.f_back)
        if chain and chain not in pieces and HANDLER not in chain:
            pieces.append(chain)

    sys.setprofile(profile)
    try:
        result = await ToolRunner(tool_ctx, MCP).call("browser_overlay_act", {"index": number})
    finally:
        sys.setprofile(None)
    assert result["status"] == "ok", result
    talking = _talking(await calls_into_playwright(tool_ctx, "browser_overlay_act", index=number))
    for piece in pieces:
        print("to a task:", " -> ".join(c.removeprefix("browserops.") for c in piece))
    assert pieces and pieces[0][0] == RUNNER, pieces
    assert sum(len(p) for p in pieces) + max(len(chain) for _, chain in talking) <= 10, (pieces, talking)
