"""browser_dialog: answer the alert/confirm/prompt/beforeunload dialog that blocks the page."""

from __future__ import annotations

from typing import Any

from browserops.browser.page import dialogs
from browserops.tools.context import ToolContext
from browserops.tools.definitions import pages as defs


async def dialog(ctx: ToolContext, args: defs.DialogArgs) -> dict[str, Any]:
    data = await dialogs.answer_dialog(ctx.session, args.accept, args.text)
    ctx.signals.dialog_answered = True
    return data
