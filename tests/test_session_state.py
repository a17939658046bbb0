"""Typed per-session state: each concern's dataclass, one instance per session, forgotten on demand."""

from __future__ import annotations

import ast
from pathlib import Path

from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.elements import LatestListing, latest_listing
from browserops.browser.numbering.frames import FrameRegistry

PACKAGE = Path(__file__).resolve().parents[1] / "browserops"


def test_one_instance_per_state_class_per_session() -> None:
    one, other = BrowserSession(), BrowserSession()
    registry = one.state(FrameRegistry)
    registry.next_label = 7
    assert one.state(FrameRegistry) is registry and one.state(FrameRegistry).next_label == 7
    assert other.state(FrameRegistry).next_label == 1  # sessions do not share state
    assert one.state(LatestListing).listing is None and latest_listing(one) is None


def test_forget_state_starts_every_concern_afresh() -> None:
    session = BrowserSession()
    session.state(FrameRegistry).next_label = 3
    session.forget_state()
    assert session.state(FrameRegistry).next_label == 1


def test_no_untyped_scratch_dict_on_the_session() -> None:
    """Nothing reads or writes session state through string keys (the old ``session.extras``)."""
    offenders = []
    for path in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr == "extras":
                offenders.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert offenders == []
    assert not hasattr(BrowserSession(), "extras")
