"""After a step acted: what its element holds now, compared with what the plan wanted, before the next step.

The acting tool reports the element as it is after the act: for typing whether the field holds the typed text and
what it holds, for a tick its state, for an upload how many files the input holds. A difference is a
:class:`Mismatch` (``BROWSER_VALUE_MISMATCH``, with the field, the planned and the found value — a sensitive one
only as its length and digest) that the phase handles: the run stops before anything later is submitted, prepare's
rehearsal reports it as a problem of the step, so it shows before anyone confirms.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.plan.interpret.acting import Act
from browserops.plan.model.document import PlanAction
from browserops.privacy import text_digest


@dataclass(frozen=True)
class Mismatch:
    """The step's element after the act is not what the plan said."""

    step: int
    field: str
    message: str
    details: dict[str, Any] = dataclass_field(default_factory=dict)  # planned, found (a secret: length, digest)

    def error(self, advice: str = "") -> BrowserOpsError:
        return BrowserOpsError(ErrorCode.VALUE_MISMATCH, f"Step {self.step} ({self.field}): {self.message}{advice}",
                               details={"step": self.step, "field": self.field, **self.details})


def _shown(value: str, *, sensitive: bool) -> Any:
    """A value as a mismatch may show it: itself, or for a sensitive one its length and digest only."""
    return {"length": len(value), "digest": text_digest(value)} if sensitive else value


def read_back(a: PlanAction, act: Act, data: dict[str, Any], planned: Any = None) -> Mismatch | None:
    """The mismatch between what step ``a``'s act left (``data``, the acting tool's result) and the plan, or None.
    ``planned``: the value the step entered (the secret itself for a sensitive step; never shown)."""
    name = a.field or a.label()
    if act.types and data.get("matches") is False:
        found = data.get("value")
        details: dict[str, Any] = {}
        if isinstance(planned, str):
            details["planned"] = _shown(planned, sensitive=a.sensitive)
            details["found"] = ({"length": data.get("length")} if a.sensitive or not isinstance(found, str)
                                else found)
        said = "" if a.sensitive or not isinstance(planned, str) or not isinstance(found, str) else \
            f" (planned {planned[:80]!r}, found {found[:80]!r})"
        return Mismatch(a.number, name, f"{act.where} holds something other than the planned value after typing "
                        f"it{said} — an input mask, a picker, a length limit or a field that splits what is typed.",
                        details)
    if act.checked is not None:
        state = (data.get("element") or {}).get("state") or {}
        if "checked" in state and (state["checked"] is True) != act.checked:
            return Mismatch(a.number, name, f"{act.where} did not turn {'on' if act.checked else 'off'} when "
                            "clicked.", {"planned": act.checked, "found": state["checked"] is True})
    files = act.args.get("files") if act.tool == "browser_upload" else None
    if isinstance(files, list) and isinstance(data.get("input_file_count"), int) \
            and data["input_file_count"] != len(files):
        return Mismatch(a.number, name, f"{act.where} holds {data['input_file_count']} file(s) after attaching "
                        f"{len(files)}.", {"planned": len(files), "found": data["input_file_count"]})
    return None
