"""The expense desk (Django 5.2's admin + django-import-export) through prepare -> run --confirm -> evidence
verify in real Chromium, every task checked in the app's own sqlite database; the app's request log shows that
prepare sent nothing unsafe. Tasks today's browserops cannot do are in tasks.KNOWN_GAPS and must still fail as
recorded there; each task's Playwright peer is shown to pass the same check."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.realapps import corpus
from tests.realapps.apps.django_admin import app as desk
from tests.realapps.apps.django_admin import tasks
from tests.realapps.harness import RunningApp

pytestmark = pytest.mark.timeout(900)
BY_NAME = {task.name: task for task in [*tasks.TASKS, tasks.REFUSED]}
PASSING = [t.name for t in tasks.TASKS if t.name not in tasks.KNOWN_GAPS]


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningApp]:
    with desk.start(tmp_path_factory.mktemp("django_admin")) as running:
        yield running


@pytest.fixture(scope="module")
def profile(app: RunningApp, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A browser profile signed in to the admin through browserops itself (the sign_in task, run once)."""
    folder = tmp_path_factory.mktemp("profile") / "profile"
    with pytest.MonkeyPatch.context() as env:
        env.setenv("BROWSEROPS_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
        desk.reseed(app)
        corpus.assert_done(app, tasks.SIGN_IN, corpus.drive(app, tasks.SIGN_IN, tmp_path_factory.mktemp("ws"), folder))
    return folder


@pytest.mark.parametrize("name", PASSING)
def test_task_done_twice_and_in_the_database(app: RunningApp, profile: Path, tmp_path: Path, name: str) -> None:
    corpus.do_task_twice(app, desk.reseed, BY_NAME[name], tmp_path, profile)


# Defined only while the app has known gaps: an empty parametrisation would show as a skipped test.
if tasks.KNOWN_GAPS:
    @pytest.mark.parametrize("name", sorted(tasks.KNOWN_GAPS))
    def test_known_gap_still_fails_as_recorded_and_saves_nothing(app: RunningApp, profile: Path, tmp_path: Path,
                                                                 name: str) -> None:
        corpus.gap_still_holds(app, desk.reseed, BY_NAME[name], tasks.KNOWN_GAPS[name], tmp_path, profile,
                               tasks.check_nothing_saved)


def test_a_value_the_admin_refuses_fails_the_run_and_saves_nothing(app: RunningApp, profile: Path,
                                                                    tmp_path: Path) -> None:
    desk.reseed(app)
    outcome = corpus.drive(app, tasks.REFUSED, tmp_path / "ws", profile)
    assert not outcome.unsafe_during_prepare, outcome.unsafe_during_prepare
    failed = outcome.failure()
    assert failed is not None and failed[:3] == ("run", 5, "BROWSER_SUBMIT_FAILED"), outcome.describe()
    tasks.check_nothing_saved(app, [])


@pytest.mark.parametrize("name", sorted(BY_NAME))
async def test_playwright_baseline_does_the_task_and_the_check_sees_it(app: RunningApp, tmp_path: Path,
                                                                       name: str) -> None:
    await corpus.baseline_passes_check(app, desk.reseed, BY_NAME[name], tmp_path, tasks.sign_in,
                                       refused=BY_NAME[name] is tasks.REFUSED)
