"""How a press step calls its tool, what happens to a browser dialog (``confirm()``, ``alert()``,
``prompt()``, "leave this page?") a plan step opens, and what a submit step keeps of the page it led to.

A press on a target goes through ``browser_overlay_act``'s ``press`` word, by number like every act (with the
listing window the number belongs to); without a target, or when the step names ``browser_press``, through
``browser_press`` on the element (or on what has the focus).

Answering a dialog commits or cancels what the page asked about (Flask-Admin's "Are you sure you want to delete
this record?"), so the plan says in advance how it is answered (``dialog: accept`` / ``dismiss`` on the step,
optionally only if the dialog says one of ``text``); the reviewer sees it in the diff and confirms it with the
plan. A dialog the step did not announce, or one that says something else, is cancelled — Cancel is the answer
that lets nothing happen — and the run stops, telling the step file's author what to write.
"""

from __future__ import annotations

from typing import Any

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence import BundleWriter
from browserops.plan.guard import GuardedTools
from browserops.plan.model import PlanAction
from browserops.plan.pages import PageSeen, snapshot_into
from browserops.plan.reference import find_reference
from browserops.plan.resolve import Resolved
from browserops.privacy import SECRET, mask_pii
from browserops.text import fold


def press_call(a: PlanAction, el: Resolved | None) -> tuple[str, dict[str, Any], str]:
    """The tool, its arguments and how the element reads in notes, for press step ``a`` on ``el``."""
    assert a.key is not None
    if el is None:
        return "browser_press", {"key": a.key}, "the focused element"
    where = f'{el.role} "{el.name}" (#{el.number})'
    if a.tool == "browser_press":
        return "browser_press", {"key": a.key, "id": el.number}, where
    return "browser_overlay_act", {"index": el.number, "action": "press", "text": a.key, **el.act_args()}, where


def word_call(a: PlanAction, el: Resolved, value: Any) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """``browser_overlay_act``'s arguments for step ``a`` whose action is an acting tool's word the plan has no verb
    of its own for (steps.action_spec), and the same masked for the log when the value is sensitive."""
    text = {"text": value} if isinstance(value, str) else {}
    args = {"index": el.number, "action": str(a.action), **text, **el.act_args()}
    return args, ({**args, "text": dict(SECRET)} if a.sensitive and text else None)  # no length, no digest


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


async def confirmation_page(tools: GuardedTools, writer: BundleWriter, a: PlanAction,
                            seen: PageSeen) -> tuple[dict[str, Any], str | None]:
    """What the page a submit step led to shows: (the run's ``confirmation``: its URL, title, status messages and
    the ARIA snapshot kept in the bundle; the reference it names, if any)."""
    summary = await tools.need("browser_extract", {"mode": "summary"})
    seen.update(summary)
    rel, _ = await snapshot_into(tools, writer, a.number, f"after-{a.label()}")
    messages = [mask_pii(str(m))[:200] for m in summary.get("messages") or []]
    reference = find_reference(messages + [str(h[1]) for h in summary.get("headings") or [] if len(h) > 1])
    out: dict[str, Any] = {"step": a.number, "url": mask_pii(seen.url), "title": seen.title, "messages": messages,
                           "snapshot": rel}
    if reference:
        out["reference"] = reference
    return out, reference
