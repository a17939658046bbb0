"""The CPU time each test costs: the test process and every process under it (Chromium, the Playwright driver, the
corpus apps' servers, the CLI runs it starts), as a ``cpu_s`` property of the test in the JUnit report.

Wall time on a shared machine says as much about the neighbours as about the test (a corpus task took 35 s at load
17, about 12 s on an idle machine); the CPU a test burns changes far less, so scripts/test_report.py shows both.

A thread reads the process tree's CPU times from ``/proc`` once a second and adds up what each process used
since it was last seen. Reaped time (a parent's ``cutime``) is not used: Chromium's renderers are orphaned when their
browser exits and no process of the tree reaps them, so their time would be lost at close. What a process uses in
its last second, or a process shorter than that, is missed: small beside a test's browsers. Polled four times a
second, the meter itself cost 2.5 % of a core (py-spy on the Wagtail module: the /proc reads of every thread of every
Chromium process), about a minute of CPU over the suite.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

from tests.procs import children

_TICKS = os.sysconf("SC_CLK_TCK")
POLL_S = 1.0


def _own_ticks(pid: int) -> tuple[int, int] | None:
    """(start time, utime + stime) of one process, or None when it is gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[1].split()  # after the command name, which may hold spaces
    return int(fields[19]), int(fields[11]) + int(fields[12])


class TreeMeter:
    """CPU ticks used by a process tree since the meter started (processes told apart by pid and start time)."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.total = 0
        self._seen: dict[tuple[int, int], int] = {}
        self._lock = threading.Lock()

    def poll(self) -> float:
        """Add what the tree used since the last poll; the running total in CPU seconds."""
        with self._lock:
            now = tree_ticks(self.root)
            self.total += sum(ticks - self._seen.get(key, 0) for key, ticks in now.items())
            self._seen = now
            return self.total / _TICKS


def tree_ticks(root: int) -> dict[tuple[int, int], int]:
    """(pid, start time) → utime + stime, for ``root`` and every live process under it."""
    now: dict[tuple[int, int], int] = {}
    todo = [root]
    while todo:
        pid = todo.pop()
        own = _own_ticks(pid)
        if own is not None:
            now[(pid, own[0])] = own[1]
        todo += children(pid)
    return now


_METER: list[TreeMeter] = []
_BEFORE = pytest.StashKey[float]()


def _meter() -> TreeMeter | None:
    if not _METER and Path(f"/proc/{os.getpid()}/task").is_dir():
        meter = TreeMeter(os.getpid())
        meter.poll()  # what ran before the first test is nobody's

        def keep_polling() -> None:
            while True:
                threading.Event().wait(POLL_S)
                meter.poll()

        threading.Thread(target=keep_polling, name="cpu-meter", daemon=True).start()
        _METER.append(meter)
    return _METER[0] if _METER else None


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    meter = _meter()
    if meter is not None:
        item.stash[_BEFORE] = meter.poll()


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> None:
    """Before the teardown's report is made (it carries the test's properties to the JUnit report)."""
    meter = _meter()
    if call.when == "teardown" and meter is not None and _BEFORE in item.stash:
        item.user_properties.append(("cpu_s", round(meter.poll() - item.stash[_BEFORE], 2)))
