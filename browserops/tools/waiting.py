"""browser_wait: wait for the page to settle or for a condition, never a blind sleep by default."""

from __future__ import annotations

from typing import Any

from browserops.browser.page import waiting
from browserops.tools.context import ToolContext
from browserops.tools.definitions import pages as defs


async def wait(ctx: ToolContext, args: defs.WaitArgs) -> dict[str, Any]:
    return await waiting.wait(
        ctx.session,
        element=args.element,
        state=args.state,
        network_idle=args.network_idle,
        ms=args.ms,
        text=args.text,
        url_contains=args.url_contains,
        timeout_ms=args.timeout_ms,
        quiet_ms=args.quiet_ms or ctx.settings.dom_quiet_ms,
    )
