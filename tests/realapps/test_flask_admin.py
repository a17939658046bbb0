"""Flask-Admin 2.2 (Flask-SQLAlchemy, Flask-Login) through browserops' two phases in real Chromium; the sqlite
database is the proof.

One server per module, reseeded with sqlite's backup API before every attempt. The office's tasks run in a
``--profile`` that signed in once with "Remember me"; the sign-in tasks make their own fresh profile.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.realapps.apps.flask_admin import app as office
from tests.realapps.apps.flask_admin.tasks import KNOWN_GAPS, TASKS, check_unchanged
from tests.realapps.corpus_checks import assert_done, assert_gap_holds, run_baseline
from tests.realapps.harness import RunningApp
from tests.realapps.twophase import CorpusTask, two_phase

PASSING = sorted(set(TASKS) - set(KNOWN_GAPS))


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningApp]:
    with office.start(tmp_path_factory.mktemp("flask-admin")) as running:
        yield running


@pytest.fixture(scope="module")
def remembered(app: RunningApp, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A profile signed in once with "Remember me", as the README tells a person to do."""
    profile = tmp_path_factory.mktemp("office-profile")
    asyncio.run(office.remembered_profile(app, profile))
    return profile


def _profile(task: CorpusTask, remembered: Path, tmp_path: Path, attempt: int) -> Path:
    return tmp_path / f"fresh-profile{attempt}" if task.fresh_profile else remembered


@pytest.mark.parametrize("name", PASSING)
def test_task_done_twice_and_in_the_database(app: RunningApp, remembered: Path, name: str, tmp_path: Path) -> None:
    task = TASKS[name]
    for attempt in (1, 2):  # twice in a row, each on a fresh seed
        office.reseed(app)
        outcome = two_phase(tmp_path / f"ws{attempt}", app, task, profile=_profile(task, remembered, tmp_path, attempt))
        assert_done(app, task, outcome)


# Defined only while the app has known gaps: an empty parametrisation would show as a skipped test.
if KNOWN_GAPS:
    @pytest.mark.parametrize("name", sorted(KNOWN_GAPS))
    def test_known_gap_still_fails_as_recorded(app: RunningApp, remembered: Path, name: str, tmp_path: Path) -> None:
        task = TASKS[name]
        office.reseed(app)
        outcome = two_phase(tmp_path / "ws", app, task, profile=_profile(task, remembered, tmp_path, 1))
        assert_gap_holds(app, task, outcome, KNOWN_GAPS[name], check_unchanged)


def test_a_rejected_save_saves_nothing(app: RunningApp, remembered: Path, tmp_path: Path) -> None:
    """A second customer named Relecloud: the unique name makes Flask-Admin refuse the record ("Failed to create
    record"), the run fails on its expectation, and the database is as seeded."""
    office.reseed(app)
    doc = yaml.safe_load(TASKS["create_customer_tags"].steps.read_text(encoding="utf-8"))
    doc["steps"] = [step for step in doc["steps"] if step.get("field") != "tags"]
    next(step for step in doc["steps"] if step.get("field") == "name")["value"] = "Relecloud"
    steps = tmp_path / "duplicate_customer.yaml"
    steps.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    task = CorpusTask("duplicate_customer", steps, check_unchanged, TASKS["create_customer_tags"].baseline)
    outcome = two_phase(tmp_path / "ws", app, task, profile=remembered)
    assert outcome.prepare_requests.unsafe == []
    assert (outcome.failure() or "").startswith("run BROWSER_SUBMIT_FAILED"), outcome.describe()
    assert outcome.run_requests is not None and outcome.run_requests.unsafe == ["POST /admin/customer/new/ 200"]
    check_unchanged(app)


@pytest.mark.parametrize("name", sorted(TASKS))
async def test_baseline_playwright_script_does_the_task(app: RunningApp, name: str, tmp_path: Path) -> None:
    """The plain Playwright peer of each task does it, and its check tells the seed from the done task."""
    task = TASKS[name]
    office.reseed(app)
    if task.changes_data:
        with pytest.raises(AssertionError):
            task.check(app)
    await run_baseline(app, task, tmp_path / "shots")
    task.check(app)
    if task.check_bundle is not None:
        task.check_bundle(app, tmp_path / "shots")  # the script keeps exports/ and snapshots/ as a bundle does
