"""The newsroom (Wagtail 8.0.1) through prepare -> run --confirm -> evidence verify in real Chromium, every task
checked in the app's own sqlite database; the app's request log shows that prepare sent nothing unsafe. Tasks
today's browserops cannot do are in tasks.KNOWN_GAPS and must still fail as recorded there
(tests/realapps/suite.py); each task's Playwright peer is measured in bench/real_apps.py."""

from __future__ import annotations

from pathlib import Path

import yaml

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


def test_typed_tags_are_exactly_the_planned_list(app: RunningApp, profile: Path, tmp_path: Path) -> None:
    """Issue 35's case: ``launch, editor`` typed into Wagtail's Tags, whose help text says "A comma-separated list of
    tags". That value is the list {launch, editor}: typed an item at a time, each ended as the tag input makes a tag
    (never Enter), the page is published with exactly those tags added to the one it had (finance) — checked in
    Wagtail's database. (Typed whole, the field made ``launch`` at the comma and then a tag of the whole text.)"""
    steps = tmp_path / "type_tags.yaml"
    steps.write_text(yaml.safe_dump({"format_version": 1, "title": "Tag the quarterly results and publish",
                                     "startUrl": "/admin/pages/5/edit/", "steps": [
        {"kind": "fill", "field": "tags", "target": {"role": "textbox", "names": ["Tags"]}, "value": "launch, editor"},
        {"kind": "act", "title": "more actions", "target": {"role": "button", "names": ["More actions"]}},
        {"kind": "submit", "target": {"role": "button", "names": ["Publish"]},
         "expect": {"text": ["has been published"]}}]}), encoding="utf-8")
    newsroom.reseed(app)
    outcome = corpus.drive(app, corpus.Task("type_tags", steps, tasks.check_nothing_saved, tasks.baseline_add_tags),
                           tmp_path / "ws", profile)
    assert not outcome.unsafe_during_prepare, outcome.unsafe_during_prepare
    assert outcome.completed, outcome.describe()
    tasks._unchanged_apart_from(app, {"Quarterly results": tasks._seeded(
        app, "Quarterly results", tags=["editor", "finance", "launch"])})
