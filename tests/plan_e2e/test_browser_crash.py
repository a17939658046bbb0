"""Fault injection: the run's Chromium is killed (SIGKILL, that browser's processes only) at 18 moments of
`run --confirm` on the demo plan, each while a tool is at work. Whenever it dies, the run ends the same way within
10 s: BROWSER_CRASHED naming the tool that was running, exit code 1, no traceback, the bundle marked incomplete and
`evidence verify` saying so.

The moments are picked by what the run is doing, not by time: "the k-th call of tool X has started" (the runner's
debug log line ``tool X starts``), or "has finished" for the hooks that follow a navigation. Kills while the browser
starts (before any tool) are tests/plan_e2e/test_startup_crash.py's sweep, which checks the same outcome and that
the error names the start-up.
"""

from __future__ import annotations

import _thread
import contextlib
import logging
import os
import re
import signal
import threading
import time
from pathlib import Path
from typing import Any

import orjson
import pytest

from browserops.demo_site import DemoSite
from browserops.evidence import verify_bundle
from tests.plan_e2e.helpers import bundle_of, cli_run, prepare_expense
from tests.procs import chromium_processes, descendants

EXIT_WITHIN_S = 10.0

# (what, tool, k): "starts"/"done" = the k-th call of the tool has started / has returned (before the post-action
# hooks).
MOMENTS: list[tuple[str, str, int]] = [
    ("starts", "browser_navigate", 1),  # the start URL
    ("done", "browser_navigate", 1),  # the banner hook and login check after it
    ("starts", "browser_list_interactives", 1),  # the page check (staleness)
    ("starts", "browser_screenshot", 1),  # the first before-screenshot
    ("starts", "browser_overlay_act", 1),  # typing the first field
    ("starts", "browser_screenshot", 2),  # its after-screenshot
    ("starts", "browser_list_interactives", 3),
    ("starts", "browser_overlay_act", 3),  # typing
    ("starts", "browser_overlay_act", 5),  # selecting
    ("starts", "browser_screenshot", 9),
    ("starts", "browser_upload", 1),  # attaching the receipt
    ("starts", "browser_list_interactives", 10),  # finding the submit button
    ("starts", "browser_overlay_act", 9),  # the submit
    ("done", "browser_overlay_act", 9),  # just after it, before its page is checked
    ("starts", "browser_wait", 1),  # waiting for the confirmation text
    ("starts", "browser_wait", 2),  # and for the confirmation URL
    ("starts", "browser_screenshot", 11),  # the after-screenshot of the submit
    ("starts", "browser_list_interactives", 6),  # a page check in the middle of the form
]
# Not the last calls (the extract of the reference and the final snapshot): on a loaded machine the run can finish
# them between the log line and the kill, and a kill that lands after the browser's last answer rightly leaves a
# complete run.


