"""react-admin 5.15 over json-server 0.17.4, through browserops' two phases in real Chromium; db.json is the proof.

One json-server per module, reseeded (seed file copied, json-server told to re-read it) before every attempt.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.realapps.apps.react_admin import app as desk
from tests.realapps.apps.react_admin.tasks import KNOWN_GAPS, TASKS, check_unchanged
from tests.realapps.corpus_checks import assert_done, assert_gap_holds, run_baseline
from tests.realapps.harness import RunningApp
from tests.realapps.twophase import CorpusTask, two_phase

PASSING = sorted(set(TASKS) - set(KNOWN_GAPS))


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningApp]:
    with desk.start(tmp_path_factory.mktemp("react-admin")) as running:
        yield running


@pytest.mark.parametrize("name", PASSING)
def test_task_done_twice_and_in_the_database(app: RunningApp, name: str, tmp_path: Path) -> None:
    task = TASKS[name]
    for attempt in (1, 2):  # twice in a row, each on a fresh seed
        desk.reseed(app)
        outcome = two_phase(tmp_path / f"ws{attempt}", app, task)
        assert_done(app, task, outcome)


@pytest.mark.parametrize("name", sorted(KNOWN_GAPS))
def test_known_gap_still_fails_as_recorded(app: RunningApp, name: str, tmp_path: Path) -> None:
    desk.reseed(app)
    outcome = two_phase(tmp_path / "ws", app, TASKS[name])
    assert_gap_holds(app, TASKS[name], outcome, KNOWN_GAPS[name], check_unchanged)


def test_a_rejected_save_saves_nothing(app: RunningApp, tmp_path: Path) -> None:
    """The segment form without its required name: the desk refuses to save, the run fails, db.json is as seeded."""
    desk.reseed(app)
    doc = yaml.safe_load(TASKS["create_segment"].steps.read_text(encoding="utf-8"))
    doc["steps"] = [step for step in doc["steps"] if step.get("field") != "name"]
    steps = tmp_path / "nameless_segment.yaml"
    steps.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    task = CorpusTask("nameless_segment", steps, check_unchanged, TASKS["create_segment"].baseline,
                      inputs=TASKS["create_segment"].inputs)
    outcome = two_phase(tmp_path / "ws", app, task)
    assert outcome.prepare_requests.unsafe == []
    failure = outcome.failure() or ""
    assert failure.startswith("run BROWSER_SUBMIT_FAILED"), outcome.describe()
    assert outcome.run_requests is not None and outcome.run_requests.unsafe == []
    check_unchanged(app)


@pytest.mark.parametrize("name", sorted(TASKS))
async def test_baseline_playwright_script_does_the_task(app: RunningApp, name: str, tmp_path: Path) -> None:
    """The plain Playwright peer of each task does it, and its check tells the seed from the done task."""
    task = TASKS[name]
    desk.reseed(app)
    if task.changes_data:
        with pytest.raises(AssertionError):
            task.check(app)
    await run_baseline(app, task, tmp_path / "shots")
    task.check(app)
    if task.check_bundle is not None:
        task.check_bundle(app, tmp_path / "shots")  # the script keeps exports/ and snapshots/ as a bundle does
