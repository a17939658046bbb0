"""Refine 5 + Ant Design 5 in Simplified Chinese over json-server 0.17.4, through browserops' two phases in real
Chromium; db.json is the proof.

One json-server per session (tests/realapps/conftest.py), reseeded (seed file copied, json-server told to re-read it)
before every attempt; the tests every app gets are in tests/realapps/suite.py, each task's plain Playwright peer runs
in bench/real_apps.py. No task is done twice: the tasks share no profile (suite.py).
"""

from __future__ import annotations

from tests.realapps.suite import app_tests

CORPUS_APP = "refine_antd"
test_task = app_tests(CORPUS_APP, twice=None)  # no shared profile: suite.py
