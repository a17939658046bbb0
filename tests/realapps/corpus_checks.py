"""What every corpus test asserts about one attempt, whichever app: no unsafe request while preparing, no
"complete" without the change in the database, and a known gap failing exactly the way it was recorded.

A known gap is written ``<phase> <CODE> [at step N]: <message excerpt> — <why>``: phase ``prepare``, ``run``,
``verify`` or ``next-prepare``, CODE a ``BROWSER_*`` code, or ``complete`` for a false complete (the run said
complete and evidence verify passed, while the database lacks the change). A run that said complete while the
database holds something other than the plan's values is a *wrong* complete (:func:`complete_kind`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from tests.realapps.harness import RunningApp
from tests.realapps.twophase import CorpusTask, Outcome, ledger_is_log, log_lines, run_ledger

_GAP = re.compile(r"^(?P<phase>prepare|run|verify|next-prepare) (?P<code>BROWSER_[A-Z_]+|complete)"
                  r"(?: at step (?P<step>\d+))?: (?P<says>.+?)(?: — (?P<why>.*))?$", re.S)


@dataclass(frozen=True)
class Gap:
    phase: str
    code: str
    step: int | None
    says: str

    @classmethod
    def parse(cls, text: str) -> Gap:
        match = _GAP.match(text)
        assert match, f"known gap not in the '<phase> <CODE> [at step N]: <message> — <why>' form: {text!r}"
        return cls(match["phase"], match["code"], int(match["step"]) if match["step"] else None, match["says"])


def assert_prepare_was_read_only(outcome: Outcome) -> None:
    assert outcome.prepare_requests.unsafe == [], f"prepare sent unsafe requests: {outcome.prepare_requests.unsafe}"


def assert_ledger_is_the_log(outcome: Outcome) -> None:
    """The bundle's side-effect ledger lists exactly the unsafe requests the app's own log has for the run (and the
    GETs it lists as saves: a link that changes data), same methods, paths and statuses, in the same order."""
    assert outcome.run_requests is not None
    ledger = run_ledger(outcome.bundle)
    logged = log_lines(outcome.run_requests, ledger)
    assert ledger_is_log(ledger, logged), f"the ledger says the run sent {ledger}; the app logged {logged}"


def _check_fails(task: CorpusTask, app: RunningApp) -> str | None:
    try:
        task.check(app)
    except AssertionError as exc:
        return str(exc) or "check failed"
    return None


def complete_kind(unchanged: Callable[[], None]) -> str:
    """What a run that said complete while the task's check fails did (issue 35 item 5): ``FALSE COMPLETE`` when the
    database is as seeded (nothing was saved), ``WRONG COMPLETE`` when something was saved, but not exactly the
    plan's values (the check compares every field the plan set)."""
    try:
        unchanged()
    except AssertionError:
        return "WRONG COMPLETE"
    return "FALSE COMPLETE"


def assert_done(app: RunningApp, task: CorpusTask, outcome: Outcome,
                unchanged: Callable[[RunningApp], None] | None = None) -> None:
    """The task went through both phases and the app's database holds exactly its change (``unchanged``: the app's
    check that the database is as seeded, which tells a false complete from a wrong one)."""
    assert_prepare_was_read_only(outcome)
    if outcome.run_complete:
        missing = _check_fails(task, app)
        kind = complete_kind(lambda: unchanged(app)) if missing is not None and unchanged is not None else \
            "FALSE COMPLETE"
        assert missing is None, f"{kind}: the run said complete but the database says: {missing}"
    assert outcome.failure() is None, outcome.describe()
    task.check(app)
    assert_ledger_is_the_log(outcome)
    if task.check_bundle is not None:
        assert outcome.bundle is not None
        task.check_bundle(app, outcome.bundle)


def assert_gap_holds(app: RunningApp, task: CorpusTask, outcome: Outcome, recorded: str,
                     unchanged: Callable[[RunningApp], None]) -> None:
    """The task still fails exactly as recorded, and (unless the gap is a false complete) saved nothing."""
    gap = Gap.parse(recorded)
    assert_prepare_was_read_only(outcome)
    if gap.code == "complete":
        assert outcome.run_complete and outcome.verify_code == 0, (
            f"no longer a false complete: {outcome.failure()!r}; move {task.name} out of KNOWN_GAPS or re-record it")
        missing = _check_fails(task, app)
        assert missing is not None, f"{task.name} now saves its change: move it out of KNOWN_GAPS"
        return
    failure = outcome.failure()
    assert failure is not None, f"{task.name} passes now: move it out of KNOWN_GAPS"
    head = f"{gap.phase} {gap.code}" + (f" at step {gap.step}" if gap.step is not None else "")
    assert failure.startswith(head + ":") and gap.says in failure, (
        f"{task.name} fails differently now:\n  recorded: {recorded}\n  now:      {failure}")
    if task.then_prepare is None:
        unchanged(app)  # a failed run saved nothing
