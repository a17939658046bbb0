"""The logging level is set where the command line starts (``main``), never by loading settings in-process."""

from __future__ import annotations

import logging
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from browserops.cli import cli, main


def test_a_command_run_in_process_leaves_the_browserops_logger_alone(tmp_path: Path) -> None:
    (tmp_path / "browserops.toml").write_text('log_level = "ERROR"\n')
    logger = logging.getLogger("browserops")
    before = (logger.level, logger.propagate, list(logger.handlers))
    result = CliRunner().invoke(cli, ["--workspace", str(tmp_path), "config", "show"])
    assert result.exit_code == 0, result.output
    assert (logger.level, logger.propagate, list(logger.handlers)) == before


def test_the_process_entry_sets_the_level_from_the_settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "browserops.toml").write_text('log_level = "ERROR"\n')
    logger = logging.getLogger("browserops")
    before = (logger.level, logger.propagate, list(logger.handlers))
    monkeypatch.setattr(sys, "argv", ["browserops", "--workspace", str(tmp_path), "config", "show"])
    try:
        with pytest.raises(SystemExit) as exited:
            main()
        assert exited.value.code == 0
        assert logger.level == logging.ERROR and logger.propagate is False
    finally:
        for handler in [h for h in logger.handlers if h not in before[2]]:
            logger.removeHandler(handler)
        logger.setLevel(before[0])
        logger.propagate = before[1]
