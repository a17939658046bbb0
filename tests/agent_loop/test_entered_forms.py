"""Issue 22 item 3 in agent runs: what the agent typed leaves no trace in the run's bundle or its events in any
form the page gave it — the date input's ISO value, the digits behind an input mask (IMask, Cleave.js from npm),
the option typing chose — through the loop on real Chromium and through MCP ``browser_task``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mcp.client import Client

from browserops.agent.model_api import tool_turn
from browserops.demo_site.zoo_site import ZooSite
from browserops.tools.context import ToolContext
from tests.agent.fake_messages_server import FakeMessagesServer
from tests.agent_loop.conftest import RunFactory, open_page
from tests.agent_loop.helpers import act, bundle_files, wire_responder
from tests.agent_loop.test_origins_agent import params
from tests.mcp.helpers import call

GOAL = "Fill in my contact details: born 21.11.1980, phone 5551234567, card 4111111111111111, country Germ."
FORMS = ["21.11.1980", "1980-11-21", "5551234567", "15551234567", "+1 (555) 123-4567", "4111111111111111",
         "4111 1111 1111 1111", "Germany", "DEU"]


@pytest.fixture(scope="module")
def zoo() -> Iterator[ZooSite]:
    with ZooSite() as site:
        yield site


def script() -> list[Any]:
    return [act("textbox", "Date of birth", action="type", text="21.11.1980"),
            act("textbox", "Phone", action="type", text="5551234567"),
            act("textbox", "Card number", action="type", text="4111111111111111"),
            act("combobox", "Country", action="select", text="Germ"),
            # Sent in the address (?method=get): the page the run ends on carries every value in its URL.
            act("button", "Review details"),
            # The page shows no typed value as text, so the done check asks twice before it accepts.
            *[tool_turn("assistant_done", {"reason": "The contact details are filled in."})] * 3]


def assert_no_form_in(files: dict[str, bytes]) -> None:
    for value in FORMS:
        leaks = sorted(name for name, blob in files.items() if not name.endswith(".png")
                       and value.encode() in blob)
        assert leaks == [], f"{value!r} is in {leaks}"


async def test_an_agent_runs_bundle_and_events_hold_no_form_of_what_was_typed(
    make_run: RunFactory, tool_ctx: ToolContext, zoo: ZooSite
) -> None:
    await open_page(tool_ctx, zoo.url("masks") + "?method=get")
    emitted: list[str] = []

    async def emit(kind: str, data: dict[str, Any]) -> None:
        emitted.append(f"{kind} {data}")

    run = make_run(script(), goal=GOAL, emit=emit)
    pause = await run.advance()
    assert pause.kind == "done", pause
    sent = tool_ctx.session.page.url
    assert "dob=1980-11-21" in sent and "phone=15551234567" in sent and "country=DEU" in sent, sent
    assert run.recorder is not None
    assert_no_form_in({**bundle_files(run.recorder.path), "emitted events": "\n".join(emitted).encode()})


@pytest.fixture
def fake() -> Iterator[FakeMessagesServer]:
    with FakeMessagesServer() as server:
        yield server


async def test_browser_task_bundle_holds_no_form_of_what_was_typed(
    workspace: Path, fake: FakeMessagesServer, zoo: ZooSite
) -> None:
    fake.responder = wire_responder(script())
    async with Client(params(workspace, fake)) as client:
        result = await call(client, "browser_task", goal=GOAL, url=zoo.url("masks") + "?method=get")
    assert result["status"] == "ok" and result["data"]["outcome"] == "done", result
    assert_no_form_in({**bundle_files(Path(result["data"]["bundle"])), "result": str(result).encode()})
