"""browser_dialog: answer the alert/confirm/prompt/beforeunload dialog that blocks the page."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from browserops.browser.page import dialogs
from browserops.contract import SideEffect, ToolTraits
from browserops.tools.base import ToolArgs, ToolContext, ToolDef


class DialogArgs(ToolArgs):
    accept: bool = Field(description="true presses OK (or Leave for a leave-page dialog); false presses Cancel.")
    text: str | None = Field(
        None, max_length=10_000, description="Answer typed into a prompt dialog before accepting it.",
    )


async def _dialog(ctx: ToolContext, args: DialogArgs) -> dict[str, Any]:
    data = await dialogs.answer_dialog(ctx.session, args.accept, args.text)
    ctx.signals["dialog_answered"] = True
    return data


TOOLS: list[ToolDef[Any]] = [
    ToolDef(
        name="browser_dialog",
        args=DialogArgs,
        description=(
            "Answer the JavaScript dialog (alert, confirm, prompt, or 'leave this page?') that blocks the page. "
            "While one is open every other page tool fails with BROWSER_DIALOG_OPEN and shows its message. "
            "accept=true presses OK; accept=false presses Cancel; text is typed into a prompt."
        ),
        side_effect=SideEffect.BROWSER_ACT,
        handler=_dialog,
        traits=ToolTraits(acts_on_focus=True, dialog_safe=True, activation="by_dialog"),
    ),
]
