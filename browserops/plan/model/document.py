"""BrowserPlan: what ``prepare`` found and ``run`` will do, as one validated, hashable document (plan.json).

A plan is numbered steps (:class:`PlanAction`), the side effects they add up to, what the run needs from the
user (requirements), which evidence must exist afterwards, and the diff of the form fields it will change,
together with a fingerprint of the page state that diff was computed against. Everything that decides whether
a step may run without ``--confirm`` is re-derived and checked on load, so a hand-edited plan cannot claim a
submit is read-only or drop the before/after screenshots it owes.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import orjson
from pydantic import Field, SerializerFunctionWrapHandler, field_validator, model_serializer, model_validator

from browserops.contract import BrowserOpsError, SideEffect
from browserops.evidence.layout import (
    REQUEST_ID_PATTERN,
    check_request_id,
    export_relpath,
    new_request_id,
    screenshot_relpath,
)
from browserops.plan.model.diff_entry import DiffEntry
from browserops.plan.model.steps import (
    CONFIRM_FREE,
    SIDE_EFFECT_RANK,
    Action,
    Kind,
    PlanModel,
    Step,
    StepActionName,
)
from browserops.plan.model.verbs import action_schema
from browserops.values import same_value

FORMAT_VERSION = 1

__all__ = [
    "FORMAT_VERSION",
    "BrowserPlan",
    "DiffEntry",
    "EvidenceItem",
    "Fingerprint",
    "PageFingerprint",
    "PlanAction",
    "PlanCounts",
    "PlanSource",
    "PrepareProblem",
    "Requirement",
    "SideEffectsSummary",
    "fill_keys",
    "input_texts",
    "missing_evidence",
    "new_request_id",
    "number_steps",
    "required_evidence",
    "stale_fields",
]


class PlanAction(Step):
    """A numbered step of a plan, with what prepare learned about its target."""

    number: int = Field(ge=1, description="1-based position in the plan.")
    kind: Kind  # concrete in a plan (derived in a step file)
    action: StepActionName = Field(json_schema_extra=action_schema)  # a plan verb, or an acting tool's word
    side_effect: SideEffect
    tool: str
    prepared_number: int | None = Field(
        None, ge=0, description="The element number the target had at prepare time (informational: run re-lists)."
    )
    matched_name: str | None = Field(None, max_length=200, description="Which candidate name matched at prepare.")
    revealed_by: int | None = Field(
        None, ge=1, description="The earlier step of the same page whose rehearsal made this target appear: run "
        "looks for it when it gets there, not before the page's first step.")
    matched_within: str | None = Field(
        None, max_length=200, description="The name of the container (target.within) prepare found the target in: "
        "run acts only in a container of exactly this name (a removed row is not replaced by a look-alike).",
    )
    same_field_as: int | None = Field(
        None, ge=1, description="The earlier fill step prepare found acting on the same element: one field of the "
        "diff, whose staleness baseline is its value before either step touched it.")

    @model_serializer(mode="wrap")
    def _number_first(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        data: dict[str, Any] = handler(self)
        return {"number": data.pop("number"), **data}  # plan.json reads better with the step number first

    def label(self) -> str:
        """Short name used in file names and progress lines: the field, else the kind."""
        return self.field or self.kind.value


class Requirement(PlanModel):
    """Something the run needs from the user before it can succeed."""

    kind: Literal["logged-in", "captcha", "manual-step", "two-factor"]
    detail: str = Field(min_length=1, max_length=500, description="What to do, for the person reading the plan.")
    step: int | None = Field(None, ge=1, description="The step that needs it, if one.")


class EvidenceItem(PlanModel):
    """A file the bundle must contain after a successful run."""

    kind: Literal["screenshot", "export", "snapshot"]
    path: str | None = Field(
        None, pattern=r"^(screenshots|exports|snapshots)/[A-Za-z0-9][A-Za-z0-9._ -]*$",
        description="Path inside the bundle; null for an export whose file name the site decides.",
    )
    step: int | None = Field(None, ge=1)
    phase: Literal["before", "after"] | None = None
    required: bool = True


class PageFingerprint(PlanModel):
    """A page as prepare saw it: the diff's ``before`` values were read from this state."""

    url: str = Field(max_length=4000)
    title: str = Field("", max_length=1000)
    snapshot: str | None = Field(None, pattern=r"^snapshots/[A-Za-z0-9][A-Za-z0-9._-]*$")
    sha256: str | None = Field(None, pattern=r"^[0-9a-f]{64}$", description="SHA-256 of the ARIA snapshot text.")


