"""The expense desk's business tasks: step files in tasks/, their database checks, their Playwright peers.

Each ``check(app, exports)`` compares the whole expense table with the seed plus exactly the task's change, so a
second change, a lost field or a duplicate row fails it. Each baseline is the same task as a competent person
writes it with plain Playwright (locators by role, label and text; the widget's own markup where it has no
name), taking a screenshot before and after every acting step as browserops does. Baselines start signed in
(``sign_in`` first), as the browserops runs start in a signed-in ``--profile``.
"""

from __future__ import annotations

import csv
import datetime as dt
from decimal import Decimal
from pathlib import Path
from typing import Any

from playwright.async_api import Page, expect

from tests.realapps.apps.django_admin import app as desk
from tests.realapps.corpus import Shots, Task
from tests.realapps.harness import RunningApp

TASKS_DIR = Path(__file__).resolve().parent / "tasks"


def _steps(name: str) -> Path:
    return TASKS_DIR / f"{name}.yaml"


def _unchanged_apart_from(app: RunningApp, changed: dict[str, dict[str, Any] | None]) -> None:
    """The expense table is the seed with ``changed`` applied (title -> new record without id, or None for gone);
    vendors and tags are as seeded."""
    expected = desk.seeded_expenses(app)
    for title, record in changed.items():
        if record is None:
            expected.pop(title)
        else:
            expected[title] = {"id": expected.get(title, {}).get("id"), **record}
    found = desk.expenses(app)
    for title, record in changed.items():
        if record is not None and title in found and expected[title]["id"] is None:
            expected[title]["id"] = found[title]["id"]  # a new row: any id
    assert found == expected, f"the database holds {found}, expected {expected}"
    assert desk.vendors_and_tags(app) == desk.vendors_and_tags(app, seeded=True)


def _new(amount: str, day: dt.date, time: str, *, vendor: str | None = None, billable: bool = False,
         tags: tuple[str, ...] = (), lines: tuple[tuple[str, int, str], ...] = ()) -> dict[str, Any]:
    return {"amount": Decimal(amount), "billable": billable, "spent_on": day.isoformat(), "spent_at": time,
            "vendor": vendor, "tags": sorted(tags), "lines": [(d, q, Decimal(p)) for d, q, p in lines]}


def _changed(app: RunningApp, title: str, **fields: Any) -> dict[str, Any]:
    record = dict(desk.seeded_expenses(app)[title])
    record.pop("id")
    record.update(fields)
    return record


# --- checks -----------------------------------------------------------------------------------------------


def check_sign_in(app: RunningApp, exports: list[Path]) -> None:
    assert desk.admin_last_login(app) is not None, "the admin never signed in (auth_user.last_login is empty)"
    _unchanged_apart_from(app, {})


def check_add_with_vendor(app: RunningApp, exports: list[Path]) -> None:
    _unchanged_apart_from(app, {"Flight to Porto": _new("185.40", dt.date(2026, 5, 11), "07:45:00",
                                                        vendor="Tailspin Airlines")})


def check_add_with_tags(app: RunningApp, exports: list[Path]) -> None:
    _unchanged_apart_from(app, {"Client dinner": _new("240.00", dt.date(2026, 5, 12), "20:15:00", billable=True,
                                                      tags=("client-x", "q4"))})


def check_add_with_pickers(app: RunningApp, exports: list[Path]) -> None:
    today = dt.date.today()  # the admin's calendar opens on the current month (TIME_ZONE is UTC, as is CI)
    _unchanged_apart_from(app, {"Parking at the office": _new("12.00", today.replace(day=15), "12:00:00")})


def check_add_with_lines(app: RunningApp, exports: list[Path]) -> None:
    _unchanged_apart_from(app, {"Office supplies": _new("57.00", dt.date(2026, 5, 14), "16:00:00", lines=(
        ("Printer paper", 3, "9.00"), ("Toner", 1, "30.00")))})


def check_edit(app: RunningApp, exports: list[Path]) -> None:
    _unchanged_apart_from(app, {"Team lunch": _changed(app, "Team lunch", amount=Decimal("92.00"), billable=True)})


def check_search_and_edit(app: RunningApp, exports: list[Path]) -> None:
    _unchanged_apart_from(app, {"Hotel Lisbon": _changed(app, "Hotel Lisbon", amount=Decimal("295.00"))})


def check_delete(app: RunningApp, exports: list[Path]) -> None:
    _unchanged_apart_from(app, {"Taxi to airport": None})


def check_export(app: RunningApp, exports: list[Path]) -> None:
    _unchanged_apart_from(app, {})
    files = [p for p in exports if p.suffix == ".csv"]
    assert len(files) == 1, f"one CSV export expected, found {exports}"
    with files[0].open(encoding="utf-8-sig", newline="") as handle:
        rows = list(csv.DictReader(handle))
    billable = sorted(title for title, e in desk.expenses(app).items() if e["billable"])
    assert sorted(row["title"] for row in rows) == billable, rows
    amounts = {row["title"]: Decimal(row["amount"]) for row in rows}
    assert amounts == {t: desk.expenses(app)[t]["amount"] for t in billable}, amounts


