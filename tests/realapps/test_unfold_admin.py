"""Django 5.2's admin under django-unfold 0.91 in Russian, through browserops' two phases in real Chromium; the
sqlite database is the proof.

One server per session (tests/realapps/conftest.py), reseeded (a fresh copy of the seeded file) before every
attempt; the tasks run in a ``--profile`` signed in once on the desk's Russian sign-in page. The tests every app gets
are in tests/realapps/suite.py; each task's plain Playwright peer runs in bench/real_apps.py.
"""

from __future__ import annotations

from tests.realapps.suite import app_tests

CORPUS_APP = "unfold_admin"
test_task = app_tests(CORPUS_APP, twice="edit_order")
