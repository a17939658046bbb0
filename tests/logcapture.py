"""Capturing every record of the ``browserops.*`` loggers at DEBUG, whatever ran before in the process.

``caplog.set_level(logging.DEBUG)`` sets the root logger only: when something earlier in the run turned the
``browserops`` logger to WARNING (or stopped its propagation), no DEBUG/INFO record of ``browserops.*`` is ever
created and a grep of the log for typed text passes on nothing. This fixture hangs its own handler on the
``browserops`` logger itself, sets that logger to DEBUG for the test and undoes both afterwards.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

_FORMAT = logging.Formatter("%(levelname)s %(name)s: %(message)s")


class BrowseropsLog(logging.Handler):
    """The records of one test, and their full text (message with its arguments, exception and stack)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def text(self) -> str:
        """Everything a log handler could write: the formatted record plus the raw arguments and extras."""
        lines = []
        for record in self.records:
            extras = {k: v for k, v in vars(record).items() if k not in _STANDARD}
            lines.append(f"{_FORMAT.format(record)} args={record.args!r} extra={extras!r}")
        return "\n".join(lines)

    def debug_names(self) -> set[str]:
        """The loggers that wrote at DEBUG: proof that DEBUG records were created at all."""
        return {r.name for r in self.records if r.levelno == logging.DEBUG}


_STANDARD = set(vars(logging.LogRecord("x", logging.DEBUG, "x", 0, "x", None, None))) | {"message", "asctime"}


@pytest.fixture
def browserops_log() -> Iterator[BrowseropsLog]:
    logger = logging.getLogger("browserops")
    handler = BrowseropsLog()
    level, disabled = logger.level, logger.manager.disable
    logging.disable(logging.NOTSET)
    logger.setLevel(logging.DEBUG)
    logger.addHandler(handler)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
        logging.disable(disabled)
