"""The expense desk (Django 5.2's admin + django-import-export) through prepare -> run --confirm -> evidence
verify in real Chromium, every task checked in the app's own sqlite database; the app's request log shows that
prepare sent nothing unsafe. Tasks today's browserops cannot do are in tasks.KNOWN_GAPS and must still fail as
recorded there (tests/realapps/suite.py); each task's Playwright peer is measured in bench/real_apps.py."""

from __future__ import annotations

from pathlib import Path

from tests.realapps import corpus
from tests.realapps.apps.django_admin import app as desk
from tests.realapps.apps.django_admin import tasks
from tests.realapps.harness import RunningApp
from tests.realapps.suite import app_tests

CORPUS_APP = "django_admin"
test_task = app_tests(CORPUS_APP, twice="edit_expense")


def test_a_value_the_admin_refuses_fails_the_run_and_saves_nothing(app: RunningApp, profile: Path,
                                                                    tmp_path: Path) -> None:
    desk.reseed(app)
    outcome = corpus.drive(app, tasks.REFUSED, tmp_path / "ws", profile)
    assert not outcome.unsafe_during_prepare, outcome.unsafe_during_prepare
    failed = outcome.failure()
    assert failed is not None and failed[:3] == ("run", 5, "BROWSER_SUBMIT_FAILED"), outcome.describe()
    # Django's re-rendered form marks the field aria-invalid: its message is the run's reason.
    assert "marked fields invalid: Date: the page marks it invalid: 'Enter a valid date.'" in failed[3], failed
    tasks.check_nothing_saved(app, [])
