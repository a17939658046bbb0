"""Who holds a workspace lane, in words: the record each backend keeps of its holder, and the waiting message.

Shared by both lane backends (:mod:`browserops.lane.file_lane`, :mod:`browserops.lane.redis_lane`), so neither
imports the other.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any


def holder_record(extra: Mapping[str, Any]) -> dict[str, Any]:
    """Who holds a lane, for the waiting message: pid, host, since, plus what the caller adds (requestId...)."""
    return {"pid": os.getpid(), "host": os.uname().nodename,
            "since": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"), **extra}


def busy_message(workspace: Path, who: Mapping[str, Any]) -> str:
    parts = [f"pid {who['pid']}" if "pid" in who else "another process"]
    if who.get("host") and who.get("host") != os.uname().nodename:
        parts[0] += f" on {who['host']}"
    if who.get("requestId"):
        parts.append(f"running {who['requestId']}")
    if who.get("since"):
        parts.append(f"since {who['since']}")
    return f"The browser lane of workspace {workspace} is busy ({', '.join(parts)})"