class Fingerprint(PlanModel):
    """What the diff was computed against: the pages seen and the value of every (non-sensitive) field read.

    ``run`` reads the same fields again before its first side-effect step; any difference means the plan is
    stale (:func:`stale_fields`). Sensitive fields are never recorded, not even as a digest (a short secret's
    digest can be guessed)."""

    pages: list[PageFingerprint] = Field(default_factory=list, max_length=100)
    values: dict[str, str | None] = Field(
        default_factory=dict, description="field -> value on the page at prepare time (null: empty or absent)."
    )
    unread: list[str] = Field(
        default_factory=list, max_length=500,
        description="Fields whose value prepare could not read (behind a step it does not rehearse, or a request "
        "its rehearsal refused): unknown, never compared as empty.",
    )


class PrepareProblem(PlanModel):
    """Something prepare's rehearsal found that would make the run fail or the site refuse the change."""

    step: int = Field(ge=1, description="The step it concerns.")
    code: str = Field(pattern=r"^BROWSER_[A-Z_]+$", description="A BROWSER_* code (cli_contract.md).")
    message: str = Field(min_length=1, max_length=1000, description="What was found and what to do (page text "
                         "masked and cut).")


def _norm(value: str | None) -> str:
    return value or ""


def stale_fields(plan: BrowserPlan, current: Mapping[str, str | None], lang: str | None = None) -> list[str]:
    """Fields whose value on the page now differs from what prepare saw (a field missing from ``current``
    counts as changed: it could not be read). Empty and None are the same, and so are two spellings of one value
    in the page's language ``lang`` (:func:`browserops.values.same_value`: a field its script reformats, "13250"
    then "13,250", still holds what prepare saw). A field prepare did not read is not in the fingerprint's values,
    so it is never compared."""
    if plan.fingerprint is None:
        return []
    return [field for field, before in plan.fingerprint.values.items()
            if field not in current or not _same(current[field], before, lang)]


def _same(now: str | None, before: str | None, lang: str | None) -> bool:
    return _norm(now) == _norm(before) or (bool(now) and bool(before)
                                           and same_value(_norm(now), _norm(before), lang))


def missing_evidence(plan: BrowserPlan, files: Iterable[str]) -> list[EvidenceItem]:
    """Required evidence items with a fixed path that are not among ``files`` (bundle-relative paths)."""
    present = set(files)
    return [item for item in plan.evidence_plan if item.required and item.path and item.path not in present]


class SideEffectsSummary(PlanModel):
    """What the plan does to the world, derived from its actions (checked on load)."""

    highest: SideEffect
    counts: dict[SideEffect, int]
    requires_confirm: bool
    confirm_steps: list[int] = Field(description="Steps that run only with --confirm.")
    free_steps: list[int] = Field(description="Read-only/export steps that run without --confirm.")

    @classmethod
    def of(cls, actions: Sequence[PlanAction]) -> SideEffectsSummary:
        counts = {effect: 0 for effect in SideEffect}
        for action in actions:
            counts[action.side_effect] += 1
        present = [a.side_effect for a in actions] or [SideEffect.READ_ONLY]
        return cls(
            highest=max(present, key=SIDE_EFFECT_RANK.__getitem__),
            counts=counts,
            requires_confirm=any(a.side_effect not in CONFIRM_FREE for a in actions),
            confirm_steps=[a.number for a in actions if a.side_effect not in CONFIRM_FREE],
            free_steps=[a.number for a in actions if a.side_effect in CONFIRM_FREE],
        )


