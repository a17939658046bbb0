"""What a step's value means for the diff, without a browser: the value a field will hold after the step, several
picks as one set, an upload's files. ``diff.py`` and the plan model read these, so they must not load Playwright."""

from __future__ import annotations

from collections.abc import Sequence

import orjson

from browserops.plan.model.steps import Action, Step
from browserops.text import fold


def multi_text(values: Sequence[str]) -> str:
    """Several options as the diff and the staleness check see them: one JSON list, in a fixed order (a field's
    picks are a set: the order a widget lists them in is not a change), ``""`` when there are none."""
    picked = sorted({" ".join(v.split()) for v in values if v.strip()}, key=lambda v: (fold(v), v))
    return "[" + ", ".join(orjson.dumps(v).decode() for v in picked) + "]" if picked else ""


def wanted_value(step: Step) -> str | None:
    """What the field will hold after the step, as the diff shows it (None: only known at run time)."""
    if step.action is Action.CHECK:
        want = step.value is True
        if step.display is not None:
            return step.display if want else ""
        return "true" if want else "false"
    if step.action is Action.UPLOAD:
        if step.display is not None:
            return step.display
        files = upload_files(step)
        return ", ".join(f.replace("\\", "/").rsplit("/", 1)[-1] for f in files)
    if isinstance(step.value, str):
        return step.value
    if step.action is Action.SELECT and isinstance(step.value, list):
        return multi_text(step.value)
    return None


def upload_files(step: Step) -> list[str]:
    """An upload step's file paths (its value is one path or a list)."""
    if isinstance(step.value, str):
        return [step.value]
    return list(step.value) if isinstance(step.value, list) else []
