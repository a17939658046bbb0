"""The expense desk (Django 5.2's admin + django-import-export) through prepare -> run --confirm -> evidence
verify in real Chromium, every task checked in the app's own sqlite database; the app's request log shows that
prepare sent nothing unsafe. Tasks today's browserops cannot do are in tasks.KNOWN_GAPS and must still fail as
recorded there."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.realapps.apps.django_admin import app as desk
from tests.realapps.apps.django_admin import tasks
from tests.realapps.corpus import Shots, Task, assert_done, assert_gap_holds, baseline_page, cli_json, drive
from tests.realapps.harness import RunningApp

pytestmark = pytest.mark.timeout(900)
BY_NAME = {task.name: task for task in [tasks.SIGN_IN, *tasks.TASKS, tasks.REFUSED]}
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
        assert_done(app, tasks.SIGN_IN, drive(app, tasks.SIGN_IN, tmp_path_factory.mktemp("ws"), folder))
    return folder


def test_sign_in_once_into_a_profile_then_prepare_is_signed_in(app: RunningApp, tmp_path: Path) -> None:
    desk.reseed(app)
    folder = tmp_path / "profile"
    assert_done(app, tasks.SIGN_IN, drive(app, tasks.SIGN_IN, tmp_path / "ws", folder))
    code, looked = cli_json(tmp_path / "ws", "prepare", "--steps", str(tasks.TASKS_DIR / "look_at_expenses.yaml"),
                            "--base-url", app.base_url, "--profile", str(folder))
    assert code == 0 and looked["status"] == "ok", looked


@pytest.mark.parametrize("name", PASSING)
def test_task_twice(app: RunningApp, profile: Path, tmp_path: Path, name: str) -> None:
    task = BY_NAME[name]
    for round_ in range(2 if task.twice else 1):
        desk.reseed(app)
        assert_done(app, task, drive(app, task, tmp_path / f"ws{round_}", profile))


@pytest.mark.parametrize("name", sorted(tasks.KNOWN_GAPS))
def test_known_gap_still_fails_as_recorded_and_saves_nothing(app: RunningApp, profile: Path, tmp_path: Path,
                                                             name: str) -> None:
    task = BY_NAME[name]
    desk.reseed(app)
    assert_gap_holds(app, task, drive(app, task, tmp_path / "ws", profile), tasks.KNOWN_GAPS[name])
    tasks.check_nothing_saved(app, [])


def test_a_value_the_admin_refuses_fails_the_run_and_saves_nothing(app: RunningApp, profile: Path,
                                                                    tmp_path: Path) -> None:
    desk.reseed(app)
    outcome = drive(app, tasks.REFUSED, tmp_path / "ws", profile)
    assert not outcome.unsafe_during_prepare, outcome.unsafe_during_prepare
    assert outcome.failure() is not None and outcome.failure()[:3] == ("run", 5, "BROWSER_SUBMIT_FAILED"), (
        outcome.describe())
    tasks.check_nothing_saved(app, [])


@pytest.mark.parametrize("name", [t.name for t in [tasks.SIGN_IN, *tasks.TASKS, tasks.REFUSED]])
async def test_playwright_baseline_does_the_task_and_the_check_sees_it(app: RunningApp, tmp_path: Path,
                                                                       name: str) -> None:
    task: Task = BY_NAME[name]
    desk.reseed(app)
    if task is not tasks.REFUSED:
        with pytest.raises(AssertionError):
            task.check(app, [])  # the seeded database does not pass the check
    async with baseline_page() as page:
        if task.profile:
            await tasks.sign_in(page, app.base_url)
        shots = Shots(tmp_path / "shots")
        await task.baseline(page, app.base_url, shots)
    task.check(app, sorted(p for p in shots.folder.iterdir() if p.suffix != ".png"))
