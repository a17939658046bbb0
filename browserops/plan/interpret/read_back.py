"""After a step acted: what its element holds now, compared with what the plan wanted, before the next step.

The acting tool reports the element as it is after the act (its state, and for typing whether the field holds the
typed text); a difference is a mismatch the phase handles — the run stops before anything is submitted, prepare's
rehearsal reports it as a problem of the step, so it shows before anyone confirms.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from browserops.plan.interpret.acting import Act
from browserops.plan.model.document import PlanAction


@dataclass(frozen=True)
class Mismatch:
    """The step's element after the act is not what the plan said."""

    step: int
    message: str


def read_back(a: PlanAction, act: Act, data: dict[str, Any]) -> Mismatch | None:
    """The mismatch between what step ``a``'s act left (``data``, the acting tool's result) and the plan, or None."""
    if act.types and data.get("matches") is False:
        return Mismatch(a.number, f"{act.where} holds something other than the planned value after typing it (an "
                        "input mask, a picker or a length limit?).")
    if act.checked is not None:
        state = (data.get("element") or {}).get("state") or {}
        if "checked" in state and (state["checked"] is True) != act.checked:
            return Mismatch(a.number, f"{act.where} did not turn {'on' if act.checked else 'off'} when clicked.")
    return None