def check_nothing_saved(app: RunningApp, exports: list[Path]) -> None:
    _unchanged_apart_from(app, {})


# --- baselines ----------------------------------------------------------------------------------------------


async def sign_in(page: Page, base_url: str) -> None:
    await page.goto(base_url + "/admin/login/?next=/admin/")
    await page.get_by_label("Username").fill(desk.USERNAME)
    await page.get_by_label("Password").fill(desk.PASSWORD)
    await page.get_by_role("button", name="Log in").click()
    await expect(page.get_by_text("Site administration")).to_be_visible()


async def _save(page: Page, shots: Shots, expect_text: str, button: str = "Save") -> None:
    await shots.around(page, "submit", page.get_by_role("button", name=button, exact=True).click())
    await expect(page.get_by_text(expect_text)).to_be_visible()


async def _fill(page: Page, shots: Shots, label: str, locator: Any, value: str) -> None:
    await shots.around(page, label, locator.fill(value))


async def baseline_sign_in(page: Page, base_url: str, shots: Shots) -> None:
    await page.context.clear_cookies()
    await page.goto(base_url + "/admin/login/?next=/admin/")
    await _fill(page, shots, "username", page.get_by_label("Username"), desk.USERNAME)
    await _fill(page, shots, "password", page.get_by_label("Password"), desk.PASSWORD)
    await _save(page, shots, "Site administration", button="Log in")


async def baseline_add_with_vendor(page: Page, base_url: str, shots: Shots) -> None:
    await page.goto(base_url + "/admin/expenses/expense/add/")
    await _fill(page, shots, "title", page.get_by_label("Title"), "Flight to Porto")

    async def pick_vendor() -> None:
        await page.locator(".field-vendor .select2-selection").click()  # Select2's combobox has no name
        await page.locator(".select2-search__field").fill("Tailspin")  # the dropdown's search box is unnamed
        await page.get_by_role("option", name="Tailspin Airlines", exact=True).click()

    await shots.around(page, "vendor", pick_vendor())
    await _fill(page, shots, "amount", page.get_by_label("Amount"), "185.40")
    await _fill(page, shots, "date", page.get_by_label("Date"), "2026-05-11")
    await _fill(page, shots, "time", page.get_by_label("Time"), "07:45")
    await _save(page, shots, "was added successfully")


async def baseline_add_with_tags(page: Page, base_url: str, shots: Shots) -> None:
    await page.goto(base_url + "/admin/expenses/expense/add/")
    await _fill(page, shots, "title", page.get_by_label("Title"), "Client dinner")

    async def choose_tags() -> None:
        await page.get_by_role("listbox", name="Available tags").select_option(["client-x", "q4"])
        await page.get_by_role("button", name="Choose selected tags").click()

    await shots.around(page, "tags", choose_tags())
    await _fill(page, shots, "amount", page.get_by_label("Amount"), "240.00")
    await shots.around(page, "billable", page.get_by_role("checkbox", name="Billable").check())
    await _fill(page, shots, "date", page.get_by_label("Date"), "2026-05-12")
    await _fill(page, shots, "time", page.get_by_label("Time"), "20:15")
    await _save(page, shots, "was added successfully")


async def baseline_add_with_pickers(page: Page, base_url: str, shots: Shots) -> None:
    await page.goto(base_url + "/admin/expenses/expense/add/")
    await _fill(page, shots, "title", page.get_by_label("Title"), "Parking at the office")
    await _fill(page, shots, "amount", page.get_by_label("Amount"), "12.00")
    for label, name in (("act", "Choose a Date"), ("act", "15"), ("act", "Choose a Time"), ("act", "Noon")):
        await shots.around(page, label, page.get_by_role("link", name=name, exact=True).click())
    await _save(page, shots, "was added successfully")


async def baseline_add_with_lines(page: Page, base_url: str, shots: Shots) -> None:
    await page.goto(base_url + "/admin/expenses/expense/add/")
    await _fill(page, shots, "title", page.get_by_label("Title"), "Office supplies")
    await _fill(page, shots, "amount", page.get_by_label("Amount"), "57.00")
    await _fill(page, shots, "date", page.get_by_label("Date"), "2026-05-14")
    await _fill(page, shots, "time", page.get_by_label("Time"), "16:00")
    rows = page.locator("#lines-group tr.form-row:not(.empty-form)")  # the inline's rows have no names
    await _fill(page, shots, "line_1_description", rows.nth(0).locator(".field-description input"), "Printer paper")
    await _fill(page, shots, "line_1_quantity", rows.nth(0).locator(".field-quantity input"), "3")
    await _fill(page, shots, "line_1_unit_price", rows.nth(0).locator(".field-unit_price input"), "9.00")
    await shots.around(page, "act", page.get_by_role("button", name="Add another Expense line").click())
    await _fill(page, shots, "line_2_description", rows.nth(1).locator(".field-description input"), "Toner")
    await _fill(page, shots, "line_2_unit_price", rows.nth(1).locator(".field-unit_price input"), "30.00")
    await _save(page, shots, "was added successfully")


