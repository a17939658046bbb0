"""What a field holds, read from a listing's item: the one reading every phase shares — record compares it with the
value the page started with, prepare shows it as the diff's ``before``, the run checks it against the fingerprint and
reads an act's effect back with it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from browserops.plan.interpret.resolve import Resolved
from browserops.plan.model.step_values import multi_text
from browserops.plan.model.steps import Action, Step

CHECK_ROLES = frozenset({"checkbox", "switch", "radio"})


@dataclass(frozen=True)
class FieldReading:
    """A field's state as the listing gives it (``state`` of an item; the value may be cut when long)."""

    checked: bool
    files: int
    filled: bool  # a secret field says only this
    values: list[str] | None  # the picks of a field that takes several (multiple select, chooser, tag input)
    text: str

    @classmethod
    def of(cls, state: Any) -> FieldReading:
        state = state if isinstance(state, dict) else {}
        raw = state.get("values")
        return cls(checked=state.get("checked") is True, files=int(state.get("files") or 0),
                   filled=bool(state.get("filled") or state.get("value")),
                   values=[str(v) for v in raw] if isinstance(raw, list) else None,
                   text=str(state.get("value")) if state.get("value") is not None else "")

    def picks(self) -> list[str]:
        """The options a field that takes several holds now: its ``values``, else its text split at commas."""
        if self.values is not None:
            return [v for v in self.values if v.strip()]
        return [part.strip() for part in self.text.split(",") if part.strip()]


def current_value(step: Step, element: Resolved) -> str | None:
    """What the field holds now, as the diff shows it (for a secret field only whether it is filled)."""
    now = FieldReading.of(element.state)
    if step.sensitive:
        return "(filled)" if now.filled else ""
    if step.action is Action.CHECK:
        if step.display is not None:
            return step.display if now.checked else ""
        return "true" if now.checked else "false"
    if step.action is Action.UPLOAD:
        return f"{now.files} file{'s' if now.files != 1 else ''} attached" if now.files else ""
    if step.action is Action.SELECT and isinstance(step.value, list):
        return multi_text(now.picks())
    return now.text


def listed_value(item: dict[str, Any]) -> Any:
    """What a listed field holds, typed as ``record`` compares it: a tick's state, a file input's file count, a
    password's "filled", a field that takes several its picks as a list (as its change event gives them: the joined
    text would turn a recorded list back into one string), else its text."""
    now = FieldReading.of(item.get("state"))
    if item.get("role") in CHECK_ROLES:
        return now.checked
    if item.get("type") == "file":
        return now.files
    if item.get("type") == "password":
        return bool((item.get("state") or {}).get("filled"))
    if now.values is not None:
        return now.values
    return now.text
