"""What every corpus application shares: the task record, driving a task through the real CLI (prepare ->
run --confirm -> evidence verify), reading an app's request log, and the known-gap bookkeeping.

A task's step file is written as an author would (roles + the names a person sees); its ``check`` asks the
application's own database whether exactly that change happened. ``KNOWN_GAPS`` (one dict per app, in its
``tasks.py``) maps a task that today's browserops cannot do to how it fails, as
``"<prepare|run> step <N>: <BROWSER_CODE>: <part of the message>"``; the tests assert it still fails exactly so.
"""

from __future__ import annotations

import contextlib
import hashlib
import re
import shutil
import sqlite3
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson
import yaml
from click.testing import CliRunner
from filelock import FileLock
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from browserops.cli import cli
from tests.realapps.corpus_checks import complete_kind
from tests.realapps.harness import RunningApp
from tests.realapps.twophase import ledger_is_log, run_ledger

Baseline = Callable[[Page, str, "Shots"], Awaitable[None]]
UNSAFE_METHODS = ("POST", "PUT", "PATCH", "DELETE")
REQUEST_LINE = re.compile(r'"(?P<method>[A-Z]+) (?P<path>\S+) HTTP/[\d.]+" (?P<status>\d{3})')


@dataclass(frozen=True)
class Task:
    """One business task on one app: its step file (and input file), its database check, its Playwright peer."""

    name: str
    steps: Path
    check: Callable[[RunningApp, list[Path]], None]
    baseline: Baseline
    input: Path | None = None
    profile: bool = True  # runs in the module's signed-in --profile
    then: Path | None = None  # a read-only step file prepared afterwards with the same --profile: still signed in?


@dataclass
class Outcome:
    """What prepare and run said for one task, and what the app's log saw while prepare ran."""

    task: str
    prepare_code: int
    prepare: dict[str, Any]
    prepare_requests: list[tuple[str, str, int]]
    run_code: int | None = None
    run: dict[str, Any] = field(default_factory=dict)
    verify_code: int | None = None
    exports: list[Path] = field(default_factory=list)
    then_code: int | None = None
    then: dict[str, Any] = field(default_factory=dict)
    step_targets: list[dict[str, Any]] = field(default_factory=list)
    prepare_s: float = 0.0
    run_s: float = 0.0
    run_requests: list[tuple[str, str, int]] = field(default_factory=list)  # what the app logged during the run
    bundle: Path | None = None

    def prepare_seen(self) -> tuple[int, int]:
        """(targeted steps prepare resolved and read, targeted steps): what prepare saw before any click. A prepare
        that failed saw none of the step file's targeted steps."""
        if self.prepare.get("status") != "ok":
            return 0, sum(1 for target in self.step_targets if target)
        steps = self.prepare.get("steps") or []
        unread = set(self.prepare.get("unread") or [])
        targeted = [s for s in steps if s.get("target")]
        seen = [s for s in targeted if s.get("preparedNumber") is not None and s["number"] not in unread]
        return len(seen), len(targeted)

    @property
    def unsafe_during_prepare(self) -> list[tuple[str, str, int]]:
        return [r for r in self.prepare_requests if r[0] in UNSAFE_METHODS]

    @property
    def completed(self) -> bool:
        return self.run_code == 0 and self.run.get("runStatus") == "complete"

    def failure(self) -> tuple[str, int, str, str] | None:
        """(phase, step, code, message) of the first failure, None when prepare and run both went through."""
        for phase, data in (("prepare", self.prepare), ("run", self.run), ("next prepare", self.then)):
            if data.get("status") == "error":
                return phase, self._failed_step(data), str(data.get("code")), str(data["error"])
        return None

    def describe(self) -> str:
        failed = self.failure()
        if failed is None:
            return f"{self.task}: complete"
        phase, step, code, message = failed
        return f"{phase} step {step}: {code}: {message}"


    def _failed_step(self, data: dict[str, Any]) -> int:
        """The step file's number of the step that failed: from the run's step list, the error's own words, or
        (prepare names no step when a target is missing) the step whose target the error gives."""
        details = data.get("details") or {}
        for step in (details.get("run") or {}).get("steps", []):
            if step.get("status") == "error":
                return int(step["number"])
        if "failedStep" in details:
            return int(details["failedStep"])
        found = re.search(r"\bstep (\d+)", str(data.get("error", "")))
        if found:
            return int(found.group(1))
        target = details.get("target")
        if target:
            for number, step_target in enumerate(self.step_targets, start=1):
                if step_target and step_target.get("role") == target.get("role") and list(
                        step_target.get("names", [])) == list(target.get("names", [])):
                    return number
        return 0


