"""``LLMClient``: the Anthropic Messages API with tool use, behind the :class:`Model` protocol.

The SDK's own retries are switched off (``max_retries=0``) so the retry policy is ours, bounded and
testable: exponential backoff with jitter on 408/429/5xx/529 and on connection errors and timeouts,
honouring ``retry-after`` up to the cap. ``ANTHROPIC_BASE_URL`` points the client at any
Messages-compatible endpoint (a local server needs no key).
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any, cast

import anthropic

from browserops.agent.model_api import Message, ModelTurn, ToolCall, ToolSchema, Usage
from browserops.config import Settings
from browserops.contract import BrowserOpsError, ErrorCode

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://api.anthropic.com"
RETRY_STATUSES = frozenset({408, 429, 500, 502, 503, 504, 529})
# Sent when ANTHROPIC_BASE_URL names a compatible endpoint but no key is set: local servers ignore it.
LOCAL_PLACEHOLDER_KEY = "browserops-no-key"

Sleep = Callable[[float], Awaitable[None]]


@dataclass(frozen=True)
class Endpoint:
    api_key: str | None
    auth_token: str | None
    base_url: str | None


def resolve_endpoint(env: Mapping[str, str] | None = None) -> Endpoint:
    """Credentials and base URL from the environment, or BROWSER_LLM_UNAVAILABLE saying how to set them."""
    env = os.environ if env is None else env
    key = env.get("ANTHROPIC_API_KEY", "").strip() or None
    token = env.get("ANTHROPIC_AUTH_TOKEN", "").strip() or None
    base_url = env.get("ANTHROPIC_BASE_URL", "").strip() or None
    if key is None and token is None:
        if base_url is None:
            raise BrowserOpsError(
                ErrorCode.LLM_UNAVAILABLE,
                "No model credentials: set ANTHROPIC_API_KEY=sk-ant-... (or ANTHROPIC_BASE_URL=http://host:port "
                "for a Messages-compatible endpoint that needs no key).",
            )
        key = LOCAL_PLACEHOLDER_KEY
    return Endpoint(api_key=key, auth_token=None if key else token, base_url=base_url)


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff with "equal jitter": retry n waits in [e/2, e], e = min(cap, base * 2**n)."""

    base_s: float = 0.5
    cap_s: float = 30.0

    def delay(self, retry: int, retry_after_s: float | None, rng: random.Random) -> float:
        exp = min(self.cap_s, self.base_s * (2.0**retry))
        wait = exp / 2 + rng.uniform(0, exp / 2)
        if retry_after_s is not None and retry_after_s >= 0:
            wait = max(wait, retry_after_s)  # the server knows best, but never beyond the cap
        return min(self.cap_s, wait)


def _retry_after(exc: anthropic.APIStatusError) -> float | None:
    headers: Mapping[str, str] = exc.response.headers
    for name, scale in (("retry-after-ms", 1000.0), ("retry-after", 1.0)):
        raw = headers.get(name)
        if raw is None:
            continue
        try:
            return float(raw) / scale
        except ValueError:
            continue  # an HTTP date: fall back to our own backoff
    return None


def _status_detail(exc: anthropic.APIStatusError) -> str:
    message = exc.api_message or exc.message
    return f"HTTP {exc.status_code}: {message[:300]}"


def _malformed(why: str) -> BrowserOpsError:
    return BrowserOpsError(
        ErrorCode.LLM_FAILED,
        f"The model endpoint answered with a malformed message ({why}). Check that ANTHROPIC_BASE_URL speaks "
        "the Anthropic Messages API.",
    )


def to_turn(message: Any, attempts: int) -> ModelTurn:
    """An SDK ``Message`` → our SDK-independent :class:`ModelTurn`; BROWSER_LLM_FAILED if it is malformed.

    Compatible endpoints are not always strict, and the SDK does not validate responses, so check here."""
    content = getattr(message, "content", None)
    if not isinstance(content, list):
        raise _malformed("no content list")
    texts: list[str] = []
    calls: list[ToolCall] = []
    for block in content:
        kind = getattr(block, "type", None)
        if kind == "text":
            texts.append(str(getattr(block, "text", "")))
        elif kind == "tool_use":
            block_id, name, raw_input = (getattr(block, key, None) for key in ("id", "name", "input"))
            if not isinstance(block_id, str) or not isinstance(name, str) or not block_id or not name:
                raise _malformed("a tool_use block without id or name")
            calls.append(ToolCall(id=block_id, name=name, input=dict(raw_input) if isinstance(raw_input, dict) else {}))
    usage = getattr(message, "usage", None)
    stop_reason = getattr(message, "stop_reason", None)

    def tokens(key: str) -> int:
        value = getattr(usage, key, 0)
        return value if isinstance(value, int) else 0

    return ModelTurn(
        text="\n".join(texts),
        tool_calls=tuple(calls),
        stop_reason=stop_reason if isinstance(stop_reason, str) else None,
        usage=Usage(input_tokens=tokens("input_tokens"), output_tokens=tokens("output_tokens")),
        attempts=attempts,
    )


