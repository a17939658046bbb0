"""Flask-Admin 2.2 (Flask-SQLAlchemy, Flask-Login) through browserops' two phases in real Chromium; the sqlite
database is the proof.

One server per session (tests/realapps/conftest.py), reseeded with sqlite's backup API before every attempt. The
office's tasks run in a ``--profile`` that signed in once with "Remember me"; the sign-in tasks make their own fresh
profile. The tasks every app gets are in tests/realapps/suite.py.
"""

from __future__ import annotations

from pathlib import Path

import yaml

from tests.realapps.apps.flask_admin import app as office
from tests.realapps.apps.flask_admin.tasks import TASKS, check_unchanged
from tests.realapps.harness import RunningApp
from tests.realapps.suite import app_tests
from tests.realapps.twophase import CorpusTask, two_phase

CORPUS_APP = "flask_admin"
test_task = app_tests(CORPUS_APP, twice="edit_customer")


def test_a_rejected_save_saves_nothing(app: RunningApp, profile: Path, tmp_path: Path) -> None:
    """A second customer named Relecloud: the unique name makes Flask-Admin refuse the record ("Failed to create
    record"), the run fails on its expectation, and the database is as seeded."""
    office.reseed(app)
    doc = yaml.safe_load(TASKS["create_customer_tags"].steps.read_text(encoding="utf-8"))
    doc["steps"] = [step for step in doc["steps"] if step.get("field") != "tags"]
    next(step for step in doc["steps"] if step.get("field") == "name")["value"] = "Relecloud"
    steps = tmp_path / "duplicate_customer.yaml"
    steps.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    task = CorpusTask("duplicate_customer", steps, check_unchanged, TASKS["create_customer_tags"].baseline)
    outcome = two_phase(tmp_path / "ws", app, task, profile=profile)
    assert outcome.prepare_requests.unsafe == []
    assert (outcome.failure() or "").startswith("run BROWSER_SUBMIT_FAILED"), outcome.describe()
    assert outcome.run_requests is not None and outcome.run_requests.unsafe == ["POST /admin/customer/new/ 200"]
    check_unchanged(app)
