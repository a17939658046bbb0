"""Assembling a plan in code: :class:`PlanDraft` says what goes in, :func:`build_plan` derives the rest (numbers,
side effects, the evidence owed) and validates the result exactly as a loaded ``plan.json`` is validated."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from browserops.plan.model.document import (
    FORMAT_VERSION,
    BrowserPlan,
    DiffEntry,
    EvidenceItem,
    Fingerprint,
    PlanSource,
    PrepareProblem,
    Requirement,
    SideEffectsSummary,
    new_request_id,
    number_steps,
    required_evidence,
)
from browserops.plan.model.steps import PlanModel, Step


@dataclass(frozen=True, kw_only=True)
class PlanDraft:
    """What a plan is built from: a pack's or a step file's steps, and what prepare found (diff, fingerprint)."""

    title: str
    start_url: str
    steps: Sequence[Step]
    workspace: str | Path
    source: PlanSource
    requirements: Sequence[Requirement] = ()
    diff: Sequence[DiffEntry] | None = None
    fingerprint: Fingerprint | None = None
    problems: Sequence[PrepareProblem] = ()
    extra_evidence: Sequence[EvidenceItem] = ()
    request_id: str | None = None  # None: a new one from ``created``
    created: dt.datetime | None = None  # None: now


def build_plan(draft: PlanDraft) -> BrowserPlan:
    """Assemble and validate a plan; side effects and required evidence are derived from the steps."""
    created = draft.created or dt.datetime.now(dt.UTC)
    actions = number_steps(draft.steps)
    evidence = required_evidence(actions)
    evidence += [item for item in draft.extra_evidence if item not in evidence]
    if draft.fingerprint is not None:
        for page in draft.fingerprint.pages:
            item = EvidenceItem(kind="snapshot", path=page.snapshot)
            if page.snapshot and item not in evidence:
                evidence.append(item)
    data: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "requestId": draft.request_id or new_request_id(created),
        "workspace": str(draft.workspace),
        "created": created,
        "title": draft.title,
        "startUrl": draft.start_url,
        "source": draft.source,
        "actions": actions,
        "sideEffects": SideEffectsSummary.of(actions),
        "requirements": list(draft.requirements),
        "evidencePlan": evidence,
        "diff": None if draft.diff is None else list(draft.diff),
        "fingerprint": draft.fingerprint,
        "problems": list(draft.problems),
    }
    # Validate from plain data, so a plan built in code passes exactly the checks a loaded plan.json does.
    dumped = orjson.loads(orjson.dumps(data, default=_dump_default))
    return BrowserPlan.model_validate(dumped)


def _dump_default(obj: Any) -> Any:
    if isinstance(obj, PlanModel):
        return obj.model_dump(mode="json", by_alias=True)
    raise TypeError(type(obj).__name__)
