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
class _Field:
    """A field the plan's fill steps set, as the walk first read it."""

    first: PlanAction  # the step that read its baseline: the diff line names it
    before: str | None
    steps: list[PlanAction] = field(default_factory=list)


@dataclass
class WalkRecord:
    """What the walk found, for the plan and prepare's output."""

    pages: list[PageFingerprint] = field(default_factory=list)
    values: dict[str, str | None] = field(default_factory=dict)
    unread_fields: list[str] = field(default_factory=list)
    unread: list[int] = field(default_factory=list)  # fill steps whose current value was not read
    not_read: dict[int, str] = field(default_factory=dict)  # step -> why it was not looked at
    problems: list[PrepareProblem] = field(default_factory=list)
    rehearsed: list[int] = field(default_factory=list)
    _lines: dict[str, DiffEntry | None] = field(default_factory=dict)  # field -> its diff line, in the plan's order
    _fields: dict[str, _Field] = field(default_factory=dict)

    @property
    def diff(self) -> list[DiffEntry]:
        return [line for line in self._lines.values() if line is not None]

    def read(self, key: str, a: PlanAction, before: str | None, *, lang: str | None = None) -> None:
        """Fill step ``a`` on field ``key``, which holds ``before`` now: the field's diff line and fingerprint
        value. A later step on the same field (``sameFieldAs``) keeps the first reading — the value before any step
        of the plan touched it, which is what the run checks — and the line shows what all of them leave. ``lang``:
        the page's language; a field already holding the planned value however it writes it gets no line."""
        known = self._fields.get(key)
        if known is None:
            known = self._fields[key] = _Field(a, before)
            if not a.sensitive:
                self.values[key] = before or None
        known.steps.append(a)
        first = known.first
        if first.sensitive:
            # Only whether it changes: '+' into an empty field, '~' over a filled one. Never a value or digest.
            self._lines[key] = DiffEntry.compute(key, first.number, known.before, "(new)", sensitive=True)
        else:
            self._lines[key] = DiffEntry.compute(key, first.number, known.before, _after(known), lang=lang)

    def not_read_value(self, key: str, a: PlanAction) -> None:
        """Fill step ``a`` on field ``key``, whose value the walk could not read: unknown, never empty."""
        self.unread.append(a.number)
        if key in self._lines:
            return  # an earlier step on the same field already made its line
        if not a.sensitive:
            self.unread_fields.append(key)
        self._lines[key] = DiffEntry.not_read(key, a.number, wanted_value(a), sensitive=a.sensitive)

    def problem(self, a: PlanAction, code: ErrorCode, message: str) -> None:
        """Something that would make the run fail at step ``a`` (page text masked and cut)."""
        self.problems.append(PrepareProblem(step=a.number, code=code.value, message=mask_pii(message)[:1000]))


def _after(known: _Field) -> str | None:
    """What a field holds after all the plan's steps on it: what the last of them sets (a native multiple select
    holds exactly the last step's choices; the diff never claims a union a page may not make)."""
    return wanted_value(known.steps[-1])
