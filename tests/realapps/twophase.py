"""Driving a corpus task through browserops' two phases as a person would, and reading what the app saw.

A task (see ``CorpusTask``) is a step file written the way an author writes one (roles and the names a person
sees), the values it needs, and questions to the application's own database. ``two_phase`` runs it through the
real CLI in-process — ``prepare`` → ``run --confirm <phrase>`` → ``evidence verify`` — and cuts the app's own
request log into the part each phase caused, so a test can say whether ``prepare`` sent an unsafe request and
whether a run that said ``complete`` really saved the change ("false complete").
"""

from __future__ import annotations

import re
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
import yaml
from click.testing import CliRunner

from browserops.cli import cli
from browserops.evidence import bundle_dir
from tests.realapps.harness import RunningApp

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
_REQUEST_LINE = re.compile(r"^REQ (?P<method>[A-Z]+) (?P<path>\S+) (?P<status>\d{3})$", re.M)

Check = Callable[[RunningApp], None]
Baseline = Callable[[Any, str, Path], Awaitable[None]]


@dataclass(frozen=True)
class CorpusTask:
    """One business task of one application.

    ``check`` asserts in the app's database that exactly the task's change happened; ``check_bundle`` (optional)
    asserts on what the run brought back (an export, the page it opened). ``baseline`` is the same task as a plain
    Playwright script (same screenshots), used by the sanity tests and bench/real_apps.py."""

    name: str
    steps: Path
    check: Check
    baseline: Baseline
    inputs: dict[str, str] = field(default_factory=dict)
    check_bundle: Callable[[RunningApp, Path], None] | None = None
    changes_data: bool = True  # False for read-only and export tasks: the database must stay as seeded
    # A sign-in task: run into a fresh ``--profile``, then ``prepare`` this read-only step file with the same
    # profile; it must find the site signed in.
    then_prepare: Path | None = None
    fresh_profile: bool = False


@dataclass
class Requests:
    """The unsafe requests (method + path + status) the app logged in one slice of its log."""

    lines: list[tuple[str, str, int]]

    @property
    def unsafe(self) -> list[str]:
        return [f"{m} {p} {s}" for m, p, s in self.lines if m in UNSAFE_METHODS]


def ledger_is_log(ledger: list[str], logged: list[str]) -> bool:
    """The ledger's lines against the app's log lines: equal one by one, except that a path segment the ledger
    hides (``…``: it holds one of the plan's input values, as ``/admin/`` holds the typed user name ``admin``)
    matches any one segment."""
    patterns = ["[^/ ]+".join(re.escape(part) for part in line.split("…")) for line in ledger]
    return len(ledger) == len(logged) and all(re.fullmatch(p, line) for p, line in zip(patterns, logged, strict=True))


def run_ledger(bundle: Path | None) -> list[str]:
    """The run's side-effect ledger (every attempt of phase run in ``events.jsonl``) as ``METHOD /path STATUS`` lines,
    query and origin left out, in the order the requests left: what browserops says the run sent."""
    if bundle is None or not (bundle / "events.jsonl").is_file():
        return []
    out: list[str] = []
    for line in (bundle / "events.jsonl").read_bytes().splitlines():
        event = orjson.loads(line)
        if event.get("phase") != "run":
            continue
        for sent in event.get("sent") or []:
            path = urlsplit(sent["url"]).path
            out.append(f"{sent['method']} {path} {sent['status'] if sent.get('status') is not None else '-'}")
    return out


def log_lines(requests: Requests, ledger: list[str] | None = None) -> list[str]:
    """The app log's unsafe requests as ``METHOD /path STATUS`` lines (query left out, as the ledger has it), and the
    GETs the run's ``ledger`` lists: a link whose GET changes data (an admin's row action that approves and comes
    back) is a save the ledger records as its navigation (issue 34 item 6), so the app's log must have it too."""
    gets = [re.compile("[^/ ]+".join(re.escape(part) for part in line.split("…")))
            for line in ledger or [] if line.startswith("GET ")]
    out = []
    for m, p, s in requests.lines:
        line = f"{m} {urlsplit(p).path} {s}"
        if m in UNSAFE_METHODS or (m == "GET" and any(g.fullmatch(line) for g in gets)):
            out.append(line)
    return out


def requests_in(log_text: str) -> Requests:
    return Requests([(m["method"], m["path"], int(m["status"])) for m in _REQUEST_LINE.finditer(log_text)])


