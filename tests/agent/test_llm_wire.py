"""The real ``anthropic`` client against a local fake Messages API: request shape, retries, timeouts, keys."""

from __future__ import annotations

import base64
import random
import struct
import zlib
from collections.abc import Iterator

import pytest

from browserops.agent.llm import Backoff, LLMClient, resolve_endpoint
from browserops.agent.model_api import ToolCall, tool_turn
from browserops.agent.model_summaries import Observation, llm_summary
from browserops.agent.toolspec import anthropic_tools, catalogue_specs, model_tools
from browserops.agent.transcript import Transcript, image_block
from browserops.config import Settings
from browserops.contract import BrowserOpsError, ErrorCode
from tests.agent.fake_messages_server import FakeMessagesServer, Reply, error, message, slow

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def tiny_png() -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return PNG_SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + \
        chunk(b"IEND", b"")


@pytest.fixture
def fake() -> Iterator[FakeMessagesServer]:
    with FakeMessagesServer() as server:
        yield server


class Sleeps:
    """Records the backoff delays instead of waiting them out: tests count attempts, not seconds."""

    def __init__(self) -> None:
        self.delays: list[float] = []

    async def __call__(self, delay: float) -> None:
        self.delays.append(delay)


def client(fake: FakeMessagesServer, sleeps: Sleeps | None = None, **settings: object) -> LLMClient:
    s = Settings(model="claude-test-model", llm_max_tokens=321, **settings)  # type: ignore[arg-type]
    env = {"ANTHROPIC_API_KEY": "sk-test-key", "ANTHROPIC_BASE_URL": fake.base_url}
    return LLMClient.from_settings(s, env=env, sleep=sleeps or Sleeps(), rng=random.Random(7))


async def test_request_shape_tools_image_and_tool_result(fake: FakeMessagesServer) -> None:
    fake.push(message("Opening the search page.", [("browser_navigate", {"url": "http://example.test/"})]))
    transcript = Transcript(vision=True)
    transcript.add_user("Find staplers")
    first = tool_turn("browser_back", {}, "Going back first.", call_id="toolu_prev_1")
    transcript.add_turn(first)
    transcript.add_result("toolu_prev_1", "browser_back", llm_summary("browser_back", {"status": "ok", "data": {
        "url": "http://example.test/", "title": "Home"}}))
    transcript.add_observation(Observation(text="Page: 'Home' http://example.test/", summary="Home",
                                           image_png=tiny_png()))
    tools = anthropic_tools(model_tools(catalogue_specs()))
    async with client(fake) as llm:
        turn = await llm.complete("SYSTEM PROMPT", transcript.messages(), tools)

    assert turn.text == "Opening the search page."
    assert turn.tool_calls == (ToolCall(turn.tool_calls[0].id, "browser_navigate", {"url": "http://example.test/"}),)
    assert turn.stop_reason == "tool_use" and turn.usage.input_tokens == 120 and turn.attempts == 1

    [req] = fake.requests
    assert req.path == "/v1/messages"
    # anthropic 2.x sends the key as a bearer token (1.x used x-api-key): accept either spelling.
    bearer = req.headers.get("authorization", "").removeprefix("Bearer ")
    assert "sk-test-key" in (req.headers.get("x-api-key", ""), bearer)
    assert "anthropic-version" in req.headers
    body = req.body
    assert body["model"] == "claude-test-model" and body["max_tokens"] == 321 and body["system"] == "SYSTEM PROMPT"
    assert body["tool_choice"] == {"type": "auto", "disable_parallel_tool_use": True}
    names = [t["name"] for t in body["tools"]]
    assert "browser_navigate" in names and names[-2:] == ["assistant_done", "assistant_ask"]
    nav = next(t for t in body["tools"] if t["name"] == "browser_navigate")
    assert nav["input_schema"]["type"] == "object" and nav["input_schema"]["required"] == ["url"]
    assert nav["description"]
    roles = [m["role"] for m in body["messages"]]
    assert roles == ["user", "assistant", "user"]
    assistant = body["messages"][1]["content"]
    assert assistant[-1] == {"type": "tool_use", "id": "toolu_prev_1", "name": "browser_back", "input": {}}
    last = body["messages"][2]["content"]
    assert last[0]["type"] == "tool_result" and last[0]["tool_use_id"] == "toolu_prev_1"
    assert "Home" in last[0]["content"][0]["text"]
    image = next(b for b in last if b["type"] == "image")
    assert image["source"]["media_type"] == "image/png"
    assert base64.b64decode(image["source"]["data"]).startswith(PNG_SIGNATURE)