class PlanSource(PlanModel):
    """Where the steps came from."""

    kind: Literal["pack", "steps", "agent"]
    name: str | None = Field(None, max_length=200, description="Pack name, or the step file's title.")
    path: str | None = Field(None, max_length=4000, description="Step file or input file path.")
    input_digest: str | None = Field(
        None, pattern=r"^(?:hmac-sha256:)?[0-9a-f]{64}$",
        description="Keyed digest (HMAC-SHA256, the workspace's secret) of the input file; plans prepared before "
        "keyed digests hold its plain SHA-256.")


@dataclass(frozen=True)
class PlanCounts:
    fills: int
    submits: int
    exports: int
    payments: int
    acts: int
    reads: int


class BrowserPlan(PlanModel):
    format_version: Literal[1] = Field(1, alias="format_version")
    request_id: str = Field(pattern=REQUEST_ID_PATTERN.pattern)
    workspace: str = Field(min_length=1, max_length=4000)
    created: dt.datetime
    title: str = Field(min_length=1, max_length=200)
    start_url: str = Field(max_length=4000)
    source: PlanSource
    actions: list[PlanAction] = Field(min_length=1, max_length=500)
    side_effects: SideEffectsSummary
    requirements: list[Requirement] = Field(default_factory=list, max_length=50)
    evidence_plan: list[EvidenceItem] = Field(default_factory=list, max_length=2000)
    diff: list[DiffEntry] | None = Field(None, description="Null until prepare has read the page's current values.")
    fingerprint: Fingerprint | None = None
    problems: list[PrepareProblem] = Field(default_factory=list, max_length=200,
                                           description="What prepare's rehearsal found wrong, one code each.")

    @field_validator("request_id")
    @classmethod
    def _request_id(cls, value: str) -> str:
        try:
            check_request_id(value)  # a real date, not just the right digits
        except BrowserOpsError as exc:
            raise ValueError(exc.message) from None
        return value

    @field_validator("created")
    @classmethod
    def _aware(cls, value: dt.datetime) -> dt.datetime:
        if value.tzinfo is None:
            raise ValueError("created must carry a time zone (e.g. 2026-01-05T10:00:00Z)")
        return value.astimezone(dt.UTC)

    @field_validator("start_url")
    @classmethod
    def _start_url(cls, value: str) -> str:
        low = value.lower()
        if not (low.startswith(("http://", "https://")) or low == "about:blank") or any(c in value for c in "\r\n\t"):
            raise ValueError("startUrl must be an absolute http(s) URL")
        return value

    @model_validator(mode="after")
    def _consistent(self) -> BrowserPlan:
        numbers = [a.number for a in self.actions]
        if numbers != list(range(1, len(numbers) + 1)):
            raise ValueError("actions must be numbered 1, 2, 3… in order")
        if self.side_effects != SideEffectsSummary.of(self.actions):
            raise ValueError("sideEffects does not match the actions (it is derived from them; do not edit it)")
        missing = [item.path or f"export of step {item.step}" for item in required_evidence(self.actions)
                   if item not in self.evidence_plan]
        if missing:
            raise ValueError(f"evidencePlan lacks required evidence: {', '.join(missing[:5])}")
        by_number = {a.number: a for a in self.actions}
        for a in self.actions:
            first = by_number.get(a.same_field_as) if a.same_field_as is not None else None
            if a.same_field_as is not None and (a.kind is not Kind.FILL or first is None or first.kind is not Kind.FILL
                                                or first.number >= a.number):
                raise ValueError(f"step {a.number}: sameFieldAs must name an earlier fill step, and belongs to fills")
        for item in self.requirements:
            if item.step is not None and item.step not in by_number:
                raise ValueError(f"requirement refers to step {item.step}, which does not exist")
        if self.diff is not None:
            if self.fingerprint is None:
                raise ValueError("a plan with a diff needs the fingerprint it was computed against")
            seen: set[str] = set()
            for entry in self.diff:
                action = by_number.get(entry.step)
                if action is None or action.kind is not Kind.FILL:
                    raise ValueError(f"diff entry {entry.field!r} refers to step {entry.step}, which is not a fill")
                if entry.field in seen:
                    raise ValueError(f"diff lists field {entry.field!r} twice")
                if entry.sensitive != action.sensitive:
                    raise ValueError(f"diff entry {entry.field!r} must be sensitive exactly when its step is")
                if entry.unread:
                    if not entry.sensitive and entry.field not in self.fingerprint.unread:
                        raise ValueError(f"diff entry {entry.field!r} is unread, but the fingerprint says it was read")
                elif not entry.sensitive and (entry.field not in self.fingerprint.values
                                              or _norm(self.fingerprint.values[entry.field]) != _norm(entry.before)):
                    raise ValueError(f"diff entry {entry.field!r}: its before value is not the fingerprint's")
                seen.add(entry.field)
            sensitive = {a.field for a in self.actions if a.sensitive and a.field}
            both = set(self.fingerprint.values) & set(self.fingerprint.unread)
            if both:
                raise ValueError(f"fingerprint lists {', '.join(sorted(both))} as read and as unread")
            leaked = sensitive & set(self.fingerprint.values)
            if leaked:
                raise ValueError(f"fingerprint must not record sensitive fields: {', '.join(sorted(leaked))}")
        return self

    def action(self, number: int) -> PlanAction:
        return self.actions[number - 1]

    def counts(self) -> PlanCounts:
        """Step counts for the summary line; fills count only fields that change once a diff exists."""
        changed = None if self.diff is None else {d.step for d in self.diff}

        def n(kind: Kind) -> int:
            return sum(1 for a in self.actions if a.kind is kind)

        fills = sum(1 for a in self.actions if a.kind is Kind.FILL and (changed is None or a.number in changed))
        return PlanCounts(fills, n(Kind.SUBMIT), n(Kind.EXPORT), n(Kind.PAYMENT), n(Kind.ACT) + n(Kind.PRESS),
                          n(Kind.READ))

    @property
    def has_changes(self) -> bool:
        """Whether running the plan would do anything beyond reading (prepare's exit code 2)."""
        c = self.counts()
        return bool(c.fills or c.submits or c.exports or c.payments or c.acts)

    def to_json(self) -> bytes:
        return orjson.dumps(self.model_dump(mode="json", by_alias=True), option=orjson.OPT_INDENT_2) + b"\n"


