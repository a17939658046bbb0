"""One bundle as a front door shows it: the readable summary, the result of re-hashing it (``evidence verify``), who
confirmed each run (a phrase in a terminal, or a person's approval through an MCP client), and the side-effect
ledger — every request a run sent that could change a server. ``hide_phrase`` leaves every confirm phrase out (the
MCP door: its caller is a model, which must never hold one, not even a spent one)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence import Attempt, find_bundle, read_events, read_info, read_plan, verify_bundle
from browserops.evidence.manifest import bundle_files
from browserops.evidence.store import summarize
from browserops.evidence.summary import render_summary


def confirmed_by(attempt: Attempt, *, hide_phrase: bool) -> dict[str, Any] | None:
    """How a run attempt was confirmed; None for prepare and for an unconfirmed run."""
    if attempt.approved is not None:
        return {"via": attempt.approved.via, "client": attempt.approved.client,
                "at": attempt.approved.at.isoformat(), "planDigest": attempt.approved.plan_digest}
    if attempt.confirmed_with is not None:
        return {"via": "phrase", **({} if hide_phrase else {"phrase": attempt.confirmed_with})}
    return None


def evidence_view(workspace: Path, request_id: str, *, hide_phrase: bool) -> dict[str, Any]:
    """``summary`` (markdown), ``verify`` (the report), ``attempts`` and ``ledger`` of one bundle of this
    workspace."""
    path = find_bundle(workspace, request_id)
    info = read_info(path)
    report = verify_bundle(path)
    if info is None:
        raise BrowserOpsError(ErrorCode.EVIDENCE_MISMATCH, f"Bundle {request_id} has no readable bundle.json: treat "
                              "it as untrustworthy.", details={"report": report.model_dump(mode="json", by_alias=True)})
    events, problems = read_events(path)
    files, _ = bundle_files(path)
    ledger = [{"attempt": e.attempt, **sent.model_dump(mode="json", by_alias=True, exclude_none=True)}
              for e in events if e.phase == "run" for sent in e.sent]
    attempts = [{"number": a.number, "phase": a.phase, "status": a.status, "started": a.started.isoformat(),
                 "ended": a.ended.isoformat() if a.ended else None, "reason": a.reason,
                 "confirmedBy": confirmed_by(a, hide_phrase=hide_phrase)} for a in info.attempts]
    return {
        "requestId": info.request_id, "bundle": str(path),
        "status": summarize(path).status,
        "attempts": attempts,
        "verify": report.model_dump(mode="json", by_alias=True),
        "ledger": ledger,
        "summary": render_summary(info, read_plan(path), events, files, problems, hide_phrase=hide_phrase),
    }
