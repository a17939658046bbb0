"""The HTTP front door with real clients: httpx for HTTP and SSE, the websockets client for the chat socket,
against the real uvicorn server on 127.0.0.1, driving the scripted-plan Brain on the demo site."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidStatus

from browserops.chat.engine import ChatEngine
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.demo_site import DemoSite
from browserops.server.chat_server import ChatServer, bind_socket

SID = "default"


@pytest.fixture
async def server(engine: ChatEngine) -> AsyncIterator[ChatServer]:
    srv = ChatServer(engine, port=0)
    await srv.start()
    yield srv
    await srv.stop()


@pytest.fixture
async def http(server: ChatServer) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server.url, trust_env=False, timeout=20) as client:
        yield client


def ws_url(server: ChatServer, token: str | None, session: str = SID) -> str:
    url = server.url.replace("http://", "ws://") + f"/ws?session={session}"
    return url + (f"&token={token}" if token else "")


async def next_json(ws: ClientConnection, want: str | None = None) -> dict[str, Any]:
    """The next message (of type ``want``, skipping others), within 20 s."""
    async with asyncio.timeout(20):
        while True:
            message = json.loads(await ws.recv())
            if want is None or message["type"] == want:
                return dict(message)


async def sse_events(client: httpx.AsyncClient, token: str, *, until: Any, headers: dict[str, str] | None = None,
                     ready: asyncio.Event | None = None) -> list[dict[str, Any]]:
    """Read the SSE stream, parsing id/event/data, until ``until(event)`` is true."""
    out: list[dict[str, Any]] = []
    async with client.stream("GET", f"/events?session={SID}", headers={"Authorization": f"Bearer {token}",
                                                                       **(headers or {})}) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        if ready is not None:
            ready.set()
        fields: dict[str, str] = {}
        async for line in response.aiter_lines():
            if line == "":
                if "data" in fields:
                    event = json.loads(fields["data"])
                    assert event["type"] == fields["event"] and str(event["seq"]) == fields["id"]
                    out.append(event)
                    if until(event):
                        return out
                fields = {}
            elif not line.startswith(":"):
                key, _, value = line.partition(": ")
                fields[key] = value
    return out


async def test_every_endpoint_requires_a_token(server: ChatServer, http: httpx.AsyncClient) -> None:
    for path in ("/", "/events", "/api/state", "/screenshot/latest"):
        missing = await http.get(path)
        assert missing.status_code == 401, path
        assert missing.json()["code"] == "BROWSER_UNAUTHORIZED"
        assert missing.headers["www-authenticate"] == "Bearer"
        wrong = await http.get(path, headers={"Authorization": "Bearer not-the-token"})
        assert wrong.status_code == 401, path
        assert (await http.get(path + "?token=also-wrong")).status_code == 401
    with pytest.raises(InvalidStatus) as err:
        async with connect(ws_url(server, None), proxy=None):
            pass
    assert err.value.response.status_code == 401
    with pytest.raises(InvalidStatus):
        async with connect(ws_url(server, "wrong"), proxy=None):
            pass
    # Both ways of giving the token work; a non-ASCII token is simply wrong, not a crash.
    assert (await http.get("/api/state", headers={"Authorization": f"Bearer {server.tokens.owner}"})).json()[
        "role"] == "owner"
    assert (await http.get(f"/api/state?token={server.tokens.viewer}")).json()["role"] == "viewer"
    assert (await http.get("/api/state?token=%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82")).status_code == 401


async def test_requests_for_another_host_name_are_refused(server: ChatServer, http: httpx.AsyncClient) -> None:
    response = await http.get(f"/api/state?token={server.tokens.owner}", headers={"Host": "evil.example"})
    assert response.status_code == 400


async def test_server_refuses_non_loopback_hosts_and_busy_ports(engine: ChatEngine, server: ChatServer) -> None:
    for host in ("0.0.0.0", "192.168.1.5", "example.com"):
        with pytest.raises(BrowserOpsError) as err:
            ChatServer(engine, host=host, port=0)
        assert err.value.code is ErrorCode.INVALID_ARGS
    with pytest.raises(BrowserOpsError) as busy:
        bind_socket("127.0.0.1", server.port)
    assert busy.value.code is ErrorCode.SERVER_START_FAILED


async def test_full_event_sequence_of_one_task_arrives_in_order(
    server: ChatServer, http: httpx.AsyncClient, demo_site: DemoSite
) -> None:
    ready = asyncio.Event()
    watcher = asyncio.create_task(sse_events(
        http, server.tokens.viewer, ready=ready,
        until=lambda e: e["type"] == "status" and e["data"]["status"] == "idle" and e["seq"] > 2))
    await asyncio.wait_for(ready.wait(), 10)
    async with connect(ws_url(server, server.tokens.owner), proxy=None) as ws:
        hello = await next_json(ws, "hello")
        assert hello["data"]["role"] == "owner" and hello["data"]["state"]["status"] == "idle"
        await ws.send(json.dumps({"type": "user_message", "text": "search for chat-demo"}))
        reply = await next_json(ws, "agent_message")
        assert "Searched the catalogue" in reply["data"]["text"] and reply["seq"] is not None
        statuses = [reply]
        while not (statuses[-1]["type"] == "status" and statuses[-1]["data"]["status"] == "idle"):
            statuses.append(await next_json(ws))
    events = await asyncio.wait_for(watcher, 20)
    assert [e["type"] for e in events] == [
        "status",  # the page's message put the session into chat mode
        "status", "observation", "tool_call", "tool_result", "observation", "final", "agent_message", "status",
    ]
    assert [e["data"]["status"] for e in events if e["type"] == "status"] == ["idle", "running", "idle"]
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert events[3]["data"] == {"tool": "browser_navigate", "args": {"url": demo_site.base_url +
                                                                      "/search?q=chat-demo"}, "step": 1}
    assert demo_site.state.searches == ["chat-demo"]

    # A late subscriber gets the same events replayed, from where it says it stopped.
    replay = await sse_events(http, server.tokens.owner, headers={"Last-Event-ID": "4"},
                              until=lambda e: e["seq"] == len(events))
    assert [e["seq"] for e in replay] == list(range(5, len(events) + 1))


async def test_screenshot_and_state_endpoints(server: ChatServer, http: httpx.AsyncClient, engine: ChatEngine) -> None:
    auth = {"Authorization": f"Bearer {server.tokens.viewer}"}
    assert (await http.get("/screenshot/latest", headers=auth)).status_code == 404
    await engine.submit(SID, "/chat")
    await engine.submit(SID, "search for chat-demo")
    shot = await http.get("/screenshot/latest", headers=auth)
    assert shot.status_code == 200 and shot.headers["content-type"] == "image/png"
    assert shot.content.startswith(b"\x89PNG\r\n\x1a\n")
    state = (await http.get(f"/api/state?session={SID}", headers=auth)).json()
    assert state["mode"] == "chat" and state["status"] == "idle" and not state["running"]
    assert state["last_observation"]["items"] and "brain_state" not in state
    bad = await http.get("/api/state?session=../../etc", headers=auth)
    assert bad.status_code == 400 and bad.json()["code"] == "BROWSER_INVALID_ARGS"


async def test_viewer_can_watch_but_not_confirm_or_start(
    server: ChatServer, engine: ChatEngine, demo_site: DemoSite
) -> None:
    async with connect(ws_url(server, server.tokens.owner), proxy=None) as owner, \
            connect(ws_url(server, server.tokens.viewer), proxy=None) as viewer:
        assert (await next_json(viewer, "hello"))["data"]["role"] == "viewer"
        await owner.send(json.dumps({"type": "user_message", "text": "confirm the search"}))
        question = await next_json(viewer, "agent_question")  # the viewer sees the question too
        assert question["data"]["kind"] == "confirm"
        assert "confirmed-once" in question["data"]["pending"]["args"]["url"]

        for attempt in ({"type": "confirm", "approved": True}, {"type": "user_message", "text": "go on"},
                        {"type": "stop"}, {"type": "user_message", "text": "/yes"}):
            await viewer.send(json.dumps(attempt))
            error = await next_json(viewer, "error")
            assert error["data"]["code"] == "BROWSER_UNAUTHORIZED", attempt
        assert engine.session(SID).pending_kind == "confirm" and demo_site.state.searches == []

        await owner.send(json.dumps({"type": "confirm", "approved": True}))
        done = await next_json(owner, "agent_message")
        assert "after your confirmation" in done["data"]["text"]
        assert demo_site.state.searches == ["confirmed-once", "after-confirm"]


async def test_bad_frames_get_clear_errors_and_busy_is_reported(server: ChatServer, engine: ChatEngine) -> None:
    async with connect(ws_url(server, server.tokens.owner), proxy=None) as ws:
        await next_json(ws, "hello")
        for frame in ("not json", json.dumps({"type": "dance"}), json.dumps({"type": "user_message", "text": ""}),
                      json.dumps({"type": "confirm", "approved": "yes"}), json.dumps(["user_message"])):
            await ws.send(frame)
            assert (await next_json(ws, "error"))["data"]["code"] == "BROWSER_INVALID_ARGS", frame
        await ws.send(json.dumps({"type": "user_message", "text": "open the slow pages"}))
        assert (await next_json(ws, "status"))["data"]["status"] in ("idle", "running")
        while (await next_json(ws, "status"))["data"]["status"] != "running":
            pass
        await ws.send(json.dumps({"type": "user_message", "text": "something else"}))
        busy = await next_json(ws, "agent_message")
        assert busy["seq"] is None and busy["data"]["text"].startswith("Busy")
        await ws.send(json.dumps({"type": "stop"}))
        assert (await next_json(ws, "manual_stop"))["data"]["during"] == "running"
        stopped = await next_json(ws, "agent_message")
        while stopped["seq"] is None:  # skip the direct "Stopping…" reply
            stopped = await next_json(ws, "agent_message")
        assert stopped["data"]["kind"] == "stopped"


async def test_stop_ends_open_streams(engine: ChatEngine) -> None:
    srv = ChatServer(engine, port=0)
    await srv.start()
    async with httpx.AsyncClient(base_url=srv.url, trust_env=False, timeout=20) as client:
        ready = asyncio.Event()
        reader = asyncio.create_task(sse_events(client, srv.tokens.owner, until=lambda e: False, ready=ready))
        async with connect(ws_url(srv, srv.tokens.owner), proxy=None) as ws:
            await next_json(ws, "hello")
            await asyncio.wait_for(ready.wait(), 10)  # the stream is open (its response has started)
            await asyncio.wait_for(srv.stop(), 10)
            assert await asyncio.wait_for(reader, 10) == []
