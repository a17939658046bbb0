"""What prepare's walk (``rehearse.py``) found, and why it went blind: plain records the plan is built from."""

from __future__ import annotations

from dataclasses import dataclass, field

from browserops.plan.model.document import DiffEntry, PageFingerprint, PrepareProblem


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
