"""The processes tests start: their environment (:func:`child_env`), and Chromium's processes inspected through
/proc, to prove sessions leave nothing behind."""

from __future__ import annotations

import os
import time
from pathlib import Path

# The settings tests/conftest.py chooses for the whole suite, which a browserops process started by a test keeps: the
# suite's browser (Chromium's headless shell where installed). Without it every CLI run, MCP server and crash sweep
# started as a subprocess launched the full Chromium (through Debian's shell wrapper): measured on a `run` of the
# demo expense plan, 7.4 CPU s instead of 5.4.
SUITE_SETTINGS = ("BROWSEROPS_CHROMIUM",)


def child_env(*keep: str) -> dict[str, str]:
    """This process's environment for a ``browserops`` process a test starts: no ``BROWSEROPS_*`` setting (none of
    a developer's configuration: tests/conftest.py removed those, and a test's own, e.g. its config directory, stays
    its own) but the suite's (:data:`SUITE_SETTINGS`) and those named in ``keep``."""
    kept = {*SUITE_SETTINGS, *keep}
    return {k: v for k, v in os.environ.items() if not k.startswith("BROWSEROPS_") or k in kept}


# A kernel without CONFIG_PROC_CHILDREN has no children files: every process's parent is read from /proc instead.
_NO_CHILDREN_FILES = not Path(f"/proc/{os.getpid()}/task/{os.getpid()}/children").exists()


def children(pid: int) -> list[int]:
    """The kernel's own list of ``pid``'s children (one file per thread: ``/proc/PID/task/*/children``)."""
    out: list[int] = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            out += [int(c) for c in (task / "children").read_text().split()]
    except OSError:
        pass  # gone meanwhile
    return out


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (e.g. its Playwright driver and Chromium), read from /proc.

    Walked down the kernel's children lists: a few reads for a command's dozen processes, where reading every
    process's parent reads all of /proc. The crash tests poll this every 10 ms while they wait for a browser to
    appear: 0.19 CPU s per 2 s of polling with 175 processes on the machine, 0.02 walked."""
    if _NO_CHILDREN_FILES:
        return _descendants_by_scan(pid)
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children(todo.pop()):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _descendants_by_scan(pid: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat[stat.rindex(")") + 2 :].split()[1])
    found: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def chromium_processes() -> dict[int, str]:
    """pid -> state letter (R, S, Z, ...) of every process below this one whose name looks like Chromium.

    Only this process's descendants: tests run in parallel (pytest-xdist), and another worker's browsers must be
    neither counted nor killed here."""
    out: dict[int, str] = {}
    for pid in descendants(os.getpid()):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        state = stat[stat.rindex(")") + 2]
        if "chrom" in name.lower() or "headless_shell" in name.lower():
            out[pid] = state
    return out


def wait_gone(pids: set[int], timeout_s: float = 10.0) -> set[int]:
    """Wait for pids to disappear; return those still present (zombies count as present)."""
    deadline = time.monotonic() + timeout_s
    left = set(pids)
    while left and time.monotonic() < deadline:
        left = {p for p in left if os.path.exists(f"/proc/{p}")}
        if left:
            time.sleep(0.1)
    return left