def parse_gap(text: str) -> tuple[str, int, str, str]:
    """``"run step 3: BROWSER_X: message part"`` -> (phase, step, code, message part)."""
    found = re.fullmatch(r"(prepare|run|next prepare) step (\d+): (BROWSER_[A-Z_]+): (.+)", text, flags=re.S)
    assert found, ("a KNOWN_GAPS entry must read '<prepare|run|next prepare> step <N>: <BROWSER_CODE>: <message>': "
                   f"{text!r}")
    return found.group(1), int(found.group(2)), found.group(3), found.group(4)


def cli_json(workspace: Path, *args: str) -> tuple[int, dict[str, Any]]:
    result = CliRunner().invoke(cli, ["--workspace", str(workspace), "--json", *args], catch_exceptions=False)
    return result.exit_code, orjson.loads(result.stdout or "{}")


def request_log(app: RunningApp, since: int, until: int) -> list[tuple[str, str, int]]:
    """(method, path, status) of every request the app logged between two marks (byte offsets of its log)."""
    text = app.log_path.read_bytes()[since:until].decode("utf-8", errors="replace")
    return [(m["method"], m["path"], int(m["status"])) for m in REQUEST_LINE.finditer(text)]


def server_errors(app: RunningApp, limit: int = 4000) -> str:
    """The app's own error reports (Django logs "Internal Server Error: <path>" and the traceback), last first cut,
    for a failure message: a 500 under the browser explains more than the page's "Server Error"."""
    text = app.log_text()
    start = text.find("Internal Server Error")
    return "" if start < 0 else "\nThe app logged:\n" + text[start:][-limit:]


def log_mark(app: RunningApp, timeout_s: float = 10.0) -> int:
    """Send a marker request and wait until the app has logged it: every request before it is in the log too
    (the browser had its answers), so the log's size is a clean boundary between two phases."""
    marker = f"/__corpus_mark_{time.monotonic_ns()}"
    with contextlib.suppress(urllib.error.HTTPError):
        urllib.request.urlopen(app.base_url + marker, timeout=10).close()
    deadline = time.monotonic() + timeout_s
    while marker.encode() not in app.log_path.read_bytes():
        assert time.monotonic() < deadline, f"{app.name} did not log {marker} within {timeout_s} s"
        time.sleep(0.02)  # polling another process' log file for a line
    return app.log_path.stat().st_size


def drive(app: RunningApp, task: Task, workspace: Path, profile: Path | None) -> Outcome:
    """prepare -> run --confirm -> evidence verify through the real CLI, as a person would type them."""
    where = ["--profile", str(profile)] if profile is not None else []
    inputs = ["--input", str(task.input)] if task.input is not None else []
    start = log_mark(app)
    began = time.monotonic()
    code, prepared = cli_json(workspace, "prepare", "--steps", str(task.steps), *inputs,
                              "--base-url", app.base_url, *where)
    prepare_s = time.monotonic() - began
    steps = yaml.safe_load(task.steps.read_text(encoding="utf-8"))["steps"]
    outcome = Outcome(task.name, code, prepared, request_log(app, start, log_mark(app)),
                      step_targets=[step.get("target") or {} for step in steps], prepare_s=prepare_s)
    if code != 2:
        return outcome
    began = time.monotonic()
    run_start = log_mark(app)
    outcome.run_code, outcome.run = cli_json(workspace, "run", prepared["requestId"], "--confirm",
                                             prepared["confirmPhrase"], *inputs, *where)
    outcome.run_s = time.monotonic() - began
    outcome.run_requests = request_log(app, run_start, log_mark(app))
    bundle = outcome.bundle = Path(prepared["bundle"])
    outcome.exports = sorted((bundle / "exports").glob("*")) if (bundle / "exports").is_dir() else []
    if outcome.completed:
        outcome.verify_code, _ = cli_json(workspace, "evidence", "verify", prepared["requestId"])
        if task.then is not None:
            outcome.then_code, outcome.then = cli_json(workspace, "prepare", "--steps", str(task.then),
                                                       "--base-url", app.base_url, *where)
    return outcome