async def test_no_vision_sends_no_image(fake: FakeMessagesServer) -> None:
    fake.push(message("ok", [("assistant_done", {"reason": "done"})]))
    transcript = Transcript(vision=False)
    transcript.add_user("goal")
    transcript.add_observation(Observation(text="Page", summary="Page", image_png=tiny_png()))
    async with client(fake) as llm:
        await llm.complete("s", transcript.messages(), [])
    body = fake.requests[0].body
    assert all(b["type"] != "image" for m in body["messages"] for b in m["content"])
    assert "tools" not in body and "tool_choice" not in body


@pytest.mark.parametrize("status,kind", [(429, "rate_limit_error"), (529, "overloaded_error"),
                                         (500, "api_error"), (503, "api_error")])
async def test_transient_errors_are_retried_then_succeed(fake: FakeMessagesServer, status: int, kind: str) -> None:
    fake.push(error(status, kind), error(status, kind), message("fine", [("browser_back", {})]))
    sleeps = Sleeps()
    async with client(fake, sleeps, llm_max_retries=3) as llm:
        turn = await llm.complete("s", [{"role": "user", "content": "hi"}], [])
    assert len(fake.requests) == 3 and turn.attempts == 3 and llm.attempts == 3
    assert turn.tool_calls[0].name == "browser_back"
    assert len(sleeps.delays) == 2 and all(d > 0 for d in sleeps.delays)


async def test_retry_after_is_honoured(fake: FakeMessagesServer) -> None:
    fake.push(error(429, "rate_limit_error", retry_after="7"), message("ok"))
    sleeps = Sleeps()
    async with client(fake, sleeps) as llm:
        await llm.complete("s", [{"role": "user", "content": "hi"}], [])
    assert sleeps.delays == [7.0]


async def test_retries_are_bounded_then_llm_failed(fake: FakeMessagesServer) -> None:
    fake.push(*[error(529, "overloaded_error", "Overloaded") for _ in range(5)])
    sleeps = Sleeps()
    async with client(fake, sleeps, llm_max_retries=2) as llm:
        with pytest.raises(BrowserOpsError) as info:
            await llm.complete("s", [{"role": "user", "content": "hi"}], [])
    assert info.value.code is ErrorCode.LLM_FAILED
    assert "3 attempts" in info.value.message and "529" in info.value.message
    assert len(fake.requests) == 3 and len(sleeps.delays) == 2
    assert len(fake.queue) == 2  # nothing beyond the bound was sent


@pytest.mark.parametrize("status,code", [(400, ErrorCode.LLM_FAILED), (401, ErrorCode.LLM_UNAVAILABLE),
                                         (404, ErrorCode.LLM_FAILED)])
async def test_client_errors_are_not_retried(fake: FakeMessagesServer, status: int, code: ErrorCode) -> None:
    fake.push(error(status, "invalid_request_error", "bad thing"), message("never reached"))
    async with client(fake) as llm:
        with pytest.raises(BrowserOpsError) as info:
            await llm.complete("s", [{"role": "user", "content": "hi"}], [])
    assert info.value.code is code and "bad thing" in info.value.message
    assert len(fake.requests) == 1


async def test_timeout_is_retried_then_reported(fake: FakeMessagesServer) -> None:
    fake.push(slow(message("late"), 3.0), slow(message("late"), 3.0))
    async with client(fake, llm_timeout_s=0.3, llm_max_retries=1) as llm:
        with pytest.raises(BrowserOpsError) as info:
            await llm.complete("s", [{"role": "user", "content": "hi"}], [])
    assert info.value.code is ErrorCode.LLM_FAILED and "no answer within 0.3 s" in info.value.message
    assert len(fake.requests) == 2


