"""Inspect Chromium processes through /proc, to prove sessions leave nothing behind."""

from __future__ import annotations

import os
import time
from pathlib import Path


def chromium_processes() -> dict[int, str]:
    """pid -> state letter (R, S, Z, ...) of every process whose name looks like Chromium."""
    out: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
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
