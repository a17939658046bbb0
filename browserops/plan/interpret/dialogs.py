"""How a browser dialog (``confirm()``, ``alert()``, ``prompt()``, "leave this page?") a plan step opens is answered.

Answering a dialog commits or cancels what the page asked about (Flask-Admin's "Are you sure you want to delete
this record?"), so the plan says in advance how it is answered (``dialog: accept`` / ``dismiss`` on the step,
optionally only if the dialog says one of ``text``); the reviewer sees it in the diff and confirms it with the
plan. A dialog the step did not announce, or one that says something else, is cancelled — Cancel is the answer
that lets nothing happen — and the run stops, telling the step file's author what to write.
"""

from __future__ import annotations

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.plan.interpret.guard import GuardedTools
from browserops.plan.model.document import PlanAction
from browserops.text import fold


def _said(info: dict[str, object]) -> tuple[str, str]:
    kind = str(info.get("type") or "dialog")
    what = "a leave-page confirmation" if kind == "beforeunload" else f"a {kind} dialog"
    return what, str(info.get("message") or "")


async def _cancel(tools: GuardedTools) -> str:
    result = await tools.call("browser_dialog", {"accept": False})
    return "it was cancelled, so nothing it asked about happened" if not result.failed else \
        f"cancelling it failed too ({result.error})"


async def answer_planned_dialog(tools: GuardedTools, a: PlanAction, opened: BrowserOpsError) -> str:
    """Answer the dialog step ``a``'s action opened (``opened`` is its BROWSER_DIALOG_OPEN) as the step says, and
    return the note for the step's outcome; raise when the plan did not announce it or it says something else."""
    info = opened.details.get("dialog")
    what, message = _said(info if isinstance(info, dict) else {})
    answer = a.dialog
    if answer is None:
        cancelled = await _cancel(tools)
        excerpt = " ".join(message.split()[:6]).replace('"', "'")
        raise BrowserOpsError(
            ErrorCode.DIALOG_OPEN,
            f"Step {a.number} opened {what} the plan does not answer: {message[:200]!r}; {cancelled}. If the step "
            f"should answer it, add to step {a.number} of the step file `dialog: accept` (OK) or `dialog: dismiss` "
            f'(Cancel) — to check what it says too: `dialog: {{answer: accept, text: ["{excerpt}"]}}` — and '
            "prepare again.",
            details={"dialog": info, "step": a.number},
        )
    if answer.text and not any(fold(t) in fold(message) for t in answer.text):
        cancelled = await _cancel(tools)
        raise BrowserOpsError(
            ErrorCode.SITE_CHANGED,
            f"Step {a.number} opened {what} saying {message[:200]!r}, not one of "
            f"{', '.join(repr(t) for t in answer.text[:4])} as the plan expects; {cancelled}. The site changed: "
            "update the step's dialog text and prepare again.",
            details={"dialog": info, "step": a.number},
        )
    result = await tools.call("browser_dialog", {"accept": answer.answer == "accept"})
    if result.failed:
        raise result.raised()
    return f"; answered {what} with {'OK' if answer.answer == 'accept' else 'Cancel'}"