async def test_a_slow_answer_within_the_timeout_is_fine(fake: FakeMessagesServer) -> None:
    fake.push(slow(message("made it"), 0.2))
    async with client(fake, llm_timeout_s=5) as llm:
        turn = await llm.complete("s", [{"role": "user", "content": "hi"}], [])
    assert turn.text == "made it" and turn.attempts == 1


async def test_connection_refused_is_retried_then_reported() -> None:
    with FakeMessagesServer() as gone:
        url = gone.base_url  # the port is closed once the server stops
    sleeps = Sleeps()
    s = Settings(llm_max_retries=2)
    llm = LLMClient.from_settings(s, env={"ANTHROPIC_API_KEY": "k", "ANTHROPIC_BASE_URL": url}, sleep=sleeps)
    async with llm:
        with pytest.raises(BrowserOpsError) as info:
            await llm.complete("s", [{"role": "user", "content": "hi"}], [])
    assert info.value.code is ErrorCode.LLM_FAILED and "connection failed" in info.value.message
    assert llm.attempts == 3 and len(sleeps.delays) == 2


def test_missing_key_says_how_to_set_one() -> None:
    with pytest.raises(BrowserOpsError) as info:
        LLMClient.from_settings(Settings(), env={})
    assert info.value.code is ErrorCode.LLM_UNAVAILABLE
    assert "ANTHROPIC_API_KEY" in info.value.message and "ANTHROPIC_BASE_URL" in info.value.message


async def test_a_base_url_without_key_works_for_local_endpoints(fake: FakeMessagesServer) -> None:
    fake.push(message("local"))
    llm = LLMClient.from_settings(Settings(), env={"ANTHROPIC_BASE_URL": fake.base_url})
    async with llm:
        turn = await llm.complete("s", [{"role": "user", "content": "hi"}], [])
    headers = fake.requests[0].headers
    assert turn.text == "local" and "browserops-no-key" in headers.get("x-api-key", headers.get("authorization", ""))


def test_endpoint_resolution() -> None:
    assert resolve_endpoint({"ANTHROPIC_API_KEY": " k "}).api_key == "k"
    token = resolve_endpoint({"ANTHROPIC_AUTH_TOKEN": "t"})
    assert token.api_key is None and token.auth_token == "t"
    with pytest.raises(BrowserOpsError):
        resolve_endpoint({"ANTHROPIC_API_KEY": "  "})


def test_backoff_grows_exponentially_with_jitter_and_is_capped() -> None:
    backoff = Backoff(base_s=1.0, cap_s=10.0)
    rng = random.Random(1)
    for retry in range(8):
        exp = min(10.0, 2.0**retry)
        for _ in range(50):
            delay = backoff.delay(retry, None, rng)
            assert exp / 2 <= delay <= exp
    assert backoff.delay(0, 60.0, rng) == 10.0  # retry-after beyond the cap is capped
    assert backoff.delay(0, 3.0, rng) == 3.0
    delays = {round(backoff.delay(3, None, rng), 6) for _ in range(20)}
    assert len(delays) > 10  # jitter: retries of many clients do not line up


def test_image_block_shape() -> None:
    block = image_block(tiny_png())
    assert block["type"] == "image" and block["source"]["type"] == "base64"


@pytest.mark.parametrize("body", [{"foo": 1}, {"content": [{"type": "tool_use", "name": "x"}]},
                                  {"content": "text instead of blocks"}])
async def test_a_malformed_answer_is_an_llm_error(fake: FakeMessagesServer, body: dict[str, object]) -> None:
    fake.push(Reply(body=body))
    async with client(fake) as llm:
        with pytest.raises(BrowserOpsError) as info:
            await llm.complete("s", [{"role": "user", "content": "hi"}], [])
    assert info.value.code is ErrorCode.LLM_FAILED and "malformed" in info.value.message
