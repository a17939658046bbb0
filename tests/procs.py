"""Inspect Chromium processes through /proc, to prove sessions leave nothing behind."""

from __future__ import annotations

import os
import time
from pathlib import Path


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (e.g. its Playwright driver and Chromium), read from /proc."""
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
    ours = descendants(os.getpid())
    out: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) not in ours:
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        state = stat[stat.rindex(")") + 2]
        if "chrom" in name.lower() or "headless_shell" in name.lower():
            out[int(entry.name)] = state
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
