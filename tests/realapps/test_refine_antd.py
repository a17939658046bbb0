"""Refine 5 + Ant Design 5 in Simplified Chinese over json-server 0.17.4, through browserops' two phases in real
Chromium; db.json is the proof.

One json-server per module, reseeded (seed file copied, json-server told to re-read it) before every attempt.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.realapps.apps.refine_antd import app as desk
from tests.realapps.apps.refine_antd.tasks import KNOWN_GAPS, TASKS, check_unchanged
from tests.realapps.corpus_checks import assert_done, assert_gap_holds, run_baseline
from tests.realapps.harness import RunningApp
from tests.realapps.twophase import two_phase

PASSING = sorted(set(TASKS) - set(KNOWN_GAPS))


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningApp]:
    with desk.start(tmp_path_factory.mktemp("refine-antd")) as running:
        yield running


# Defined only while some task passes: an empty parametrisation would show as a skipped test.
if PASSING:
    @pytest.mark.parametrize("name", PASSING)
    def test_task_done_and_in_the_database(app: RunningApp, name: str, tmp_path: Path) -> None:
        task = TASKS[name]
        desk.reseed(app)
        assert_done(app, task, two_phase(tmp_path / "ws", app, task))


if KNOWN_GAPS:
    @pytest.mark.parametrize("name", sorted(KNOWN_GAPS))
    def test_known_gap_still_fails_as_recorded(app: RunningApp, name: str, tmp_path: Path) -> None:
        desk.reseed(app)
        outcome = two_phase(tmp_path / "ws", app, TASKS[name])
        assert_gap_holds(app, TASKS[name], outcome, KNOWN_GAPS[name], check_unchanged)


@pytest.mark.parametrize("name", sorted(TASKS))
async def test_baseline_playwright_script_does_the_task(app: RunningApp, name: str, tmp_path: Path) -> None:
    """The plain Playwright peer of each task does it, and its check tells the seed from the done task."""
    task = TASKS[name]
    desk.reseed(app)
    with pytest.raises(AssertionError):
        task.check(app)
    await run_baseline(app, task, tmp_path / "shots")
    task.check(app)
