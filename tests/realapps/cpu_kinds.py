"""Where a corpus test's CPU goes: an opt-in pytest plugin (``-p tests.realapps.cpu_kinds``) that splits each test's
CPU seconds by process kind (this test process, the Playwright driver, Chromium's browser / renderer / GPU / utility
processes, the app's server) and by what the test process was doing (``prepare``, ``run``, ``evidence`` through the
in-process CLI, or the test's own work: recording, reseeding, starting the app).

tests/cpu_meter.py gives one number per test; this says which part to cut. One line per test is appended to
``$CPU_KINDS_OUT`` (default ``artifacts/tests/cpu_kinds.txt``; each xdist worker appends its own lines), e.g.::

    tests/realapps/test_element_plus.py::test_task[edit_supplier] 9.0 | prepare 3.9 run 5.1 |
        run:renderer 1.9 prepare:zygote 1.5 run:test 1.0 run:driver 0.9 ...

The CLI phase is told by wrapping ``click.testing.CliRunner.invoke`` (how the corpus tests run the CLI), only while
this plugin is loaded. Like cpu_meter.py it reads ``/proc`` every tenth of a second: a process shorter than that is
missed.
"""

from __future__ import annotations

import collections
import os
import threading
from pathlib import Path
from typing import Any

import click.testing
import pytest

from tests.cpu_meter import tree_ticks

_TICKS = os.sysconf("SC_CLK_TCK")
_CLI_PHASES = ("prepare", "run", "evidence")


def kind_of(pid: int, root: int) -> str:
    """What a process is, from its command line (Chromium's helpers rewrite theirs into one space-separated string)."""
    if pid == root:
        return "test"
    try:
        words = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").split()
    except OSError:
        return "gone"
    if not words:
        return "gone"
    if "run-driver" in words:
        return "driver"
    if "chrom" in Path(words[0]).name:
        kind = next((w.removeprefix("--type=") for w in words if w.startswith("--type=")), "browser")
        if kind == "utility":
            sub = next((w.rsplit(".", 1)[-1] for w in words if w.startswith("--utility-sub-type=")), "")
            return f"utility:{sub}" if sub else "utility"
        return kind.removesuffix("-process")
    if any(part in " ".join(words) for part in ("manage.py", "corpus_site", "server.cjs")):
        return "app"
    return Path(words[0]).name


class KindMeter:
    """CPU ticks of a process tree since the last reset, by (phase, process kind)."""

    def __init__(self, root: int) -> None:
        self.root = root
        self.phase = "test"
        self.ticks: collections.Counter[tuple[str, str]] = collections.Counter()
        self._seen: dict[tuple[int, int], int] = {}
        self._kinds: dict[tuple[int, int], str] = {}
        self._lock = threading.Lock()

    def poll(self) -> None:
        with self._lock:
            now = tree_ticks(self.root)
            for key, ticks in now.items():
                if key not in self._kinds:
                    self._kinds[key] = kind_of(key[0], self.root)
                self.ticks[(self.phase, self._kinds[key])] += ticks - self._seen.get(key, 0)
            self._seen = now

    def take(self) -> collections.Counter[tuple[str, str]]:
        """What was counted since the last take (the next count starts at zero)."""
        self.poll()
        with self._lock:
            taken, self.ticks = self.ticks, collections.Counter()
            return taken

    def keep_polling(self) -> None:
        def loop() -> None:
            while True:
                threading.Event().wait(0.1)
                self.poll()

        threading.Thread(target=loop, name="cpu-kinds", daemon=True).start()


_METER = KindMeter(os.getpid())


def _phase_of(args: Any) -> str:
    return next((a for a in (args or []) if a in _CLI_PHASES), "cli")


_invoke = click.testing.CliRunner.invoke


def _invoke_in_phase(self: click.testing.CliRunner, cli: Any, args: Any = None, *rest: Any, **kw: Any) -> Any:
    _METER.poll()
    _METER.phase = _phase_of(args)
    try:
        return _invoke(self, cli, args, *rest, **kw)
    finally:
        _METER.poll()
        _METER.phase = "test"


_ACTIVE: list[bool] = []


def pytest_configure(config: pytest.Config) -> None:
    """Measure where the tests run: in each xdist worker, or in the one process without xdist. The controller of
    an xdist run also hears of every test, but its process tree holds both workers."""
    controller = not hasattr(config, "workerinput") and bool(getattr(config.option, "numprocesses", None))
    if not controller:
        click.testing.CliRunner.invoke = _invoke_in_phase  # type: ignore[method-assign]
        _METER.take()
        _METER.keep_polling()
        _ACTIVE.append(True)


def pytest_runtest_logstart(nodeid: str, location: tuple[str, int | None, str]) -> None:
    if _ACTIVE:
        _METER.take()


def line(nodeid: str, ticks: collections.Counter[tuple[str, str]]) -> str:
    """``<test> <total> | <phase> <s> ... | <phase>:<kind> <s> ...``, largest first, in CPU seconds."""
    phases: collections.Counter[str] = collections.Counter()
    for (phase, _kind), n in ticks.items():
        phases[phase] += n
    total = sum(ticks.values()) / _TICKS
    by_phase = " ".join(f"{p} {n / _TICKS:.1f}" for p, n in phases.most_common() if n)
    by_kind = " ".join(f"{p}:{k} {n / _TICKS:.1f}" for (p, k), n in ticks.most_common() if n >= _TICKS // 10)
    return f"{nodeid} {total:.1f} | {by_phase} | {by_kind}"


def pytest_runtest_logfinish(nodeid: str, location: tuple[str, int | None, str]) -> None:
    if not _ACTIVE:
        return
    out = Path(os.environ.get("CPU_KINDS_OUT", "artifacts/tests/cpu_kinds.txt"))
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", encoding="utf-8") as fh:
        fh.write(line(nodeid, _METER.take()) + "\n")
