"""Logging setup. browserops logs through ``logging`` only; records never carry page content or typed text."""

from __future__ import annotations

import logging
import sys

_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def setup_logging(level: str) -> None:
    root = logging.getLogger("browserops")
    root.setLevel(level)
    if not any(getattr(h, "_browserops", False) for h in root.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(logging.Formatter(_FORMAT, "%H:%M:%S"))
        handler._browserops = True  # type: ignore[attr-defined]
        root.addHandler(handler)
    root.propagate = False