def required_evidence(actions: Iterable[PlanAction]) -> list[EvidenceItem]:
    """Before/after screenshots for every step that needs --confirm; the file of every export."""
    items: list[EvidenceItem] = []
    for a in actions:
        if a.side_effect not in CONFIRM_FREE:
            for phase in ("before", "after"):
                items.append(EvidenceItem(kind="screenshot", step=a.number, phase=phase,
                                          path=screenshot_relpath(a.number, phase, a.label())))
        if a.action is Action.DOWNLOAD:
            path = export_relpath(a.save_as) if a.save_as else None
            items.append(EvidenceItem(kind="export", step=a.number, path=path))
    return items


def number_steps(steps: Sequence[Step]) -> list[PlanAction]:
    """Steps (from a pack or a step file) as numbered plan actions; prepare-time facts are kept."""
    actions = []
    for i, step in enumerate(steps, start=1):
        data = step.model_dump(by_alias=True, exclude_none=True)
        data.pop("number", None)
        actions.append(PlanAction.model_validate({**data, "number": i}))
    return actions


def input_texts(plan: BrowserPlan) -> list[str]:
    """The texts the plan types or chooses (its sensitive values come from the input at run time)."""
    return [v for a in plan.actions if a.action in (Action.TYPE, Action.SELECT)
            for v in (a.value if isinstance(a.value, list) else [a.value]) if isinstance(v, str)]


def fill_keys(actions: Sequence[PlanAction]) -> dict[int, str]:
    """step number -> the name each fill goes by in the diff and the fingerprint: its field (else
    ``stepN``), made unique within the plan. Prepare and run derive it the same way from the plan alone."""
    keys: dict[int, str] = {}
    for a in actions:
        if a.kind is Kind.FILL and a.same_field_as in keys:
            keys[a.number] = keys[a.same_field_as]  # several steps on one field: one line, one baseline
        elif a.kind is Kind.FILL:
            key = a.field or f"step{a.number}"
            keys[a.number] = key if key not in keys.values() else f"{key}.{a.number}"
    return keys
