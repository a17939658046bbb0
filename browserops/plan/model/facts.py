"""What prepare and run both say about a plan's steps: how a step is named in a message, and where the plan signs
in itself."""

from __future__ import annotations

from collections.abc import Sequence

from browserops.plan.model.document import PlanAction
from browserops.plan.model.steps import Action, Kind


def step_title(a: PlanAction) -> str:
    """How errors and notes name a step: ``step 4 (fill amount, spinbutton "Amount")``."""
    what = a.kind.value + (f" {a.field}" if a.field else "")
    where = a.target.describe() if a.target is not None else (a.url or "")
    return f"step {a.number} ({what}{', ' + where if where else ''})"


def signs_in_here(actions: Sequence[PlanAction], after: int) -> bool:
    """Whether the plan signs in on the page opened at step ``after`` (0: the start URL): a sensitive fill comes
    before the next navigation. Then a login page is where the plan expects to be, not a wall."""
    for a in actions[after:]:
        if a.action is Action.NAVIGATE and not (after == 0 and a.number == 1):  # step 1 may open the start
            return False
        if a.kind is Kind.FILL and a.sensitive:
            return True
    return False


def _steps(numbers: Sequence[int]) -> str:
    return ("step " if len(numbers) == 1 else "steps ") + ", ".join(str(n) for n in numbers)


def what_ran(done: Sequence[tuple[int, str]]) -> str:
    """What a failed run had done to the site before it stopped, exactly (``done``: number and kind of each step
    that acted), for the end of its error message."""
    fills = [n for n, kind in done if kind == "fill"]
    clicks = [n for n, kind in done if kind == "act"]
    sent = [n for n, kind in done if kind in ("submit", "payment")]
    if not done:
        return "Nothing was changed: no step had typed, clicked or submitted anything yet."
    parts = []
    if fills:
        parts.append(f"{_steps(fills)} typed or chose values in the page")
    if clicks:
        parts.append(f"{_steps(clicks)} clicked")
    said = "; ".join(parts)
    if sent:
        return f"{said + '; ' if said else ''}{_steps(sent)} submitted earlier in this run: what that sent stands."
    return f"{said[0].upper() + said[1:]}, but no submit or payment step ran, so nothing was submitted."
