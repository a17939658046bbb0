"""One line of a plan's diff: a form field the plan sets (``+``), changes (``~``) or clears (``-``).

Kept apart from the plan document (``model.py``) because the diff's rules — which op the values imply, what a
sensitive or unread field may record — are checked on their own wherever an entry is built.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from browserops.plan.model.steps import PlanModel
from browserops.values import same_value

DiffOp = Literal["+", "~", "-"]


class DiffEntry(PlanModel):
    """One field the plan changes: ``+`` set where empty, ``~`` change, ``-`` clear."""

    field: str = Field(min_length=1, max_length=64)
    op: DiffOp
    before: str | None = Field(None, max_length=10_000)
    after: str | None = Field(None, max_length=10_000)
    step: int = Field(ge=1, description="The fill step that makes this change.")
    sensitive: bool = Field(False, description="Values are not recorded; only that the field changes.")
    unread: bool = Field(False, description="prepare could not read the field's current value: 'before' is unknown "
                         "(not empty), and run does not check it for staleness.")

    @model_validator(mode="after")
    def _op_matches(self) -> DiffEntry:
        if self.unread and self.before is not None:
            raise ValueError(f"diff of {self.field!r} was not read, so it has no before value")
        if self.sensitive:
            if self.before is not None or self.after is not None:
                raise ValueError(f"diff of sensitive field {self.field!r} must not record values")
            return self
        expected = diff_op(self.before, self.after)
        if expected is None:
            raise ValueError(f"diff of {self.field!r} changes nothing (before equals after)")
        if expected != self.op:
            raise ValueError(f"diff of {self.field!r} has op {self.op!r} but its values say {expected!r}")
        return self

    @classmethod
    def compute(
        cls, field: str, step: int, before: str | None, after: str | None, *, sensitive: bool = False,
        lang: str | None = None,
    ) -> DiffEntry | None:
        """The entry for a field, or None when the page already holds the wanted value — by meaning, in the page's
        language ``lang`` (a field showing "13,250" already holds a planned 13250)."""
        op = diff_op(before, after, lang)
        if op is None:
            return None
        if sensitive:
            return cls(field=field, op=op, step=step, sensitive=True)
        return cls(field=field, op=op, before=before or None, after=after or None, step=step)

    @classmethod
    def not_read(cls, field: str, step: int, after: str | None, *, sensitive: bool = False) -> DiffEntry:
        """The entry for a field whose current value prepare could not read: shown as set, marked unread."""
        if sensitive:
            return cls(field=field, op="+", step=step, sensitive=True, unread=True)
        return cls(field=field, op="+" if after else "-", after=after or None, step=step, unread=True)


def diff_op(before: str | None, after: str | None, lang: str | None = None) -> DiffOp | None:
    """``+``, ``~`` or ``-`` from ``before`` to ``after``; None when they mean the same value in the page's language
    ``lang`` (:func:`browserops.values.same_value`: the same text, number or date however it is written)."""
    before, after = before or "", after or ""
    if before == after or (before and after and same_value(before, after, lang)):
        return None
    if not before:
        return "+"
    return "-" if not after else "~"
