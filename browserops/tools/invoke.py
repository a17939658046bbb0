"""Running one bound tool: validate the arguments, apply the timeout, and turn any failure into the result
contract — it never raises. The :class:`~browserops.tools.runner.ToolRunner` calls it; nothing else should."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping
from contextlib import nullcontext
from typing import Any

from pydantic import ValidationError

from browserops.browser.errors import browser_errors
from browserops.browser.page.dialogs import DIALOG_GRACE_S, check_no_dialog, run_watching_dialogs
from browserops.contract import BrowserOpsError, ErrorCode, ToolResult, error, ok
from browserops.tools.context import Signals, Tool, ToolContext
from browserops.tools.definitions import describe_validation_error

log = logging.getLogger(__name__)

NAVIGATION_MARGIN_MS = 5_000  # after the navigation itself: the title, the isolated worlds, the first settle


async def invoke(tool: Tool[Any], ctx: ToolContext, raw_args: Mapping[str, Any] | None, *,
                 restarts: bool = False, dialog_announced: bool = False) -> ToolResult:
    """Validate, run with a timeout, and return the contract. Never raises (except cancellation).
    ``dialog_announced``: the caller says how a dialog the call opens is answered, so one is reported as it opens
    (without DIALOG_GRACE_S for the call to finish on its own).

    The handler runs inside :func:`~browserops.browser.errors.browser_errors`, the one place where Playwright's
    errors become codes (a browser that died under the call is ``BROWSER_CRASHED`` naming the tool; ``restarts``
    says whether the caller restarts it on the next call)."""
    started = time.monotonic()
    definition = tool.definition
    ctx.signals = Signals()  # per-call facts: a context reused across calls must not carry the last call's
    try:
        args = definition.args.model_validate(dict(raw_args or {}))
    except ValidationError as exc:
        return error(
            ErrorCode.INVALID_ARGS,
            f"Invalid arguments for {definition.name}: {describe_validation_error(exc)}.",
            {"fields": [".".join(str(p) for p in e["loc"]) for e in exc.errors()]},
        )
    timeout_ms = float(ctx.settings.tool_timeout_ms)
    if definition.traits.new_document:
        # A call that loads a document waits for it up to navigation_timeout_ms; the call's own cap must not cut
        # that short (a big page can take longer than tool_timeout_ms to reach DOMContentLoaded).
        timeout_ms = max(timeout_ms, float(ctx.settings.navigation_timeout_ms) + NAVIGATION_MARGIN_MS)
    if definition.timeout_from_args:
        own = getattr(args, definition.timeout_from_args, None)
        if isinstance(own, int | float) and own > 0:
            timeout_ms = max(timeout_ms, float(own) + 2_000)
    try:
        async with browser_errors(ctx.session, f"running {definition.name}", restarts=restarts):
            if not ctx.session.alive:
                raise BrowserOpsError(ErrorCode.CRASHED, "The browser is not running.")
            if not definition.dialog_safe:
                check_no_dialog(ctx.session)
            work = tool.handler(ctx, args) if definition.dialog_safe else run_watching_dialogs(
                ctx.session, tool.handler(ctx, args), grace_s=0.0 if dialog_announced else DIALOG_GRACE_S)
            # What a call that may change the page resets is the session state's to say (page_may_change).
            with nullcontext() if definition.traits.pure_read else ctx.session.state.page_may_change(started):
                # Bounded by the call's timeout, and ended at once when the browser dies under it (some Playwright
                # calls are never answered then).
                data = await asyncio.wait_for(ctx.session.until_lost(work, f"running {definition.name}"),
                                              timeout=timeout_ms / 1000)
        result = ok(data)
    except BrowserOpsError as exc:
        result = error(exc.code, exc.message, exc.details or None)
    except TimeoutError:
        result = error(
            ErrorCode.TIMEOUT,
            f"{definition.name} did not finish within {int(timeout_ms)} ms. The page may be busy: "
            "try browser_wait, then list the elements again.",
        )
    except Exception as exc:  # the contract: a tool never raises to its caller
        log.exception("tool %s failed unexpectedly", definition.name)
        result = error(ErrorCode.ACTION_FAILED, f"{definition.name} failed: {type(exc).__name__}: {exc}")
    log.debug("tool %s -> %s in %.0f ms", definition.name, result.status, (time.monotonic() - started) * 1000)
    return result
