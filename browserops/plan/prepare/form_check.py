"""Before a submit, in prepare's rehearsal: what the form itself says is wrong, as lines for prepare's problems."""

from __future__ import annotations

from browserops.contract import BrowserOpsError
from browserops.plan.interpret.guard import GuardedTools
from browserops.plan.interpret.resolve import Resolved

_HOW = {"constraint": "the browser says", "aria-invalid": "the page marks it invalid", "error-text": "the page says"}


async def form_problems(tools: GuardedTools, submit: Resolved) -> list[str]:
    """One line per problem of the form ``submit`` belongs to (field, what says so, the message); none when the
    check cannot run (a page without the element any more: the run finds out)."""
    try:
        data = await tools.need("browser_form_check", {"id": submit.blind_id})
    except BrowserOpsError:
        return []
    lines = []
    for found in data.get("problems") or []:
        field = str(found.get("field") or "")
        how = _HOW.get(str(found.get("how")), "the page says")
        lines.append(f"{field + ': ' if field else ''}{how}: {found.get('message')!r}")
    return lines