class LLMClient:
    """One model behind the Messages API. Use as ``async with LLMClient.from_settings(settings) as llm``."""

    def __init__(
        self,
        *,
        model: str,
        max_tokens: int,
        timeout_s: float,
        max_retries: int,
        endpoint: Endpoint,
        backoff: Backoff | None = None,
        sleep: Sleep = asyncio.sleep,
        rng: random.Random | None = None,
        one_call_per_turn: bool = True,
    ) -> None:
        self.model = model
        self.max_tokens = max_tokens
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self.endpoint = endpoint
        self.backoff = backoff or Backoff()
        self._sleep = sleep
        self._rng = rng or random.Random()
        self.one_call_per_turn = one_call_per_turn
        # Total HTTP attempts over this client's life (retries included), for the max_llm_calls budget.
        self.attempts = 0
        credentials: dict[str, Any] = (
            {"api_key": endpoint.api_key} if endpoint.api_key else {"auth_token": endpoint.auth_token}
        )
        # Always explicit, so the SDK never falls back to other env vars or on-disk profiles behind our back.
        self._client = anthropic.AsyncAnthropic(**credentials, base_url=self.where, timeout=timeout_s, max_retries=0)

    @classmethod
    def from_settings(cls, settings: Settings, *, env: Mapping[str, str] | None = None, **kwargs: Any) -> LLMClient:
        return cls(
            model=settings.model,
            max_tokens=settings.llm_max_tokens,
            timeout_s=settings.llm_timeout_s,
            max_retries=settings.llm_max_retries,
            endpoint=resolve_endpoint(env),
            **kwargs,
        )

    @property
    def where(self) -> str:
        return self.endpoint.base_url or DEFAULT_BASE_URL

    async def complete(self, system: str, messages: list[Message], tools: list[ToolSchema]) -> ModelTurn:
        """One assistant turn. Retries transient failures; raises BrowserOpsError(LLM_FAILED/UNAVAILABLE)."""
        request: dict[str, Any] = {"model": self.model, "max_tokens": self.max_tokens, "messages": messages}
        if system:
            request["system"] = system
        if tools:
            request["tools"] = tools
            # Exactly one call per iteration (docs/design.md §8.1): ask the API not to emit parallel calls.
            request["tool_choice"] = {"type": "auto", "disable_parallel_tool_use": self.one_call_per_turn}
        attempt = 0
        while True:
            attempt += 1
            self.attempts += 1
            try:
                message = await self._client.messages.create(**cast(Any, request))
                return to_turn(message, attempt)
            except anthropic.APIStatusError as exc:
                if exc.status_code not in RETRY_STATUSES:
                    raise self._fatal(exc, attempt) from exc
                detail, retry_after = _status_detail(exc), _retry_after(exc)
            except anthropic.APITimeoutError:
                detail, retry_after = f"no answer within {self.timeout_s:g} s", None
            except anthropic.APIConnectionError as exc:
                detail, retry_after = f"connection failed ({exc.message})", None
            except anthropic.AnthropicError as exc:
                raise BrowserOpsError(
                    ErrorCode.LLM_FAILED, f"The model endpoint {self.where} returned something unusable: {exc}."
                ) from exc
            if attempt > self.max_retries:
                raise BrowserOpsError(
                    ErrorCode.LLM_FAILED,
                    f"The model endpoint {self.where} kept failing ({detail}) after {attempt} attempts. "
                    "Retry later, or check ANTHROPIC_BASE_URL and the network.",
                    details={"attempts": attempt},
                )
            delay = self.backoff.delay(attempt - 1, retry_after, self._rng)
            log.warning("LLM attempt %d failed (%s); retrying in %.2f s", attempt, detail, delay)
            await self._sleep(delay)

    def _fatal(self, exc: anthropic.APIStatusError, attempts: int) -> BrowserOpsError:
        detail = _status_detail(exc)
        details = {"status": exc.status_code, "attempts": attempts}
        if exc.status_code in (401, 403):
            return BrowserOpsError(
                ErrorCode.LLM_UNAVAILABLE,
                f"The model endpoint {self.where} refused the credentials ({detail}). "
                "Set a valid ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN).",
                details=details,
            )
        if exc.status_code == 404:
            return BrowserOpsError(
                ErrorCode.LLM_FAILED,
                f"Model {self.model!r} was not found at {self.where} ({detail}). "
                "Choose another with --model or BROWSEROPS_MODEL.",
                details=details,
            )
        return BrowserOpsError(
            ErrorCode.LLM_FAILED, f"The model endpoint {self.where} rejected the request ({detail}).", details=details
        )

    async def aclose(self) -> None:
        await self._client.close()

    async def __aenter__(self) -> LLMClient:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()
