"""What prepare's rehearsal (``rehearsal.py``) found, and why it went blind: the records the plan is built from —
the pages it saw, each field's value before the plan (the diff and the fingerprint), what it could not read and the
problems it met."""

from __future__ import annotations

from dataclasses import dataclass, field

from browserops.contract import ErrorCode
from browserops.plan.model.document import DiffEntry, PageFingerprint, PlanAction, PrepareProblem
from browserops.plan.model.step_values import wanted_value
from browserops.privacy import mask_pii


@dataclass(frozen=True)
class Blind:
    """Why the walk cannot see the current page as the run will, from which step on."""

    step: int
    reason: str


@dataclass
class WalkRecord:
    """What the walk found, for the plan and prepare's output."""

    pages: list[PageFingerprint] = field(default_factory=list)
    values: dict[str, str | None] = field(default_factory=dict)
    unread_fields: list[str] = field(default_factory=list)
    diff: list[DiffEntry] = field(default_factory=list)
    unread: list[int] = field(default_factory=list)  # fill steps whose current value was not read
    not_read: dict[int, str] = field(default_factory=dict)  # step -> why it was not looked at
    problems: list[PrepareProblem] = field(default_factory=list)
    rehearsed: list[int] = field(default_factory=list)

    def read(self, key: str, a: PlanAction, before: str | None) -> None:
        """Fill step ``a`` on field ``key``, which holds ``before``: its diff line and fingerprint value."""
        if a.sensitive:
            # Only whether it changes: '+' into an empty field, '~' over a filled one. Never a value or digest.
            entry = DiffEntry.compute(key, a.number, before, "(new)", sensitive=True)
        else:
            self.values[key] = before or None
            entry = DiffEntry.compute(key, a.number, before, wanted_value(a))
        if entry is not None:
            self.diff.append(entry)

    def not_read_value(self, key: str, a: PlanAction) -> None:
        """Fill step ``a`` on field ``key``, whose value the walk could not read: unknown, never empty."""
        self.unread.append(a.number)
        if not a.sensitive:
            self.unread_fields.append(key)
        self.diff.append(DiffEntry.not_read(key, a.number, wanted_value(a), sensitive=a.sensitive))

    def problem(self, a: PlanAction, code: ErrorCode, message: str) -> None:
        """Something that would make the run fail at step ``a`` (page text masked and cut)."""
        self.problems.append(PrepareProblem(step=a.number, code=code.value, message=mask_pii(message)[:1000]))
