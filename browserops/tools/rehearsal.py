"""The tool context of prepare's rehearsal: the same catalogue over a fenced, throwaway copy of the session's browser
(:mod:`browserops.browser.launch.rehearsal`), for the plan engine, which reaches the browser only through tools."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from browserops.browser.launch.rehearsal import Refusal, RehearsalSession, RequestFence
from browserops.tools.context import ToolContext

__all__ = ["Refusal", "RequestFence", "rehearsal_context"]


@asynccontextmanager
async def rehearsal_context(ctx: ToolContext) -> AsyncIterator[tuple[ToolContext, RequestFence]]:
    """A tool context over a copy of ``ctx``'s browser (its cookies and storage), and the copy's fence; the copy is
    closed and forgotten on the way out."""
    async with RehearsalSession(ctx.session) as copy:
        yield ToolContext(session=copy, settings=ctx.settings, workspace=ctx.workspace), copy.fence
