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

``twice`` names the one task done a second time right after, again on a fresh seed, in the same signed-in profile:
the repeat shows a run depends on nothing the first left behind in the profile it shares (cookies, cache, the
session browserops saves there). It is None for an app whose tasks run in no shared profile (react-admin, Element
Plus, refine: each phase a fresh browser, each attempt a fresh workspace, the app reseeded), where a second attempt
would run the same thing again in the same conditions (issue 37: it cost 8-9 CPU s an app and proved nothing the
first did not), and while none of an app's tasks passes. Doing every task twice proved the same thing once per task
and doubled the corpus' time; the plain Playwright peer of each task is measured and checked in bench/real_apps.py,
not here.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tests.realapps.catalogue import load
from tests.realapps.harness import RunningApp

AppTest = Callable[..., None]


def app_tests(name: str, *, twice: str | None) -> AppTest:
    """``test_task`` for the corpus app ``name``, parametrised by task; ``twice`` is done a second time (None for
    an app without a signed-in profile, or while none of its tasks passes)."""
    cat = load(name)
    tasks = {task.name: task for task in cat.all_tasks()}
    assert twice is None or (twice in tasks and tasks[twice].known_gap is None), (
        f"{name}: twice={twice!r} is not a passing task")
    shared_profile = hasattr(cat.tasks, "sign_in")
    assert twice is None or shared_profile, (
        f"{name}: its tasks share no profile, so a repeat proves nothing the first attempt did not: twice=None")
    assert twice is not None or not shared_profile or all(t.known_gap for t in tasks.values() if t.signed_in), (
        f"{name}: its tasks share a signed-in profile: name a passing task done twice")

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
