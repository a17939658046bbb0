"""What one step of a run came to (:class:`StepOutcome`, a line of the run's result) and the error that stops a
run at a step (:class:`StepFailed`, raised once the step's evidence is recorded)."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from browserops.contract import BrowserOpsError
from browserops.evidence import BundleWriter

Outcome = Literal["ok", "unchanged", "skipped", "error"]


@dataclass
class StepOutcome:
    number: int
    kind: str
    label: str
    side_effect: str
    status: Outcome
    note: str | None = None
    code: str | None = None
    ms: float = 0.0
    screenshots: list[str] = field(default_factory=list)
    exports: list[str] = field(default_factory=list)
    sent: list[dict[str, Any]] = field(default_factory=list)  # the step's side-effect ledger (StepEvent.sent)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"number": self.number, "kind": self.kind, "label": self.label,
                               "sideEffect": self.side_effect, "status": self.status, "ms": round(self.ms, 1)}
        for key, value in (("note", self.note), ("code", self.code)):
            if value:
                out[key] = value
        if self.screenshots:
            out["screenshots"] = self.screenshots
        if self.exports:
            out["exports"] = self.exports
        if self.sent:
            out["sent"] = self.sent
        return out


def not_confirmed(outcomes: list[StepOutcome]) -> list[int]:
    """Steps that did not run for want of --confirm (they need it, or follow a click that did not run); an optional
    target that was not on the page is no such step."""
    return [s.number for s in outcomes if s.status == "skipped" and s.code is None
            and s.note != "optional target not on the page"]


def move_export(writer: BundleWriter, name: str, source: Path) -> str:
    rel = writer.add_export(name, source)
    with contextlib.suppress(OSError):
        source.unlink()  # moved into the bundle: the bundle is the record
    return rel


class StepFailed(BrowserOpsError):
    """A step's error, with the evidence already recorded for it."""

    def __init__(self, cause: BrowserOpsError, step: int) -> None:
        super().__init__(cause.code, cause.message, details={**cause.details, "step": step})
        self.step = step
