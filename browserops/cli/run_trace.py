"""``run --trace``: start a Playwright trace when the browser starts, and put it into the bundle, typed values and
the signed-in session (cookies, authorization headers, stored values) masked, before the attempt is finished (so the
manifest covers it)."""

from __future__ import annotations

import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from browserops.browser.launch.tracing import session_values, start_tracing, stop_tracing
from browserops.evidence import BundleWriter
from browserops.evidence.trace import mask_trace
from browserops.tools.context import ToolContext

Start = Callable[[], Awaitable[None]]
BeforeFinish = Callable[[BundleWriter, list[str]], Awaitable[None]]


def traced(ctx: ToolContext, start: Start, request_id: str) -> tuple[Start, BeforeFinish]:
    """A browser start that also starts tracing, and the hook that saves the masked trace into the bundle."""
    tracing = False

    async def start_traced() -> None:
        nonlocal tracing
        await start()
        await start_tracing(ctx.session, f"browserops run {request_id}")
        tracing = True

    async def keep_trace(writer: BundleWriter, typed: list[str]) -> None:
        if not tracing:
            return  # the browser never started: nothing was traced
        with tempfile.TemporaryDirectory(prefix="browserops-trace-") as folder:
            path = Path(folder) / "trace.zip"
            await stop_tracing(ctx.session, path)
            writer.add_trace(mask_trace(path.read_bytes(), typed, await session_values(ctx.session)))

    return start_traced, keep_trace
