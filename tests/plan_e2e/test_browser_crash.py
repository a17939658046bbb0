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

import contextlib
import os
import re
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import IO, Any

import orjson
import pytest

from browserops.demo_site import DemoSite
from browserops.evidence import verify_bundle
from tests.plan_e2e.helpers import ROOT, browserops_cmd, bundle_of, cli_run, prepare_expense, subprocess_env
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


@pytest.fixture(scope="module")
def prepared(demo_site: DemoSite, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """One prepared demo plan; every moment runs it again (a run that did not complete may be run again)."""
    workspace = tmp_path_factory.mktemp("crash-ws")
    return workspace, prepare_expense(workspace, demo_site.base_url)


def _kill_browser_of(pid: int) -> int:
    """SIGKILL the Chromium processes below ``pid`` (the run's browser), nothing else."""
    ours = set(chromium_processes()) & descendants(pid)
    for chromium in ours:
        with contextlib.suppress(ProcessLookupError):
            os.kill(chromium, signal.SIGKILL)
    return len(ours)


class _Lines:
    """Collects one of a process's pipes on a thread, so the test can wait for a line without blocking the pipe.
    Each pipe has exactly one reader: ``communicate()`` would read stderr too and take lines from under this one."""

    def __init__(self, stream: IO[str] | None) -> None:
        self.lines: list[str] = []
        self.changed = threading.Condition()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[str] | None) -> None:
        assert stream is not None
        for line in stream:
            with self.changed:
                self.lines.append(line)
                self.changed.notify_all()
        with self.changed:
            self.lines.append("")  # EOF marker
            self.changed.notify_all()

    def wait_for(self, pattern: re.Pattern[str], count: int, timeout_s: float = 60) -> bool:
        deadline = time.monotonic() + timeout_s
        with self.changed:
            while True:
                if sum(1 for line in self.lines if pattern.search(line)) >= count:
                    return True
                if self.lines and self.lines[-1] == "":
                    return False
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(left)

    def text(self) -> str:
        self._thread.join(timeout=5)
        return "".join(self.lines)


@pytest.mark.parametrize(("what", "tool", "k"), MOMENTS, ids=[f"{w}-{t}-{k}" for w, t, k in MOMENTS])
def test_a_killed_browser_ends_the_run_as_crashed(prepared: tuple[Path, dict[str, Any]], what: str, tool: str,
                                                  k: int) -> None:
    workspace, plan = prepared
    args = ["--json", "--log-level", "DEBUG", "run", plan["requestId"], "--confirm", plan["confirmPhrase"]]
    proc = subprocess.Popen(browserops_cmd(workspace, *args), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=ROOT, env=subprocess_env())
    stderr, stdout = _Lines(proc.stderr), _Lines(proc.stdout)
    try:
        line = rf"tool {tool} starts" if what == "starts" else rf"tool {tool} -> "
        reached = stderr.wait_for(re.compile(line), k)
        assert reached, f"the run never got to {what} {tool} #{k}: {stderr.text()[-2000:]}"
        assert _kill_browser_of(proc.pid) >= 1
        killed = time.monotonic()
        try:
            proc.wait(timeout=EXIT_WITHIN_S)
        except subprocess.TimeoutExpired:
            pytest.fail(f"the run did not end within {EXIT_WITHIN_S} s of the kill ({what} {tool} #{k})")
        took = time.monotonic() - killed
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    err, out = stderr.text(), stdout.text()
    assert proc.returncode == 1, (proc.returncode, out, err[-3000:])
    assert "Traceback" not in err, err[-3000:]
    answer = orjson.loads(out)
    assert answer["status"] == "error" and answer["code"] == "BROWSER_CRASHED", answer
    # The error names the tool that was running at the moment the test waited for, or one started after it (the
    # kill may land a little after that moment, never before it); never the start-up, which was over. (A tool's
    # hooks may call another tool inside it; the failed step's own screenshot, tried after, fails too.)
    lines = err.splitlines()
    named = re.search(r"crashed while running (browser_\w+)", answer["error"])
    assert named, answer["error"]
    name = named.group(1)
    moment = [i for i, line in enumerate(lines) if f"tool {tool} starts" in line][k - 1]
    started = [i for i, line in enumerate(lines) if f"tool {name} starts" in line]
    assert started, (answer["error"], lines[-20:])
    # (Its "-> ok" line may come before the crash: the post-action hooks, part of the call, run after it.)
    ended = [i for i in range(started[-1], len(lines)) if f"tool {name} -> " in lines[i]]
    assert started[-1] >= moment or not ended or ended[0] >= moment, (answer["error"], lines[moment:][:20])
    assert took < EXIT_WITHIN_S
    bundle = bundle_of(workspace, plan["requestId"])
    report = verify_bundle(bundle)
    assert not report.ok and report.status == "incomplete"
    verify = cli_run(workspace, "evidence", "verify", plan["requestId"])  # the CLI in-process: no boundary tested
    assert verify.exit_code == 1 and "incomplete" in verify.stdout + verify.stderr
