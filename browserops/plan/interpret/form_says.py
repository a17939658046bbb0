"""What a form says is wrong, as lines: before a submit in prepare's rehearsal (its problems), and while either
phase waits for a submit's expected text (fields the page newly marks invalid say that text will not come)."""

from __future__ import annotations

from browserops.contract import BrowserOpsError
from browserops.plan.interpret.guard import GuardedTools
from browserops.plan.interpret.resolve import Resolved

_HOW = {"constraint": "the browser says", "aria-invalid": "the page marks it invalid", "error-text": "the page says"}


async def form_problems(tools: GuardedTools, submit: Resolved | None) -> list[str]:
    """One line per problem of the form ``submit`` belongs to (field, what says so, the message) — with None, of
    every field the page marks aria-invalid; none when the check cannot run (a page without the element any more:
    the run finds out)."""
    try:
        data = await tools.need("browser_form_check", {} if submit is None else {"id": submit.blind_id})
    except BrowserOpsError:
        return []
    lines = []
    for found in data.get("problems") or []:
        field = str(found.get("field") or "").rstrip(": ")  # a label's own colon ("Date:") is not doubled
        how = _HOW.get(str(found.get("how")), "the page says")
        lines.append(f"{field + ': ' if field else ''}{how}: {found.get('message')!r}")
    return lines


class FormVerdict:
    """A submit's form, watched while its expected text is awaited: the fields the page marked invalid before the
    click, then :meth:`refused` — the lines of fields marked invalid since, which say the submit was refused (a
    client-side check, or the server's form re-rendered with its errors) and the text will not come."""

    def __init__(self, tools: GuardedTools) -> None:
        self.tools = tools
        self.before: set[str] = set()
        self.lines: list[str] = []

    async def start(self) -> FormVerdict:
        self.before = set(await form_problems(self.tools, None))
        return self

    async def refused(self) -> bool:
        self.lines = [line for line in await form_problems(self.tools, None) if line not in self.before]
        return bool(self.lines)