async def baseline_edit(page: Page, base_url: str, shots: Shots) -> None:
    await page.goto(base_url + "/admin/expenses/expense/2/change/")
    await _fill(page, shots, "amount", page.get_by_label("Amount"), "92.00")
    await shots.around(page, "billable", page.get_by_role("checkbox", name="Billable").check())
    await _save(page, shots, "was changed successfully")


async def baseline_search_and_edit(page: Page, base_url: str, shots: Shots) -> None:
    await page.goto(base_url + "/admin/expenses/expense/")
    await _fill(page, shots, "search", page.get_by_role("textbox", name="Search"), "Hotel")
    await shots.around(page, "act", page.get_by_role("button", name="Search").click())
    await shots.around(page, "act", page.get_by_role("link", name="Hotel Lisbon").click())
    await _fill(page, shots, "amount", page.get_by_label("Amount"), "295.00")
    await _save(page, shots, "was changed successfully")


async def baseline_delete(page: Page, base_url: str, shots: Shots) -> None:
    await page.goto(base_url + "/admin/expenses/expense/4/change/")
    await shots.around(page, "act", page.get_by_role("link", name="Delete", exact=True).click())
    await _save(page, shots, "was deleted successfully", button="Yes, I’m sure")


async def baseline_export(page: Page, base_url: str, shots: Shots) -> None:
    await page.goto(base_url + "/admin/expenses/expense/")
    await shots.around(page, "act", page.get_by_role("link", name="Yes", exact=True).click())
    await shots.around(page, "act", page.get_by_role("link", name="Export").click())
    await shots.around(page, "format", page.get_by_label("Format").select_option(label="csv"))

    async def download() -> None:
        async with page.expect_download() as info:
            await page.get_by_role("button", name="Submit").click()
        await (await info.value).save_as(shots.folder / "billable_expenses.csv")

    await shots.around(page, "export", download())


async def baseline_bad_date(page: Page, base_url: str, shots: Shots) -> None:
    await page.goto(base_url + "/admin/expenses/expense/add/")
    await _fill(page, shots, "title", page.get_by_label("Title"), "Impossible day")
    await _fill(page, shots, "amount", page.get_by_label("Amount"), "10.00")
    await _fill(page, shots, "date", page.get_by_label("Date"), "2026-02-30")
    await _fill(page, shots, "time", page.get_by_label("Time"), "09:00")
    await shots.around(page, "submit", page.get_by_role("button", name="Save", exact=True).click())
    await expect(page.get_by_text("Enter a valid date.")).to_be_visible()


# Signed in once into a fresh --profile; the next prepare with it must be signed in (the session cookie of Django's
# admin lasts two weeks). The module's other tasks run in a profile signed in so.
SIGN_IN = Task("sign_in", _steps("sign_in"), check_sign_in, baseline_sign_in, input=TASKS_DIR / "sign_in.input.yaml",
               profile=False, then=_steps("look_at_expenses"))
TASKS = [
    SIGN_IN,
    Task("add_expense_with_vendor", _steps("add_expense_with_vendor"), check_add_with_vendor,
         baseline_add_with_vendor),
    Task("add_expense_with_tags", _steps("add_expense_with_tags"), check_add_with_tags, baseline_add_with_tags),
    Task("add_expense_with_pickers", _steps("add_expense_with_pickers"), check_add_with_pickers,
         baseline_add_with_pickers),
    Task("add_expense_with_lines", _steps("add_expense_with_lines"), check_add_with_lines, baseline_add_with_lines),
    Task("edit_expense", _steps("edit_expense"), check_edit, baseline_edit),
    Task("search_and_edit", _steps("search_and_edit"), check_search_and_edit, baseline_search_and_edit),
    Task("delete_expense", _steps("delete_expense"), check_delete, baseline_delete),
    Task("export_billable", _steps("export_billable"), check_export, baseline_export),
]
# A run the app refuses (the 30th of February): it must fail and leave the database as seeded.
REFUSED = Task("add_expense_bad_date", _steps("add_expense_bad_date"), check_nothing_saved, baseline_bad_date)

# What today's browserops cannot do, as it fails: "<prepare|run> step <N>: <BROWSER_CODE>: <part of the message>".
KNOWN_GAPS: dict[str, str] = {
}
