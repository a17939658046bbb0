"""Picks that survive a re-render (issue 34 item 5): a searching list that goes on showing its last options while
its server answers, and redraws them when it has, is picked from once it has stopped changing — never from the
options being replaced (tests/realweb/redraw/searching_list.html: a multiple select drawn as Select2 over AJAX draws
one, asking the zoo's /suggest, which answers after a delay); a step whose element the page redrew between its
listing and its act finds it again once, exactly (tests/realweb/redraw/chooser.html)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from browserops.demo_site.zoo_site import ZooSite
from browserops.plan.interpret.guard import CONFIRMED_CLASSES, GuardedTools
from browserops.plan.interpret.refind import refinder
from browserops.plan.interpret.resolve import resolve_target
from browserops.plan.model.step_parts import SemanticTarget, Within
from browserops.tools.context import ToolContext
from tests.tools.helpers import by_name, listed, ok, open_page

PAGES = Path(__file__).resolve().parent / "redraw"


@pytest.fixture(scope="module")
def site() -> Iterator[ZooSite]:
    with ZooSite(PAGES) as served:
        yield served


async def test_each_pick_waits_for_the_answered_list(tool_ctx: ToolContext, site: ZooSite) -> None:
    await open_page(tool_ctx, site.url("searching_list"))
    box = by_name([i for i in await listed(tool_ctx) if i["role"] == "combobox"], "Метки")
    # Each pick finds its option in the list from before at once (the second in a list still open after the first
    # pick, being asked again): clicked there, it would be lost.
    data = await ok(tool_ctx, "browser_overlay_act", index=box["n"], action="select", options=["Oslo", "Lyon"])
    assert data["chosen"] == ["Oslo", "Lyon"], data
    assert await tool_ctx.session.page.locator("#picked").inner_text() == "Oslo, Lyon"


@pytest.mark.parametrize(("mode", "chosen"), [("same", "Ann Lee #2"), ("twins", ""), ("gone", "")])
async def test_a_step_whose_element_was_redrawn_finds_it_again_once_exactly(tool_ctx: ToolContext, site: ZooSite,
                                                                            mode: str, chosen: str) -> None:
    """The step interpreter's rule (plan/interpret/refind.py, through GuardedTools as prepare and run act): the
    element listed a moment ago is gone when the step acts; it is found again once by the same role, name and
    container, and only when exactly one such element is there — two alike or none leave the step failing as it
    did, nothing clicked."""
    await open_page(tool_ctx, site.url("chooser") + "?" + mode)
    tools = GuardedTools(tool_ctx, CONFIRMED_CLASSES, who="test")
    target = SemanticTarget(role="button", names=["Ann Lee"], within=Within(role="dialog", names=["Choose an author"]))
    el = await resolve_target(tools, target)  # listing it stamps the results: the page redraws them
    hook = tools.find_again = refinder(tools, "browser_overlay_act", el)
    assert hook is not None
    result = await tools.call("browser_overlay_act", {"index": el.number, "action": "click", **el.act_args()})
    assert (result.status, result.code) == (("ok", None) if chosen else ("error", "BROWSER_STALE_INDEX")), result
    assert tools.find_again is None  # used once
    assert await tool_ctx.session.page.locator("#chosen").inner_text() == chosen
