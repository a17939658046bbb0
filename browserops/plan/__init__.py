"""Two-phase commit: BrowserPlan (plan.json), step files, the diff and the confirm phrase.

``prepare`` (read-only) builds a :class:`BrowserPlan`; ``run`` executes it after ``--confirm <phrase>``.
"""

from browserops.plan.build import PlanDraft, build_plan
from browserops.plan.diff import render_diff, summary_line
from browserops.plan.loader import load_plan, load_steps, parse_plan, parse_steps, resolve_plan
from browserops.plan.model import (
    BrowserPlan,
    DiffEntry,
    EvidenceItem,
    Fingerprint,
    PageFingerprint,
    PlanAction,
    PlanSource,
    Requirement,
    SideEffectsSummary,
    missing_evidence,
    new_request_id,
    stale_fields,
)
from browserops.plan.phrase import confirm_phrase, plan_digest, verify_phrase
from browserops.plan.steps import Action, Expectation, Kind, SemanticTarget, Step, StepFile, ValueRef

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
    "Requirement",
    "SemanticTarget",
    "SideEffectsSummary",
    "Step",
    "StepFile",
    "ValueRef",
    "build_plan",
    "confirm_phrase",
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
