"""Record and replay on the newsroom (Wagtail 8.0.1, issue #18.5): a scripted person does a task in their own
Chromium while ``browserops record --cdp-url`` watches; the step file it writes goes through ``prepare`` ->
``run --confirm`` -> ``evidence verify`` on a freshly seeded database, and Wagtail's sqlite database must show the
change the person made (each task's own check from tasks.py: every news page, the authors and the page count)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from playwright.async_api import Page

from tests.realapps import corpus
from tests.realapps.apps.wagtail_site import app as newsroom
from tests.realapps.apps.wagtail_site import tasks
from tests.realapps.harness import RunningApp
from tests.realapps.recording import Person, Watched, record_by_cdp, write

CORPUS_APP = "wagtail_site"

pytestmark = pytest.mark.timeout(900)
BY_NAME = {task.name: task for task in tasks.TASKS}


async def _add_author(page: Page, seen: Watched) -> None:
    await page.get_by_role("textbox", name="Name").fill("Bruno Costa")
    await page.get_by_role("textbox", name="Job title").fill("Photographer")
    await page.get_by_role("textbox", name="Email").fill("bruno@example.com")
    await seen.fields(3)
    await page.get_by_role("button", name="Save").click()
    await seen.saw("submit:")


async def _delete_parking_rules(page: Page, seen: Watched) -> None:
    await page.get_by_role("button", name="Actions", exact=True).click()
    await seen.saw("click:")
    await page.get_by_role("link", name="Delete", exact=True).click()
    await seen.saw("click:", 2)
    await page.get_by_role("button", name="Yes, delete it").click()
    await seen.saw("submit:")


async def _find_summer_party(page: Page, seen: Watched) -> None:
    await page.get_by_role("textbox", name="Search", exact=True).fill("summer")
    await seen.fields(1)
    await page.get_by_role("button", name="Search", exact=True).first.click()
    await seen.saw("submit:")
    await page.get_by_role("link", name="Summer party").click()
    await seen.saw("click:")
    await page.get_by_role("textbox", name="Intro").fill("Everyone and their families are invited.")
    await seen.fields(1)
    await page.get_by_role("button", name="Save draft").click()
    await seen.saw("submit:", 2)


PEOPLE: dict[str, tuple[str, Person]] = {
    "create_snippet": ("/admin/snippets/news/author/add/", _add_author),
    "delete_page": ("/admin/pages/7/edit/", _delete_parking_rules),
    "search_and_open": ("/admin/", _find_summer_party),
}


@pytest.mark.parametrize("name", sorted(PEOPLE))
def test_a_recorded_task_replays_to_the_same_row(app: RunningApp, profile: Path, tmp_path: Path, name: str) -> None:
    newsroom.reseed(app)
    start, person = PEOPLE[name]
    recording = asyncio.run(record_by_cdp(profile, app.base_url + start, person, tmp_path))
    BY_NAME[name].check(app, [])  # the person did the task
    steps, inputs = write(recording, tmp_path, name)
    corpus.replay(app, newsroom.reseed, name, steps, inputs, tmp_path / "ws", profile, BY_NAME[name])


async def _sign_in_remembered(page: Page, seen: Watched) -> None:
    await page.get_by_label("Username").fill(newsroom.USERNAME)
    await page.get_by_label("Password").fill(newsroom.PASSWORD)
    await page.get_by_role("checkbox", name="Remember me").check()
    await seen.fields(3)
    await page.get_by_role("button", name="Sign in").click()
    await seen.saw("submit:")


def test_a_recorded_sign_in_with_remember_me_replays_into_a_fresh_profile(app: RunningApp, tmp_path: Path) -> None:
    """The password recorded by key only, "Remember me" as a ticked box; the replay into a fresh --profile signs
    in, and the next prepare with that profile finds the newsroom signed in."""
    newsroom.reseed(app)
    recording = asyncio.run(record_by_cdp(tmp_path / "person", app.base_url + "/admin/login/?next=/admin/",
                                          _sign_in_remembered, tmp_path))
    assert recording.sensitive == ["password"] and recording.inputs.get("remember_me") is True, recording.steps
    steps, inputs = write(recording, tmp_path, "sign_in", password=newsroom.PASSWORD)
    assert newsroom.PASSWORD not in steps.read_text(encoding="utf-8")
    like = corpus.Task("sign_in", steps, tasks.check_sign_in, tasks.baseline_sign_in, profile=False,
                       then=tasks.TASKS_DIR / "look_at_news.yaml")
    outcome = corpus.replay(app, newsroom.reseed, "sign_in", steps, inputs, tmp_path / "ws",
                            tmp_path / "replay-profile", like)
    assert outcome.then_code == 0, outcome.then
