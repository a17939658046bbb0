"""Record and replay on the expense desk (Django 5.2's admin, issue #18.5): a scripted person does a task in their
own Chromium while ``browserops record --cdp-url`` watches; the step file it writes goes through ``prepare`` ->
``run --confirm`` -> ``evidence verify`` on a freshly seeded database, and the app's sqlite database must show the
change the person made (each task's own check from tasks.py: the whole expense table, seed + exactly that change).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import yaml
from playwright.async_api import Page

from tests.realapps import corpus
from tests.realapps.apps.django_admin import app as desk
from tests.realapps.apps.django_admin import tasks
from tests.realapps.harness import RunningApp
from tests.realapps.recording import Person, Watched, record_by_cdp, write

CORPUS_APP = "django_admin"

pytestmark = pytest.mark.timeout(900)
BY_NAME = {task.name: task for task in tasks.TASKS}


async def _edit_team_lunch(page: Page, seen: Watched) -> None:
    await page.get_by_role("spinbutton", name="Amount").fill("92.00")
    await page.get_by_role("checkbox", name="Billable").check()
    await seen.fields(2)
    await page.get_by_role("button", name="Save", exact=True).click()
    await seen.saw("submit:")


async def _delete_taxi(page: Page, seen: Watched) -> None:
    await page.get_by_role("link", name="Delete", exact=True).click()
    await seen.saw("click:")
    await page.get_by_role("button", name="Yes, I’m sure").click()
    await seen.saw("submit:")


async def _search_and_edit_hotel(page: Page, seen: Watched) -> None:
    await page.get_by_role("textbox", name="Search").fill("Hotel")
    await seen.fields(1)
    await page.get_by_role("button", name="Search").click()
    await seen.saw("submit:")
    await page.get_by_role("link", name="Hotel Lisbon").click()
    await seen.saw("click:")
    await page.get_by_role("spinbutton", name="Amount").fill("295.00")
    await seen.fields(1)
    await page.get_by_role("button", name="Save", exact=True).click()
    await seen.saw("submit:", 2)


async def _export_billable(page: Page, seen: Watched) -> None:
    await page.get_by_role("link", name="Yes", exact=True).click()
    await seen.saw("click:")
    await page.get_by_role("link", name="Export").click()
    await seen.saw("click:", 2)
    await page.get_by_label("Format").select_option(label="csv")
    await seen.fields(1)
    async with page.expect_download():
        await page.get_by_role("button", name="Submit").click()
    await seen.saw("export:")


async def _add_porto_flight(page: Page, seen: Watched) -> None:
    """Select2's AJAX autocomplete as a person uses it: open the widget, type part of the name, pick the option the
    server offers. The recording must be one ``select`` on the field a person sees, not the typing."""
    await page.get_by_role("textbox", name="Title").fill("Flight to Porto")
    await page.locator(".field-vendor .select2-selection").click()  # the widget has no name of its own
    await page.locator(".select2-search__field").fill("Tailsp")  # the dropdown's search box only exists while open
    await page.get_by_role("option", name="Tailspin Airlines", exact=True).click()
    await seen.fields(2)
    await page.get_by_role("spinbutton", name="Amount").fill("185.40")
    await page.get_by_role("textbox", name="Date").fill("2026-05-11")
    await page.get_by_role("textbox", name="Time").fill("07:45")
    await seen.fields(5)
    await page.get_by_role("button", name="Save", exact=True).click()
    await seen.saw("submit:")


async def _add_client_dinner(page: Page, seen: Watched) -> None:
    """The two-list chooser (two options moved to "Chosen") and the Billable tick, as a person does them."""
    await page.get_by_role("textbox", name="Title").fill("Client dinner")
    await page.get_by_role("listbox", name="Available tags").select_option(["client-x", "q4"])
    await page.get_by_role("button", name="Choose selected tags").click()
    await seen.fields(2)  # the title and the chosen list (the selection in "Available tags" was the way there)
    await page.get_by_role("spinbutton", name="Amount").fill("240.00")
    await page.get_by_role("checkbox", name="Billable").check()
    await page.get_by_role("textbox", name="Date").fill("2026-05-12")
    await page.get_by_role("textbox", name="Time").fill("20:15")
    await seen.fields(6)
    await page.get_by_role("button", name="Save", exact=True).click()
    await seen.saw("submit:")


PEOPLE: dict[str, tuple[str, Person]] = {
    "add_expense_with_vendor": ("/admin/expenses/expense/add/", _add_porto_flight),
    "add_expense_with_tags": ("/admin/expenses/expense/add/", _add_client_dinner),
    "edit_expense": ("/admin/expenses/expense/2/change/", _edit_team_lunch),
    "delete_expense": ("/admin/expenses/expense/4/change/", _delete_taxi),
    "search_and_edit": ("/admin/expenses/expense/", _search_and_edit_hotel),
    "export_billable": ("/admin/expenses/expense/", _export_billable),
}


@pytest.mark.parametrize("name", sorted(PEOPLE))
def test_a_recorded_task_replays_to_the_same_row(app: RunningApp, profile: Path, tmp_path: Path, name: str) -> None:
    desk.reseed(app)
    start, person = PEOPLE[name]
    recording = asyncio.run(record_by_cdp(profile, app.base_url + start, person, tmp_path))
    if name != "export_billable":  # (the person's download is theirs: the replay's export is checked)
        BY_NAME[name].check(app, [])  # the person did the task
    steps, inputs = write(recording, tmp_path, name)
    _business_steps(name, yaml.safe_load(steps.read_text(encoding="utf-8")), inputs)
    corpus.replay(app, desk.reseed, name, steps, inputs, tmp_path / "ws", profile, BY_NAME[name])


def _business_steps(name: str, doc: dict[str, object], inputs: dict[str, object]) -> None:
    """The widget tasks are recorded as what the person did to each field: one ``select`` of the vendor (not the
    typing in the dropdown's search box), the chosen tags as one list, the Billable tick as a ``check`` step."""
    steps = doc["steps"]
    assert isinstance(steps, list)
    fills = {s.get("field"): s for s in steps if s.get("kind") == "fill"}
    if name == "add_expense_with_vendor":
        vendor = [s for s in fills.values() if s.get("action") == "select"]
        assert len(vendor) == 1 and vendor[0]["target"]["role"] == "combobox", steps
        assert "Vendor" in str(vendor[0]["target"]["names"]), vendor
        assert inputs[vendor[0]["valueRef"]["key"]] == "Tailspin Airlines", inputs
        assert "Tailsp" not in inputs.values() and not any(s.get("kind") == "act" for s in steps), steps
    if name == "add_expense_with_tags":
        tags = [s for s in fills.values() if s.get("action") == "select"]
        assert len(tags) == 1 and sorted(inputs[tags[0]["valueRef"]["key"]]) == ["client-x", "q4"], (steps, inputs)
        ticks = [s for s in fills.values() if s.get("action") == "check"]
        assert len(ticks) == 1 and ticks[0]["target"]["names"] == ["Billable"], steps


async def _sign_in(page: Page, seen: Watched) -> None:
    await page.get_by_role("textbox", name="Username").fill(desk.USERNAME)
    await page.get_by_role("textbox", name="Password").fill(desk.PASSWORD)
    await seen.fields(2)
    await page.get_by_role("button", name="Log in").click()
    await seen.saw("submit:")


def test_a_recorded_sign_in_replays_into_a_fresh_profile(app: RunningApp, tmp_path: Path) -> None:
    """The password is recorded by key only; the replay into a fresh --profile signs in, and the next prepare
    with that profile finds the admin signed in."""
    desk.reseed(app)
    recording = asyncio.run(record_by_cdp(tmp_path / "person", app.base_url + "/admin/login/?next=/admin/",
                                          _sign_in, tmp_path))
    assert recording.sensitive == ["password"], recording.steps
    steps, inputs = write(recording, tmp_path, "sign_in", password=desk.PASSWORD)
    assert desk.PASSWORD not in steps.read_text(encoding="utf-8")
    outcome = corpus.replay(app, desk.reseed, "sign_in", steps, inputs, tmp_path / "ws",
                            tmp_path / "replay-profile", tasks.SIGN_IN)
    assert outcome.then_code == 0, outcome.then