@pytest.fixture(autouse=True)
def own_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each run launches a browser of its own, as a ``browserops run`` process does: the one killed is the run's
    only (the suite's runs otherwise share a warm browser, tests/conftest.py)."""
    monkeypatch.setenv("BROWSEROPS_BROWSER_REUSE", "0")


@pytest.fixture(scope="module")
def prepared(demo_site: DemoSite, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """One prepared demo plan; every moment runs it again (a run that did not complete may be run again)."""
    workspace = tmp_path_factory.mktemp("crash-ws")
    return workspace, prepare_expense(workspace, demo_site.base_url)


def _browser_of_run(before: set[int]) -> set[int]:
    """The Chromium processes of the run's browser: under the processes this one started since ``before`` (the
    run's Playwright driver), not the suite's own browser, which may be open in this worker."""
    started = descendants(os.getpid()) - before
    below = started.union(*(descendants(pid) for pid in started))
    return set(chromium_processes()) & below


def _kill(pids: set[int]) -> int:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return len(pids)


class _RunLog(logging.Handler):
    """The run's log lines as its ``--log-level DEBUG`` stderr had them (tests/logcapture.py's format), kept as
    they come so another thread can wait for one. ``end()`` marks the run over: nothing more will come."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        self.lines: list[str] = []
        self.over = False
        self.changed = threading.Condition()

    def emit(self, record: logging.LogRecord) -> None:
        line = self.format(record)
        with self.changed:
            self.lines.extend(line.splitlines())
            self.changed.notify_all()

    def end(self) -> None:
        with self.changed:
            self.over = True
            self.changed.notify_all()

    def wait_for(self, pattern: re.Pattern[str], count: int, timeout_s: float = 60) -> bool:
        with self.changed:
            return self.changed.wait_for(
                lambda: self.over or sum(1 for line in self.lines if pattern.search(line)) >= count, timeout_s,
            ) and sum(1 for line in self.lines if pattern.search(line)) >= count


class _Killer(threading.Thread):
    """Waits for the moment in the run's log, then kills the run's browser; interrupts the run (the test's main
    thread, where the CLI runs) when it has not ended ``EXIT_WITHIN_S`` after the kill."""

    def __init__(self, log: _RunLog, pattern: re.Pattern[str], count: int, before: set[int]) -> None:
        super().__init__(daemon=True)
        self.log, self.pattern, self.count, self.before = log, pattern, count, before
        self.reached = False
        self.killed = 0
        self.at: float | None = None
        self.hung = False
        self.finished = threading.Event()

    def run(self) -> None:
        self.reached = self.log.wait_for(self.pattern, self.count)
        if not self.reached or self.finished.is_set():
            return
        self.killed = _kill(_browser_of_run(self.before))
        self.at = time.monotonic()
        if not self.finished.wait(EXIT_WITHIN_S):
            self.hung = True
            _thread.interrupt_main()  # the CLI answers Ctrl+C with "Interrupted.", exit 130: the test fails


@pytest.mark.parametrize(("what", "tool", "k"), MOMENTS, ids=[f"{w}-{t}-{k}" for w, t, k in MOMENTS])
def test_a_killed_browser_ends_the_run_as_crashed(prepared: tuple[Path, dict[str, Any]], browserops_log: Any,
                                                  what: str, tool: str, k: int) -> None:
    workspace, plan = prepared
    # The run goes through the CLI in this process (CliRunner), its browser killed from a thread: what is under
    # test is how the run meets its browser's death, which the process boundary does not change, and a
    # `python -m browserops` start cost each kill 1.3 CPU s. The run's log at DEBUG is what its stderr showed.
    args = ["--json", "--log-level", "DEBUG", "run", plan["requestId"], "--confirm", plan["confirmPhrase"]]
    line = rf"tool {tool} starts" if what == "starts" else rf"tool {tool} -> "
    log = _RunLog()
    # browserops' own records, and asyncio's (a task's exception nobody retrieved goes there with its traceback).
    loggers = [logging.getLogger("browserops"), logging.getLogger("asyncio")]
    for logger in loggers:
        logger.addHandler(log)
    killer = _Killer(log, re.compile(line), k, descendants(os.getpid()))
    killer.start()
    try:
        result = cli_run(workspace, *args)
    finally:
        ended = time.monotonic()
        killer.finished.set()
        log.end()
        for logger in loggers:
            logger.removeHandler(log)
        killer.join(timeout=10)
    lines = log.lines
    assert killer.reached, f"the run never got to {what} {tool} #{k}: {lines[-30:]}"
    assert killer.killed >= 1
    assert not killer.hung, f"the run did not end within {EXIT_WITHIN_S} s of the kill ({what} {tool} #{k})"
    assert killer.at is not None
    took = ended - killer.at
    err, out = result.stderr + "\n".join(lines), result.stdout
    assert result.exit_code == 1, (result.exit_code, out, err[-3000:])
    assert "Traceback" not in err, err[-3000:]
    answer = orjson.loads(out)
    assert answer["status"] == "error" and answer["code"] == "BROWSER_CRASHED", answer
    # The error names the tool that was running at the moment the test waited for, or one started after it (the
    # kill may land a little after that moment, never before it); never the start-up, which was over. (A tool's
    # hooks may call another tool inside it; the failed step's own screenshot, tried after, fails too.)
    named = re.search(r"crashed while running (browser_\w+)", answer["error"])
    assert named, answer["error"]
    name = named.group(1)
    moment = [i for i, line in enumerate(lines) if f"tool {tool} starts" in line][k - 1]
    started = [i for i, line in enumerate(lines) if f"tool {name} starts" in line]
    assert started, (answer["error"], lines[-20:])
    # (Its "-> ok" line may come before the crash: the post-action hooks, part of the call, run after it.)
    ended_at = [i for i in range(started[-1], len(lines)) if f"tool {name} -> " in lines[i]]
    assert started[-1] >= moment or not ended_at or ended_at[0] >= moment, (answer["error"], lines[moment:][:20])
    assert took < EXIT_WITHIN_S
    bundle = bundle_of(workspace, plan["requestId"])
    report = verify_bundle(bundle)
    assert not report.ok and report.status == "incomplete"
    verify = cli_run(workspace, "evidence", "verify", plan["requestId"])  # the CLI in-process: no boundary tested
    assert verify.exit_code == 1 and "incomplete" in verify.stdout + verify.stderr
