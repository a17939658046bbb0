"""Typed per-session state: one object with a named field per concern (browser/state/session_state.py), its resets
said there once, made by the session and reset by the events it names — not by the tool pipeline's own hands."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.elements import latest_listing
from browserops.browser.state.session_state import SessionState
from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from tests.calls import call_tool

PACKAGE = Path(__file__).resolve().parents[1] / "browserops"


def test_one_state_object_per_session_with_named_fields() -> None:
    one, other = BrowserSession(), BrowserSession()
    assert isinstance(one.state, SessionState) and one.state is not other.state
    one.state.frames.next_label = 7
    assert other.state.frames.next_label == 1  # sessions do not share state
    assert one.state.listing is None and latest_listing(one) is None
    names = {f.name for f in dataclasses.fields(SessionState)}
    assert {"listing", "overlay", "frames", "worlds", "kept_orders", "walk_afresh", "network", "acted_at",
            "tool_tabs", "typed_secrets", "banners", "focus_cursor", "cdp"} <= names


def test_forget_starts_every_concern_afresh() -> None:
    session = BrowserSession()
    session.state.frames.next_label, session.state.walk_afresh = 3, True
    session.state.typed_secrets.add("s3cret")
    session.state.forget()
    assert session.state == SessionState()


def test_nothing_keeps_session_state_outside_the_state_object() -> None:
    """No string-keyed scratch dict (the old ``session.extras``), no bag of state classes (``session.state(Kind)``),
    and nothing outside browser/ writes a field of it: the tool pipeline names an event, the state says what it
    resets."""
    calls, writes = [], []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "extras":
                calls.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "state" \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id == "session":
                calls.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
            if isinstance(node, ast.Assign | ast.AugAssign) and "browser" not in path.relative_to(PACKAGE).parts:
                for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                    text = ast.unparse(target)
                    if ".state." in text and "session" in text:
                        writes.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {text}")
    assert calls == [] and writes == []
    assert not hasattr(BrowserSession(), "extras")


async def test_a_call_that_may_change_the_page_resets_what_the_state_says_a_pure_read_nothing(
        tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    state = tool_ctx.session.state
    assert (await call_tool("browser_navigate", tool_ctx, {"url": demo_site.base_url + "/expense"})).failed is False
    navigated_at = state.acted_at
    assert navigated_at is not None and state.walk_afresh is True
    assert (await call_tool("browser_list_interactives", tool_ctx)).failed is False
    assert state.walk_afresh is False and state.acted_at == navigated_at
    assert (await call_tool("browser_screenshot", tool_ctx)).failed is False  # a pure read resets nothing
    assert state.walk_afresh is False and state.acted_at == navigated_at
    assert (await call_tool("browser_scroll", tool_ctx, {"by_y": 50})).failed is False
    assert state.walk_afresh is True and state.acted_at is not None and state.acted_at > navigated_at


async def test_forget_keeps_one_set_of_wires_per_open_page(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    """A clean slate on a tab that stays open keeps its request counter, DevTools session and worlds: forgetting
    them left their listeners working and started another set at the next call (after 87 tests on one kept tab,
    every request was handled 87 times). Every concern that is not a wire still starts afresh."""
    session = tool_ctx.session
    page = session.page
    listeners: list[int] = []
    for _ in range(3):
        assert (await call_tool("browser_navigate", tool_ctx, {"url": demo_site.base_url + "/expense"})).failed is False
        assert (await call_tool("browser_list_interactives", tool_ctx)).failed is False
        cdp, tracker = session.state.cdp[page], session.state.network[page]
        listeners.append(sum(len(page._impl_obj.listeners(e)) for e in ("request", "requestfinished",
                                                                       "domcontentloaded", "framenavigated")))
        session.state.forget()
        assert session.state.listing is None and session.state.walk_afresh is False
        assert session.state.cdp[page] is cdp and session.state.network[page] is tracker
    assert len(set(listeners)) == 1, listeners
