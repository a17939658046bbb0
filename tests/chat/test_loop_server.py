"""The HTTP front door with the real agent loop: real HTTP/SSE and WebSocket clients against the real server,
the LoopBrain with a scripted model doing the work on the demo site."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from websockets.asyncio.client import connect

from browserops.agent.model_api import tool_turn
from browserops.agent.scripted import ScriptedModel
from browserops.agent.toolhost import InProcessToolHost
from browserops.chat.brain import LoopBrain
from browserops.chat.engine import ChatEngine
from browserops.demo_site import DemoSite
from browserops.server.chat_server import ChatServer
from browserops.tools.context import ToolContext
from tests.agent_loop.conftest import open_page
from tests.agent_loop.helpers import act
from tests.chat.test_server import next_json, sse_events, ws_url


@pytest.fixture
async def loop_server(workspace: Path, tool_ctx: ToolContext) -> AsyncIterator[tuple[ChatServer, ScriptedModel]]:
    model = ScriptedModel([])
    brain = LoopBrain(tool_ctx.settings, InProcessToolHost(tool_ctx), model, workspace)
    engine = ChatEngine(workspace, brain, steps_per_message=10)
    server = ChatServer(engine, port=0)
    await server.start()
    yield server, model
    await server.stop()
    await engine.close()
    await brain.aclose()


async def test_the_full_event_sequence_of_one_agent_task_arrives_in_order(
    loop_server: tuple[ChatServer, ScriptedModel], tool_ctx: ToolContext, demo_site: DemoSite
) -> None:
    server, model = loop_server
    await open_page(tool_ctx, demo_site.base_url + "/search")
    model.extend([act("searchbox", "Search", "type", text="stapler", submit=True, progress="Searching."),
                  tool_turn("assistant_done", {"reason": "The results page lists the Red stapler."}, "Done.")])
    async with httpx.AsyncClient(base_url=server.url, trust_env=False, timeout=30) as http:
        ready = asyncio.Event()
        watcher = asyncio.create_task(sse_events(
            http, server.tokens.viewer, ready=ready,
            until=lambda e: e["type"] == "status" and e["data"]["status"] == "idle" and e["seq"] > 2))
        await asyncio.wait_for(ready.wait(), 10)
        async with connect(ws_url(server, server.tokens.owner), proxy=None) as ws:
            await next_json(ws, "hello")
            await ws.send(json.dumps({"type": "user_message", "text": "find a stapler in the catalogue"}))
            reply = await next_json(ws, "agent_message")
            assert reply["data"]["kind"] == "final" and "Red" in reply["data"]["text"]
        events = await asyncio.wait_for(watcher, 30)
        shot = await http.get("/screenshot/latest", headers={"Authorization": f"Bearer {server.tokens.viewer}"})

    assert [e["type"] for e in events] == [
        "status", "status", "observation", "tool_call", "tool_result", "observation", "final", "agent_message",
        "status",
    ]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert [e["data"]["status"] for e in events if e["type"] == "status"] == ["idle", "running", "idle"]
    call = events[3]["data"]
    assert call["tool"] == "browser_overlay_act" and call["step"] == 1 and call["progress"] == "Searching."
    assert call["args"]["text"].keys() == {"textLength", "textDigest"}
    assert events[4]["data"]["status"] == "ok"
    assert events[5]["data"]["url"].endswith("/search?q=[typed]") and events[5]["data"]["items"]
    assert shot.status_code == 200 and shot.content.startswith(b"\x89PNG")
    assert demo_site.state.searches == ["stapler"]
