"""Record a corpus task while a scripted person does it, then replay the recording (issue #18.5): Flask-Admin 2.2
in real Chromium, the person clicking through the app as people do (the row's edit icon, the form, Save, the
confirm() of a delete), ``record`` watching; the step file it writes goes through ``prepare`` -> ``run --confirm``
-> ``evidence verify`` and the app's sqlite database must show the same change the person made (the delete's
confirm() answered as the person answered it)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import cast

import pytest
from playwright.async_api import Page

from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.cli.record_cmd import record_session, write_recording
from browserops.config import Settings
from browserops.plan.record.recorder import Recorder, Recording
from browserops.tools.context import ToolContext
from tests.plan_e2e.test_record import until
from tests.realapps.apps.flask_admin import app as office
from tests.realapps.apps.flask_admin.tasks import TASKS, check_export_file
from tests.realapps.corpus_checks import assert_done
from tests.realapps.harness import RunningApp
from tests.realapps.twophase import CorpusTask, two_phase

CORPUS_APP = "flask_admin"

Person = Callable[[Page, Recorder, list[str]], Awaitable[None]]


async def _record(profile: Path, url: str, person: Person, workspace: Path) -> Recording:
    """Record in the signed-in profile while ``person`` works; the profile is free again afterwards."""
    async with BrowserSession(SessionOptions(mode="persistent", profile_dir=profile)) as session:
        ctx = ToolContext(session=session, settings=Settings(), workspace=workspace)
        lines: list[str] = []
        recorders: list[Recorder] = []
        stop = asyncio.Event()
        task = asyncio.create_task(record_session(session, ctx, url, lines.append, stop, recorders))
        await until(lambda: any(line.startswith("Recording:") for line in lines) or task.done(), "the recorder")
        try:
            await person(session.page, recorders[0], lines)
        finally:
            stop.set()
        return await asyncio.wait_for(task, 60)


async def _edit_northwind(page: Page, recorder: Recorder, lines: list[str]) -> None:
    await page.get_by_role("textbox", name="Email").fill("billing@northwindtraders.example")
    await page.get_by_role("textbox", name="City").fill("Trondheim")
    await until(lambda: len(recorder.pending_fields) == 2, "both fields seen")
    await page.get_by_role("button", name="Save", exact=True).click()
    await until(lambda: any(line.startswith("submit:") for line in lines), "the save")


async def _export_customers(page: Page, recorder: Recorder, lines: list[str]) -> None:
    await page.get_by_role("link", name="Export").click()
    await until(lambda: any(line.startswith("export:") for line in lines), "the export")


async def _open_northwind(page: Page, recorder: Recorder, lines: list[str]) -> None:
    await page.locator("tr", has_text="Northwind Traders").get_by_title("Edit Record").click()
    await until(lambda: any(line.startswith("click:") for line in lines), "the edit icon")


def _inputs(recording: Recording, **secrets: str) -> dict[str, str]:
    """The recorded input values (booleans and lists kept as they are: the input file is YAML), secrets added."""
    return cast(dict[str, str], {**recording.inputs, **secrets})


def _the_export(app: RunningApp, bundle: Path) -> None:
    """The one file the run exported (named as the site suggested when the person downloaded it)."""
    exported, = (bundle / "exports").iterdir()
    check_export_file(app, exported)


async def _delete_wingtip(page: Page, recorder: Recorder, lines: list[str]) -> None:
    page.once("dialog", lambda dialog: dialog.accept())  # "Are you sure you want to delete this record?": OK
    await page.locator("tr", has_text="Wingtip Toys").get_by_title("Delete Record").click()
    await until(lambda: any(line.startswith("dialog:") for line in lines), "the answer")
    await until(lambda: bool(recorder.recording.steps[-1].get("expect")), "the page after it")


async def _sign_in_remembered(page: Page, recorder: Recorder, lines: list[str]) -> None:
    await page.get_by_role("textbox", name="Username").fill(office.USERNAME)
    await page.get_by_role("textbox", name="Password").fill(office.PASSWORD)
    await page.get_by_role("checkbox", name="Remember me").check()
    await until(lambda: len(recorder.pending_fields) == 3, "the three fields seen")
    await page.get_by_role("button", name="Sign in").click()
    await until(lambda: any(line.startswith("submit:") for line in lines), "the sign-in")


PEOPLE: dict[str, tuple[str, Person]] = {
    "delete_customer": ("/admin/customer/?search=Wingtip+Toys", _delete_wingtip),
    "edit_customer": ("/admin/customer/edit/?id=12", _edit_northwind),
    "export_customers": ("/admin/customer/", _export_customers),
}


@pytest.mark.parametrize("name", sorted(PEOPLE))
def test_a_recorded_task_replays_to_the_same_row(app: RunningApp, profile: Path, tmp_path: Path,
                                                  name: str) -> None:
    office.reseed(app)
    start, person = PEOPLE[name]
    recording = asyncio.run(_record(profile, app.base_url + start, person, tmp_path))
    office.reseed(app)  # the person's own change is undone: the replay must make it again
    steps = tmp_path / f"{name}.yaml"
    write_recording(recording, steps, tmp_path / f"{name}.input.yaml")
    check_bundle = _the_export if TASKS[name].check_bundle is not None else None
    task = CorpusTask(name, steps, TASKS[name].check, TASKS[name].baseline,
                      inputs=_inputs(recording), check_bundle=check_bundle,
                      changes_data=TASKS[name].changes_data)
    outcome = two_phase(tmp_path / "ws", app, task, profile=profile)  # the CLI, in the main thread
    assert_done(app, task, outcome)


def test_a_recorded_sign_in_replays_into_a_fresh_profile(app: RunningApp, tmp_path: Path) -> None:
    """Signing in with "Remember me" (the password recorded by key only), replayed into a fresh --profile: the
    next prepare with that profile is signed in."""
    task = TASKS["sign_in_remember_profile"]
    office.reseed(app)  # the replay's check is "nothing changed": from the seed, whatever ran before on this app
    recording = asyncio.run(_record(tmp_path / "recording-profile", app.base_url + "/login", _sign_in_remembered,
                                    tmp_path))
    assert [s.get("action") for s in recording.steps] == ["type", "type", "check", None]
    assert recording.sensitive == ["password"] and recording.inputs["remember_me"] is True
    steps = tmp_path / "sign_in.yaml"
    write_recording(recording, steps, tmp_path / "sign_in.input.yaml")
    assert office.PASSWORD not in steps.read_text(encoding="utf-8")
    replay = CorpusTask(task.name, steps, task.check, task.baseline,
                        inputs=_inputs(recording, password=office.PASSWORD),
                        then_prepare=task.then_prepare, fresh_profile=True, changes_data=False)
    outcome = two_phase(tmp_path / "ws", app, replay, profile=tmp_path / "replay-profile")
    assert_done(app, replay, outcome)
    assert outcome.next_prepare_code in (0, 2), outcome.describe()


def test_a_recorded_row_click_names_its_row(app: RunningApp, profile: Path, tmp_path: Path) -> None:
    """The edit icon repeats in every row: the recording names the row (and prepare finds it there)."""
    office.reseed(app)
    recording = asyncio.run(_record(profile, app.base_url + "/admin/customer/", _open_northwind, tmp_path))
    edit, = recording.steps
    assert edit["kind"] == "act" and edit["target"]["names"] == ["Edit Record"], edit
    assert edit["target"]["within"]["role"] == "row", edit
    assert edit["target"]["within"]["names"][0].startswith("Northwind Traders"), edit