def assert_done(app: RunningApp, task: Task, outcome: Outcome,
                unchanged: Callable[[RunningApp], None] | None = None) -> None:
    """The task went through and the database has exactly its change; a run that said complete while the
    database lacks the change is called out as a false complete, one that saved other values than the plan's as a
    wrong complete (``unchanged``: the app's check that the database is as seeded)."""
    assert not outcome.unsafe_during_prepare, f"prepare sent unsafe requests: {outcome.unsafe_during_prepare}"
    assert outcome.failure() is None, outcome.describe() + server_errors(app)
    assert outcome.completed and outcome.verify_code == 0, outcome.run
    ledger = run_ledger(outcome.bundle)
    logged = [f"{m} {urlsplit(p).path} {s}" for m, p, s in outcome.run_requests if m in UNSAFE_METHODS]
    assert ledger_is_log(ledger, logged), f"the ledger says the run sent {ledger}; the app logged {logged}"
    if task.then is not None:
        assert outcome.then_code == 0, outcome.then
    try:
        task.check(app, outcome.exports)
    except AssertionError as exc:
        kind = complete_kind(lambda: unchanged(app)) if unchanged is not None else "FALSE COMPLETE"
        raise AssertionError(f"{kind}: the run of {task.name} said complete, but {exc}") from exc


def assert_gap_holds(app: RunningApp, task: Task, outcome: Outcome, gap: str) -> None:
    """A known gap still shows exactly as recorded: each line of ``gap`` is either a failure
    (``<phase> step <N>: <BROWSER_CODE>: <part of the message>``) or an unsafe request prepare let through
    (``prepare sent: <METHOD> <path prefix>``). Anything else going wrong, or nothing going wrong, fails."""
    lines = [line.strip() for line in gap.splitlines() if line.strip()]
    sent = [line.removeprefix("prepare sent: ").split(" ", 1) for line in lines if line.startswith("prepare sent: ")]
    failures = [parse_gap(line) for line in lines if not line.startswith("prepare sent: ")]
    assert len(failures) <= 1, f"{task.name}: one failure per gap entry: {failures}"
    for method, prefix in sent:
        assert any(m == method and p.startswith(prefix) for m, p, _ in outcome.unsafe_during_prepare), (
            f"{task.name}: prepare no longer sends {method} {prefix}: {outcome.prepare_requests}")
    unexpected = [r for r in outcome.unsafe_during_prepare
                  if not any(r[0] == m and r[1].startswith(p) for m, p in sent)]
    assert not unexpected, f"{task.name}: prepare sent unsafe requests not in KNOWN_GAPS: {unexpected}"
    failed = outcome.failure()
    if outcome.completed:
        try:
            task.check(app, outcome.exports)
        except AssertionError as exc:
            raise AssertionError(f"FALSE COMPLETE: the run of {task.name} said complete, but {exc}") from exc
    if not failures:
        assert failed is None, f"{task.name} fails differently than recorded in KNOWN_GAPS: {outcome.describe()}"
        assert sent, f"{task.name} now passes: move it out of KNOWN_GAPS"
        return
    assert failed is not None, f"{task.name} now gets through ({outcome.describe()}): update KNOWN_GAPS"
    phase, step, code, part = failures[0]
    assert (failed[0], failed[1], failed[2]) == (phase, step, code), (
        f"{task.name} fails differently than recorded in KNOWN_GAPS: {outcome.describe()}")
    assert part in failed[3], f"{task.name}: the message changed: {failed[3]!r} does not hold {part!r}"


