"""Two-phase commit (docs/design.md §5): the plan model (``model/``: plan.json, step files, :func:`build_plan`, the
diff and the confirm phrase) and the engine — one step interpreter (``interpret/``) walked by three phases:
``prepare/`` (read-only: looks, rehearses in-page steps in a fenced copy of the browser, and writes the plan),
``run/`` (executes it after ``--confirm <phrase>``, in the lane, with evidence) and ``record/`` (writes a step file
from what a person does). The engine reaches the browser only through the tool catalogue (``interpret/guard.py``);
where plan steps come from (packs in ``packs/``, a goal explored in ``agent/``) is not decided here.
"""

from browserops.plan.model.build import PlanDraft, build_plan
from browserops.plan.model.diff import render_diff, summary_line
from browserops.plan.model.document import (
    BrowserPlan,
    DiffEntry,
    EvidenceItem,
    Fingerprint,
    PageFingerprint,
    PlanAction,
    PlanSource,
    PrepareProblem,
    Requirement,
    SideEffectsSummary,
    missing_evidence,
    new_request_id,
    stale_fields,
)
from browserops.plan.model.loader import load_plan, load_steps, parse_plan, parse_steps, resolve_plan
from browserops.plan.model.phrase import confirm_phrase, contains_phrase, plan_digest, verify_phrase
from browserops.plan.model.steps import Action, Expectation, Kind, SemanticTarget, Step, StepFile, ValueRef, Within

__all__ = [
    "Action",
    "BrowserPlan",
    "DiffEntry",
    "EvidenceItem",
    "Expectation",
    "Fingerprint",
    "Kind",
    "PageFingerprint",
    "PlanAction",
    "PlanDraft",
    "PlanSource",
    "PrepareProblem",
    "Requirement",
    "SemanticTarget",
    "SideEffectsSummary",
    "Step",
    "StepFile",
    "ValueRef",
    "Within",
    "build_plan",
    "confirm_phrase",
    "contains_phrase",
    "load_plan",
    "load_steps",
    "missing_evidence",
    "new_request_id",
    "parse_plan",
    "parse_steps",
    "plan_digest",
    "render_diff",
    "resolve_plan",
    "stale_fields",
    "summary_line",
    "verify_phrase",
]
