"""How the two phases are shown at every front door: a prepared plan and a run as JSON, and the command a person
runs in a terminal. One shape for ``prepare --json`` and ``browser_prepare``, whose only difference is that the MCP
door never includes the confirm phrase (its caller is a model; the phrase is for a person)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from browserops.plan import BrowserPlan, render_diff, summary_line
from browserops.plan.prepare.prepare import PreparedPlan
from browserops.plan.run.attempt import RunResult


def shell_word(text: str) -> str:
    """``text`` as one POSIX shell word (quoted only when it needs to be)."""
    safe = all(ch.isalnum() or ch in "-_./:@=~+" for ch in text)
    return text if safe and text else "'" + text.replace("'", "'\\''") + "'"


def run_command(workspace: Path | None, request_id: str, *, phrase: str | None = None, review: bool = False,
                input_file: Path | None = None, browser_args: Sequence[str] = ()) -> str:
    """The ``browserops run`` command line for this plan. ``workspace`` None: the current directory's (omitted).
    ``review``: the terminal shows the plan and its phrase and asks the person for it (``run --review``)."""
    return ("browserops" + (f" --workspace {shell_word(str(workspace))}" if workspace is not None else "")
            + f" run {request_id}"
            + (f' --confirm "{phrase}"' if phrase is not None else "")
            + (" --review" if review else "")
            + (f" --input {shell_word(str(input_file))}" if input_file is not None else "")
            + "".join(f" {shell_word(arg)}" for arg in browser_args))


def plan_steps(plan: BrowserPlan) -> list[dict[str, Any]]:
    return [{"number": a.number, "kind": a.kind.value, "action": str(a.action), "field": a.field,
             "sideEffect": a.side_effect.value, "target": a.target.describe() if a.target else a.url,
             "preparedNumber": a.prepared_number, "matchedName": a.matched_name, "revealedBy": a.revealed_by,
             "matchedWithin": a.matched_within, "sameFieldAs": a.same_field_as} for a in plan.actions]


def prepared_json(prepared: PreparedPlan, command: str, *, with_phrase: bool) -> dict[str, Any]:
    """The prepared plan: request id, steps, side effects, requirements, diff, problems and what was (not) read;
    ``confirmPhrase`` only ``with_phrase``."""
    plan = prepared.plan
    out: dict[str, Any] = {
        "status": "ok", "requestId": plan.request_id, "bundle": str(prepared.bundle),
        "planFile": str(prepared.bundle / "plan.json"), "title": plan.title, "startUrl": plan.start_url,
        "hasChanges": plan.has_changes, "requiresConfirm": plan.side_effects.requires_confirm,
    }
    if with_phrase:
        out["confirmPhrase"] = prepared.phrase
    out.update({
        "summary": summary_line(plan), "counts": dataclasses.asdict(plan.counts()),
        "sideEffects": plan.side_effects.model_dump(mode="json", by_alias=True),
        "requirements": [r.model_dump(mode="json", by_alias=True) for r in plan.requirements],
        "diff": [d.model_dump(mode="json", by_alias=True) for d in plan.diff or []],
        "diffText": render_diff(plan), "unread": prepared.unread, "snapshots": prepared.snapshots,
        "notRead": [{"step": n, "reason": why} for n, why in sorted(prepared.not_read.items())],
        "rehearsed": prepared.rehearsed, "refused": prepared.refused,
        "problems": [p.model_dump(mode="json", by_alias=True) for p in plan.problems],
        "steps": plan_steps(plan),
        "runCommand": command,
    })
    return out


def run_json(result: RunResult) -> dict[str, Any]:
    """A run as JSON: ``status`` ok, or error with the code, the message and the run in ``details``."""
    if result.error is None:
        return {"status": "ok", **result.to_json()}
    return {"status": "error", "code": result.error.code.value, "error": result.error.message,
            "details": {**result.error.details, "run": result.to_json()}}
