"""What every results file records about the machine it was measured on: the load (``uptime``) at the start
and the end of the run, the core count, and the commit measured. The machine is shared: a figure taken under
a load average of 6 on 2 cores is not one taken on an idle machine, and the file says which it was."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]


def uptime() -> str:
    """``uptime``'s line (load averages over 1, 5 and 15 minutes), or the load averages alone without it."""
    try:
        return subprocess.run(["uptime"], capture_output=True, text=True, timeout=5, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "load average: " + ", ".join(f"{v:.2f}" for v in os.getloadavg())


def commit() -> str | None:
    """The measured commit (``git rev-parse HEAD``), with ``+dirty`` when the tree has uncommitted changes."""
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, timeout=5,
                              check=True).stdout.strip()
        # Results files being written by another benchmark of the same session are not a change of the code.
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--", ".",
                                ":(exclude)bench/results"], cwd=ROOT, capture_output=True, text=True, timeout=5,
                               check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None
    return head + ("+dirty" if dirty else "")


def machine_start() -> dict[str, Any]:
    return {"cores": os.cpu_count(), "commit": commit(), "uptime_at_start": uptime()}


def machine_end(record: dict[str, Any]) -> dict[str, Any]:
    return {**record, "uptime_at_end": uptime()}
