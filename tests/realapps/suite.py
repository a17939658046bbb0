"""The tests every corpus app gets, whatever its kit: each task once, and one task twice.

An app's test module is a few lines (see test_flask_admin.py)::

    CORPUS_APP = "flask_admin"
    test_task = app_tests(CORPUS_APP, twice="edit_customer")

plus the tests only that app needs (a value it refuses, a login wall). ``app_tests`` reads the app's ``tasks.py``:
``TASKS`` (a list or a dict of task records) and ``KNOWN_GAPS``. Each task runs once, on a fresh seed:

- its database check fails on the seed (else it checks nothing; read-only tasks are exempt);
- prepare -> run --confirm -> evidence verify through the real CLI, in the app's signed-in ``--profile`` (a fresh
  one for a sign-in task), and then either the task is done — nothing unsafe sent while preparing, the run
  complete, verify clean, the run's ledger is the app's own log, the check finds exactly the task's change — or,
  for a known gap, it fails exactly as recorded and saved nothing.

``twice`` names the one task done a second time right after, again on a fresh seed, in the same profile (None
while none of the app's tasks passes): the repeat
shows a run depends on nothing the first left behind (profile, workspace, evidence). Doing every task twice proved
the same thing once per task and doubled the corpus' time; the plain Playwright peer of each task is measured and
checked in bench/real_apps.py, not here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.realapps.catalogue import load
from tests.realapps.harness import RunningApp

AppTest = Callable[..., None]


def app_tests(name: str, *, twice: str | None) -> AppTest:
    """``test_task`` for the corpus app ``name``, parametrised by task; ``twice`` (None while no task of the app
    passes) is done a second time."""
    cat = load(name)
    tasks = {task.name: task for task in cat.all_tasks()}
    assert twice is None or (twice in tasks and tasks[twice].known_gap is None), (
        f"{name}: twice={twice!r} is not a passing task")

    @pytest.mark.parametrize("task", sorted(tasks))
    def test_task(app: RunningApp, profile: Path | None, tmp_path: Path, task: str) -> None:
        cat.reseed(app)
        tasks[task].assert_check_tells_the_seed_apart(app)
        tasks[task].assert_as_recorded(app, tmp_path / "attempt1", profile)
        if task == twice:  # the app's one repeat, on a fresh seed, in the same profile
            cat.reseed(app)
            tasks[task].assert_as_recorded(app, tmp_path / "attempt2", profile)

    test_task.__doc__ = (f"Each task of {name} once on a fresh seed, {twice!r} twice: done and in the database, or "
                         "failing as its known gap says (tests/realapps/suite.py).")
    return test_task
