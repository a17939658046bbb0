"""The newsroom (Wagtail 8.0.1) through prepare -> run --confirm -> evidence verify in real Chromium, every task
checked in the app's own sqlite database; the app's request log shows that prepare sent nothing unsafe. Tasks
today's browserops cannot do are in tasks.KNOWN_GAPS and must still fail as recorded there
(tests/realapps/suite.py); each task's Playwright peer is measured in bench/real_apps.py."""

from __future__ import annotations

from pathlib import Path

from tests.realapps import corpus
from tests.realapps.apps.wagtail_site import app as newsroom
from tests.realapps.apps.wagtail_site import tasks
from tests.realapps.harness import RunningApp
from tests.realapps.suite import app_tests

CORPUS_APP = "wagtail_site"
test_task = app_tests(CORPUS_APP, twice="edit_and_publish")


def test_a_page_wagtail_refuses_fails_the_run_and_saves_nothing(app: RunningApp, profile: Path,
                                                                tmp_path: Path) -> None:
    newsroom.reseed(app)
    outcome = corpus.drive(app, tasks.REFUSED, tmp_path / "ws", profile)
    assert not outcome.unsafe_during_prepare, outcome.unsafe_during_prepare
    failed = outcome.failure()
    assert failed is not None and failed[:3] == ("run", 5, "BROWSER_SUBMIT_FAILED"), outcome.describe()
    tasks.check_nothing_saved(app, [])