class Shots:
    """The baseline's screenshots: before/after each acting step, numbered as browserops numbers them."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.count = 0
        folder.mkdir(parents=True, exist_ok=True)

    async def around(self, page: Page, label: str, act: Awaitable[Any]) -> Any:
        self.count += 1
        await shoot(page, self.folder / f"{self.count:03d}_before_{label}.png")
        result = await act
        await shoot(page, self.folder / f"{self.count:03d}_after_{label}.png")
        return result


async def shoot(page: Page, path: Path) -> None:
    """A screenshot as a careful Playwright script takes one, of the page the step led to: a click that navigates
    returns once the new document has started loading, and a shot then is a blank page (seen on Wagtail: three of
    a task's five "after" shots were white), so the document's load comes first (at once on a loaded page). A page
    caught between two documents answers "Unable to capture screenshot": wait for the new one, take it again."""
    await page.wait_for_load_state()
    try:
        await page.screenshot(path=path)
    except PlaywrightError as exc:
        if "Unable to capture screenshot" not in str(exc):
            raise
        await page.wait_for_load_state()
        await page.screenshot(path=path)


def seeded_database(app_dir: Path, build: Callable[[Path], None]) -> Path:
    """The app's seeded sqlite file, built by ``build(path)`` once per version of the app's glue and pins, and kept
    in ``<app>/.seed-cache/`` (migrating a Wagtail database takes minutes on a loaded 2-core machine; copying it
    takes milliseconds). A lock makes concurrent test workers build it once."""
    digest = hashlib.sha256()
    for path in sorted(app_dir.rglob("*")):
        relative = path.relative_to(app_dir)
        if (path.is_file() and relative.parts[0] not in (".venv", ".seed-cache", "tasks", "__pycache__")
                and path.suffix in (".py", ".toml", ".lock", ".html") and path.name != "tasks.py"):
            digest.update(str(relative).encode() + b"\0" + path.read_bytes() + b"\0")
    cache = app_dir / ".seed-cache" / f"{digest.hexdigest()[:16]}.sqlite3"
    cache.parent.mkdir(exist_ok=True)
    with FileLock(str(cache.with_suffix(".lock"))):
        if not cache.exists():
            building = cache.with_suffix(".building")
            building.unlink(missing_ok=True)
            build(building)
            building.replace(cache)
    return cache


def copy_database(seed: Path, live: Path) -> None:
    """Put a fresh copy of the seeded database in place at once (the server opens a connection per request)."""
    fresh = live.with_suffix(".fresh")
    shutil.copyfile(seed, fresh)
    fresh.replace(live)


def query(database: Path, sql: str, *args: object) -> list[sqlite3.Row]:
    with contextlib.closing(sqlite3.connect(f"file:{database}?mode=ro", uri=True)) as conn:
        conn.row_factory = sqlite3.Row
        return list(conn.execute(sql, args))


@contextlib.asynccontextmanager
async def baseline_page() -> AsyncIterator[Page]:
    """A plain Playwright page in a fresh context of the Chromium browserops uses (the baselines' browser)."""
    from playwright.async_api import async_playwright

    from browserops.browser.launch.discovery import find_chromium, running_as_root

    async with async_playwright() as pw:
        chromium = find_chromium(playwright_path=pw.chromium.executable_path)
        browser = await pw.chromium.launch(executable_path=chromium.path, chromium_sandbox=not running_as_root())
        try:
            context = await browser.new_context(accept_downloads=True)
            context.set_default_timeout(15_000)
            yield await context.new_page()
        finally:
            await browser.close()


def replay(app: RunningApp, reseed: Callable[[RunningApp], None], name: str, steps: Path,
           inputs: dict[str, object], workspace: Path, profile: Path, like: Task) -> Outcome:
    """A recording's step file and inputs through the two phases, checked like the task ``like`` on a fresh seed
    (the person's own change is undone: the replay must make it again)."""
    input_file = steps.with_suffix(".replay-input.yaml")
    input_file.write_text(yaml.safe_dump(inputs, allow_unicode=True), encoding="utf-8")
    task = Task(name, steps, like.check, like.baseline, input=input_file, profile=like.profile, then=like.then)
    reseed(app)
    outcome = drive(app, task, workspace, profile)
    assert_done(app, task, outcome)
    return outcome
