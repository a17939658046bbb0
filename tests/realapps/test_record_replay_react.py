"""Record and replay on the customer desk (react-admin 5.15 over json-server, issue #18.5): a scripted person signs
in and does a task in their own Chromium while ``browserops record --cdp-url`` watches; the step file it writes
(the password by key only) goes through ``prepare`` -> ``run --confirm`` -> ``evidence verify`` on a freshly seeded
db.json, which must show the change the person made (each task's own check from tasks.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from playwright.async_api import Page

from tests.realapps.apps.react_admin import app as desk
from tests.realapps.apps.react_admin.tasks import TASKS
from tests.realapps.corpus_checks import assert_done
from tests.realapps.harness import RunningApp
from tests.realapps.recording import Person, Watched, record_by_cdp, write
from tests.realapps.twophase import CorpusTask, two_phase

CORPUS_APP = "react_admin"

pytestmark = pytest.mark.timeout(900)


async def _sign_in(page: Page, seen: Watched) -> None:
    """The desk keeps its session in sessionStorage: every new browser signs in first."""
    await page.get_by_role("textbox", name="Username").fill(desk.USERNAME)
    await page.get_by_role("textbox", name="Password").fill(desk.PASSWORD)
    await seen.fields(2)
    await page.get_by_role("button", name="Sign in").click()
    await page.get_by_text("Welcome to the customer desk").wait_for()
    await until_steps(seen, 3)


async def until_steps(seen: Watched, count: int) -> None:
    from tests.realapps.recording import until

    await until(lambda: len(seen.recorder.recording.steps) >= count, f"{count} steps recorded")


async def _create_segment(page: Page, seen: Watched) -> None:
    await _sign_in(page, seen)
    await page.get_by_role("menuitem", name="Segments").click()
    await until_steps(seen, 4)
    await page.get_by_role("link", name="Create").click()
    await until_steps(seen, 5)
    await page.get_by_role("textbox", name="Name").fill("Nonprofit")
    await page.get_by_role("textbox", name="Description").fill("Charities and foundations")
    await seen.fields(2)
    await page.get_by_role("button", name="Save", exact=True).click()
    await page.get_by_text("Element created").first.wait_for()
    await until_steps(seen, 8)


async def _export_customers(page: Page, seen: Watched) -> None:
    await _sign_in(page, seen)
    await page.get_by_role("menuitem", name="Customers").click()
    await until_steps(seen, 4)
    await page.get_by_role("cell", name="Adatum Corporation").wait_for()
    async with page.expect_download():
        await page.get_by_role("button", name="Export").click()
    await seen.saw("export:")


PEOPLE: dict[str, Person] = {
    "create_segment": _create_segment,
    "export_customers": _export_customers,
}


@pytest.mark.parametrize("name", sorted(PEOPLE))
def test_a_recorded_task_replays_to_the_same_row(app: RunningApp, tmp_path: Path, name: str) -> None:
    desk.reseed(app)
    recording = asyncio.run(record_by_cdp(tmp_path / "person", app.base_url + "/#/login", PEOPLE[name], tmp_path))
    like = TASKS[name]
    if like.changes_data:
        like.check(app)  # the person did the task
    assert recording.sensitive == ["password"], recording.steps
    steps, inputs = write(recording, tmp_path, name, password=desk.PASSWORD)
    assert desk.PASSWORD not in steps.read_text(encoding="utf-8")
    desk.reseed(app)  # the person's own change is undone: the replay must make it again
    task = CorpusTask(name, steps, like.check, like.baseline, inputs=inputs, check_bundle=like.check_bundle,
                      changes_data=like.changes_data)
    assert_done(app, task, two_phase(tmp_path / "ws", app, task))