@dataclass
class Outcome:
    """What the two phases said and what the app saw, for one task attempt."""

    prepare_code: int
    prepare: dict[str, Any]
    prepare_requests: Requests
    run_code: int | None = None
    run: dict[str, Any] | None = None
    run_requests: Requests | None = None
    verify_code: int | None = None
    next_prepare_code: int | None = None
    next_prepare: dict[str, Any] | None = None
    bundle: Path | None = None
    stderr: str = ""
    prepare_s: float = 0.0  # wall time of the prepare command
    run_s: float = 0.0  # wall time of run --confirm (browser launch to evidence written)

    @property
    def run_complete(self) -> bool:
        return self.run_code == 0 and self.run is not None and self.run.get("runStatus") == "complete"

    def failure(self) -> str | None:
        """``None`` when prepare, run and verify all succeeded; else ``<phase> <CODE> [at step N]: <message>``."""
        if self.prepare_code not in (0, 2):
            return f"prepare {self.prepare.get('code')}{_at_step(self.prepare)}: {self.prepare.get('error')}"
        if self.run is not None and not self.run_complete:
            return f"run {self.run.get('code')}{_at_step(self.run)}: {self.run.get('error')}"
        if self.verify_code not in (None, 0):
            return f"verify BROWSER_EVIDENCE_MISMATCH: evidence verify exited {self.verify_code}"
        if self.next_prepare is not None and self.next_prepare_code not in (0, 2):
            data = self.next_prepare
            return f"next-prepare {data.get('code')}{_at_step(data)}: {data.get('error')}"
        return None

    def describe(self) -> str:
        return (f"failure={self.failure()!r}\nprepare unsafe={self.prepare_requests.unsafe}\n"
                f"run unsafe={self.run_requests.unsafe if self.run_requests else None}\nstderr tail:\n"
                f"{self.stderr[-3000:]}")


def _at_step(data: dict[str, Any]) -> str:
    """The step a failed phase names: the run's failed step, or the step a prepare error's details give."""
    details = data.get("details") or {}
    if isinstance(details.get("failedStep"), int):  # the step whose target failed, not the one being checked
        return f" at step {details['failedStep']}"
    run = details.get("run") or {}
    for step in run.get("steps") or []:
        if step.get("status") == "error":
            return f" at step {step.get('number')}"
    step_no = details.get("step")
    return f" at step {step_no}" if isinstance(step_no, int) else ""


def cli_json(workspace: Path, *args: str) -> tuple[int, dict[str, Any], str]:
    result = CliRunner().invoke(cli, ["--workspace", str(workspace), "--json", *args], catch_exceptions=False)
    try:
        data: dict[str, Any] = orjson.loads(result.stdout) if result.stdout.strip() else {}
    except orjson.JSONDecodeError:
        data = {"status": "error", "code": None, "error": f"not JSON: {result.stdout[:500]}"}
    return result.exit_code, data, result.stderr


def write_inputs(workspace: Path, values: dict[str, str]) -> Path | None:
    if not values:
        return None
    path = workspace / "input.yaml"
    path.write_text(yaml.safe_dump(values, allow_unicode=True), encoding="utf-8")
    return path


def prepare(workspace: Path, app: RunningApp, steps: Path, inputs: dict[str, str],
            profile: Path | None = None) -> tuple[int, dict[str, Any], str]:
    """``browserops prepare --steps FILE [--input FILE] [--profile DIR]`` against the app."""
    args = ["prepare", "--steps", str(steps), "--base-url", app.base_url]
    input_file = write_inputs(workspace, inputs)
    if input_file:
        args += ["--input", str(input_file)]
    if profile:
        args += ["--profile", str(profile)]
    return cli_json(workspace, *args)


def two_phase(workspace: Path, app: RunningApp, task: CorpusTask, *, profile: Path | None = None) -> Outcome:
    """prepare → run --confirm → evidence verify, as the CLI's user does it, with the app's log cut per phase."""
    workspace.mkdir(parents=True, exist_ok=True)
    prepare_start = len(app.log_text())
    began = time.monotonic()
    code, data, err = prepare(workspace, app, task.steps, task.inputs, profile)
    outcome = Outcome(code, data, requests_in(app.log_text()[prepare_start:]), stderr=err,
                      prepare_s=time.monotonic() - began)
    if code not in (0, 2):
        return outcome
    request_id = str(data["requestId"])
    outcome.bundle = bundle_dir(workspace.resolve(), request_id)
    run_start = len(app.log_text())  # whatever was logged after prepare returned still counts as prepare's
    outcome.prepare_requests = requests_in(app.log_text()[prepare_start:run_start])
    args = ["run", request_id, "--confirm", str(data["confirmPhrase"])]
    input_file = write_inputs(workspace, task.inputs)
    if input_file:
        args += ["--input", str(input_file)]
    if profile:
        args += ["--profile", str(profile)]
    began = time.monotonic()
    outcome.run_code, run_data, run_err = cli_json(workspace, *args)
    outcome.run_s = time.monotonic() - began
    outcome.stderr += run_err
    outcome.run = run_data if run_data.get("status") == "ok" else {
        **run_data, "runStatus": ((run_data.get("details") or {}).get("run") or {}).get("runStatus")}
    outcome.run_requests = requests_in(app.log_text()[run_start:])
    outcome.verify_code, _, verify_err = cli_json(workspace, "evidence", "verify", request_id)
    outcome.stderr += verify_err
    if task.then_prepare is not None and outcome.run_complete:
        outcome.next_prepare_code, outcome.next_prepare, next_err = prepare(
            workspace, app, task.then_prepare, {}, profile)
        outcome.stderr += next_err
    return outcome
