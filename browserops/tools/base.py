"""The shape of a tool and the result contract every tool call returns.

A tool is one :class:`ToolDef`: name (the seed's id), a pydantic args model, a description written for an
LLM, a side-effect class and an async handler. Everything that serves tools (MCP, the agent, the plan
runner) reads these definitions; :func:`invoke` is the one place that validates arguments, applies the
timeout and turns any failure into ``{"status": "error", "code": ..., "error": ...}`` — it never raises.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from browserops.browser.errors import browser_errors
from browserops.browser.launch.session import BrowserSession
from browserops.browser.page.dialogs import check_no_dialog, run_watching_dialogs
from browserops.config import Settings
from browserops.contract import BrowserOpsError, ErrorCode, SideEffect, ToolResult, ToolTraits, error, ok

log = logging.getLogger(__name__)




class ToolArgs(BaseModel):
    """Base of every args model: unknown fields are errors, so a typo is reported, not ignored."""

    model_config = ConfigDict(extra="forbid")


@dataclass
class ToolContext:
    """What a handler may use: the browser session, the effective settings and the workspace."""

    session: BrowserSession
    settings: Settings
    workspace: Path
    # Free-form per-call facts a handler wants the caller (agent, plan runner) to see, e.g. "navigated".
    signals: dict[str, Any] = field(default_factory=dict)

    def workspace_path(self, relative: str) -> Path:
        path = Path(relative)
        return path if path.is_absolute() else self.workspace / path


A = TypeVar("A", bound=ToolArgs)
Handler = Callable[[ToolContext, A], Awaitable[dict[str, Any]]]


@dataclass(frozen=True)
class ToolDef(Generic[A]):
    name: str
    args: type[A]
    description: str
    side_effect: SideEffect
    handler: Handler[A]
    # Tools that must not get the generic timeout (a wait with its own timeout, a download).
    timeout_from_args: str | None = None
    # Everything else the layers above need to know about the tool (new document, target argument, banner
    # trigger, dialog-safe…); its side_effect is always this definition's.
    traits: ToolTraits = field(default_factory=ToolTraits)

    def __post_init__(self) -> None:
        if self.traits.side_effect is not self.side_effect:
            object.__setattr__(self, "traits", replace(self.traits, side_effect=self.side_effect))

    @property
    def dialog_safe(self) -> bool:
        """May run while a JavaScript dialog blocks the active tab (browser_dialog, tab switching); every other
        tool fails fast with BROWSER_DIALOG_OPEN instead of hanging on the blocked page."""
        return self.traits.dialog_safe

    @property
    def read_only(self) -> bool:
        return self.side_effect is SideEffect.READ_ONLY

    def input_schema(self) -> dict[str, Any]:
        schema = self.args.model_json_schema()
        schema.pop("title", None)
        return schema



def describe_validation_error(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "(arguments)"
        parts.append(f"{loc}: {err['msg']}")
    return "; ".join(parts)


async def invoke(tool: ToolDef[Any], ctx: ToolContext, raw_args: Mapping[str, Any] | None, *,
                 restarts: bool = False) -> ToolResult:
    """Validate, run with a timeout, and return the contract. Never raises (except cancellation).

    The handler runs inside :func:`~browserops.browser.errors.browser_errors`, the one place where Playwright's
    errors become codes (a browser that died under the call is ``BROWSER_CRASHED`` naming the tool; ``restarts``
    says whether the caller restarts it on the next call)."""
    started = time.monotonic()
    ctx.signals.clear()  # per-call facts: a context reused across calls must not carry the last call's
    try:
        args = tool.args.model_validate(dict(raw_args or {}))
    except ValidationError as exc:
        return error(
            ErrorCode.INVALID_ARGS,
            f"Invalid arguments for {tool.name}: {describe_validation_error(exc)}.",
            {"fields": [".".join(str(p) for p in e["loc"]) for e in exc.errors()]},
        )
    timeout_ms = float(ctx.settings.tool_timeout_ms)
    if tool.timeout_from_args:
        own = getattr(args, tool.timeout_from_args, None)
        if isinstance(own, int | float) and own > 0:
            timeout_ms = max(timeout_ms, float(own) + 2_000)
    try:
        async with browser_errors(ctx.session, f"running {tool.name}", restarts=restarts):
            if not ctx.session.alive:
                raise BrowserOpsError(ErrorCode.CRASHED, "The browser is not running.")
            if tool.dialog_safe:
                data = await asyncio.wait_for(tool.handler(ctx, args), timeout=timeout_ms / 1000)
            else:
                check_no_dialog(ctx.session)
                data = await asyncio.wait_for(run_watching_dialogs(ctx.session, tool.handler(ctx, args)),
                                              timeout=timeout_ms / 1000)
        result = ok(data)
    except BrowserOpsError as exc:
        result = error(exc.code, exc.message, exc.details or None)
    except TimeoutError:
        result = error(
            ErrorCode.TIMEOUT,
            f"{tool.name} did not finish within {int(timeout_ms)} ms. The page may be busy: "
            "try browser_wait, then list the elements again.",
        )
    except Exception as exc:  # the contract: a tool never raises to its caller
        log.exception("tool %s failed unexpectedly", tool.name)
        result = error(ErrorCode.ACTION_FAILED, f"{tool.name} failed: {type(exc).__name__}: {exc}")
    log.debug("tool %s -> %s in %.0f ms", tool.name, result["status"], (time.monotonic() - started) * 1000)
    return result
