"""The customer desk's business tasks (react-admin over json-server): step files in ``tasks/``, the database checks,
and each task as a plain Playwright script (the baseline).

Every task signs in first: the desk keeps its session in sessionStorage, which ends with the tab, so each new
browser signs in again (the password comes from the input, never from the step file).
"""

from __future__ import annotations

import csv
import re
from pathlib import Path
from typing import Any

from tests.realapps.apps.react_admin import app as desk
from tests.realapps.baseline import Shots
from tests.realapps.harness import RunningApp
from tests.realapps.twophase import CorpusTask

TASKS_DIR = Path(__file__).resolve().parent / "tasks"
INPUTS = {"password": desk.PASSWORD}


# --- database questions ------------------------------------------------------------------------------------------

_rest_as_seeded, _created = desk.SERVER.rest_as_seeded, desk.SERVER.created


def check_create_segment(app: RunningApp) -> None:
    row = _created(app, "segments")
    assert (row["name"], row["description"]) == ("Nonprofit", "Charities and foundations"), row


def check_create_customer(app: RunningApp) -> None:
    row = _created(app, "customers")
    tags = {desk.id_of(app, "tags", "Partner"), desk.id_of(app, "tags", "Trial")}
    assert row["name"] == "Fabrikam Robotics" and row["email"] == "accounts@fabrikamrobotics.example", row
    assert row["segment_id"] == desk.id_of(app, "segments", "Mid-market"), row
    assert set(row.get("tag_ids") or []) == tags and len(row["tag_ids"]) == 2, row
    assert row.get("vip") is True and row.get("since") == "2024-05-02", row


def check_create_invoice(app: RunningApp) -> None:
    row = _created(app, "invoices")
    assert row["reference"] == "INV-1005" and row["customer_id"] == desk.id_of(app, "customers", "Tailspin Toys"), row
    assert (row["date"], row["status"], float(row["amount"])) == ("2025-04-30", "sent", 1499.90), row
    assert [(line.get("description"), line.get("quantity")) for line in row.get("lines") or []] == [
        ("Stand design", 1), ("Booth staff (days)", 3)], row


def check_edit_invoice_amount(app: RunningApp) -> None:
    row = desk.row_by(app, "invoices", "id", 2)
    seeded = next(r for r in desk.seed_database()["invoices"] if r["id"] == 2)
    assert row is not None and float(row["amount"]) == 910.5, f"amount is {row and row['amount']}, not 910.5"
    assert {k: v for k, v in row.items() if k != "amount"} == {k: v for k, v in seeded.items() if k != "amount"}
    _rest_as_seeded(app, "invoices", {2})


def check_edit_customer_vip(app: RunningApp) -> None:
    row = desk.row_by(app, "customers", "id", 7)
    seeded = next(r for r in desk.seed_database()["customers"] if r["id"] == 7)
    assert row is not None and row["vip"] is True, f"Coho Winery vip is {row and row['vip']}"
    assert {k: v for k, v in row.items() if k != "vip"} == {k: v for k, v in seeded.items() if k != "vip"}
    _rest_as_seeded(app, "customers", {7})


def check_delete_customer(app: RunningApp) -> None:
    assert desk.row_by(app, "customers", "id", 30) is None, "Trey Research is still in db.json"
    assert len(desk.database(app)["customers"]) == len(desk.seed_database()["customers"]) - 1
    _rest_as_seeded(app, "customers", {30})


def check_unchanged(app: RunningApp) -> None:
    assert desk.database(app) == desk.seed_database(), "db.json differs from the seed"


def check_export_file(app: RunningApp, path: Path) -> None:
    """The CSV holds every customer of the database, one row each, with name and email."""
    with path.open(encoding="utf-8", newline="") as handle:
        rows = list(csv.DictReader(handle))
    expected = {(c["name"], c["email"]) for c in desk.database(app)["customers"]}
    assert {(r["name"], r["email"]) for r in rows} == expected and len(rows) == len(expected), path


def check_export_bundle(app: RunningApp, bundle: Path) -> None:
    check_export_file(app, bundle / "exports" / "customers.csv")


def check_opened_record(app: RunningApp, bundle: Path) -> None:
    """The run ended on Wingtip Toys' record: its last page snapshot shows the record's email in the form."""
    snapshots = sorted((bundle / "snapshots").glob("*.aria.txt"))
    assert snapshots, "no snapshot in the bundle"
    text = snapshots[-1].read_text(encoding="utf-8")
    assert re.search(r'textbox "Email[^"]*": billing@wingtiptoys\.example', text), snapshots[-1].name


# --- the same tasks as plain Playwright scripts ------------------------------------------------------------------

async def _sign_in(shots: Shots, base_url: str) -> None:
    page = shots.page
    await page.goto(base_url + "/#/login")
    await shots.act("username", lambda: page.get_by_role("textbox", name="Username").fill(desk.USERNAME))
    await shots.act("password", lambda: page.get_by_role("textbox", name="Password").fill(desk.PASSWORD))
    await shots.act("act", lambda: page.get_by_role("button", name="Sign in").click())
    await page.get_by_text("Welcome to the customer desk").wait_for()


async def _save(shots: Shots, notice: str, button: str = "Save") -> None:
    await shots.act("submit", lambda: shots.page.get_by_role("button", name=button, exact=True).click())
    await shots.page.get_by_text(notice).first.wait_for()


async def _save_undoable(shots: Shots, notice: str, method: str, button: str = "Save") -> None:
    """Save, then wait until the deferred request went out and was answered (the undo window closed)."""
    page = shots.page
    async with page.expect_response(lambda r: r.request.method == method, timeout=20_000) as answer:
        await _save(shots, notice, button)
    assert (await answer.value).ok


async def baseline_create_segment(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await _sign_in(shots, base_url)
    await page.goto(base_url + "/#/segments/create")
    await shots.act("name", lambda: page.get_by_role("textbox", name="Name").fill("Nonprofit"))
    await shots.act("description", lambda: page.get_by_role("textbox", name="Description").fill(
        "Charities and foundations"))
    await _save(shots, "Element created")


async def _pick(shots: Shots, field: str, combobox: str, *options: str) -> None:
    page = shots.page

    async def choose() -> None:
        await page.get_by_role("combobox", name=combobox).click()
        for option in options:
            await page.get_by_role("option", name=option, exact=True).click()
        if len(options) > 1:
            await page.keyboard.press("Escape")  # a multiple select keeps its list open after a pick

    await shots.act(field, choose)


async def baseline_create_customer(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await _sign_in(shots, base_url)
    await page.goto(base_url + "/#/customers/create")
    await shots.act("name", lambda: page.get_by_role("textbox", name="Name").fill("Fabrikam Robotics"))
    await shots.act("email", lambda: page.get_by_role("textbox", name="Email").fill(
        "accounts@fabrikamrobotics.example"))
    await _pick(shots, "segment", "Segment", "Mid-market")
    await _pick(shots, "tags", "Tags", "Partner", "Trial")
    await shots.act("vip", lambda: page.get_by_role("switch", name="VIP").check())
    await shots.act("customer_since", lambda: page.get_by_role("textbox", name="Customer since").fill("2024-05-02"))
    await _save(shots, "Element created")


async def baseline_create_invoice(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await _sign_in(shots, base_url)
    await page.goto(base_url + "/#/invoices/create")
    await shots.act("reference", lambda: page.get_by_role("textbox", name="Reference").fill("INV-1005"))

    async def customer() -> None:
        await page.get_by_role("combobox", name="Customer").fill("Tailspin")
        await page.get_by_role("option", name="Tailspin Toys", exact=True).click()

    await shots.act("customer", customer)
    await shots.act("date", lambda: page.get_by_role("textbox", name="Date").fill("2025-04-30"))
    await _pick(shots, "status", "Status", "Sent")
    await shots.act("amount", lambda: page.get_by_role("spinbutton", name="Amount").fill("1499.90"))
    for row, (description, quantity) in enumerate([("Stand design", "1"), ("Booth staff (days)", "3")]):
        await shots.act("act", lambda: page.get_by_role("button", name="Add", exact=True).click())
        await shots.act(f"line{row + 1}_description", lambda row=row, text=description: page.get_by_role(
            "textbox", name="Description").nth(row).fill(text))
        await shots.act(f"line{row + 1}_quantity", lambda row=row, text=quantity: page.get_by_role(
            "spinbutton", name="Quantity").nth(row).fill(text))
    await _save(shots, "Element created")


async def baseline_edit_invoice_amount(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await _sign_in(shots, base_url)
    await page.goto(base_url + "/#/invoices/2")
    amount = page.get_by_role("spinbutton", name="Amount")
    await amount.and_(page.locator("[value='860.5']")).wait_for()
    await shots.act("amount", lambda: amount.fill("910.5"))
    await _save_undoable(shots, "Element updated", "PUT")


async def baseline_edit_customer_vip(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await _sign_in(shots, base_url)
    await page.goto(base_url + "/#/customers/7")
    await page.get_by_role("textbox", name="Name").and_(page.locator("[value='Coho Winery']")).wait_for()
    await shots.act("vip", lambda: page.get_by_role("switch", name="VIP").check())
    await _save_undoable(shots, "Element updated", "PUT")


async def baseline_delete_customer(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await _sign_in(shots, base_url)
    await page.goto(base_url + "/#/customers/30")
    await page.get_by_role("textbox", name="Name").and_(page.locator("[value='Trey Research']")).wait_for()
    await _save_undoable(shots, "Element deleted", "DELETE", button="Delete")


async def baseline_search_open_customer(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await _sign_in(shots, base_url)
    await page.goto(base_url + "/#/customers")
    await shots.act("search", lambda: page.get_by_role("textbox", name="Search").fill("Wingtip"))
    await shots.act("act", lambda: page.get_by_role("cell", name="Wingtip Toys", exact=True).click())
    await page.get_by_text("Customer Wingtip Toys").wait_for()
    (shots_dir / "snapshots").mkdir(exist_ok=True)  # where a bundle keeps it, so check_bundle reads both
    (shots_dir / "snapshots" / "999_opened.aria.txt").write_text(await page.locator("body").aria_snapshot(),
                                                                 encoding="utf-8")


async def baseline_export_customers(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await _sign_in(shots, base_url)
    await page.goto(base_url + "/#/customers")
    await page.get_by_role("cell", name="Adatum Corporation").wait_for()

    async def export() -> None:
        async with page.expect_download() as download:
            await page.get_by_role("button", name="Export").click()
        await (await download.value).save_as(str(shots_dir / "exports" / "customers.csv"))

    await shots.act("export", export)


def _task(name: str, check: Any, baseline: Any, **more: Any) -> CorpusTask:
    return CorpusTask(name=name, steps=TASKS_DIR / f"{name}.yaml", check=check, baseline=baseline, inputs=INPUTS,
                      **more)


TASKS: dict[str, CorpusTask] = {task.name: task for task in [
    _task("create_segment", check_create_segment, baseline_create_segment),
    _task("create_customer", check_create_customer, baseline_create_customer),
    _task("create_invoice", check_create_invoice, baseline_create_invoice),
    _task("edit_invoice_amount", check_edit_invoice_amount, baseline_edit_invoice_amount),
    _task("edit_customer_vip", check_edit_customer_vip, baseline_edit_customer_vip),
    _task("flip_customer_vip", check_edit_customer_vip, baseline_edit_customer_vip),
    _task("delete_customer", check_delete_customer, baseline_delete_customer),
    _task("search_open_customer", check_unchanged, baseline_search_open_customer,
          check_bundle=check_opened_record, changes_data=False),
    _task("export_customers", check_unchanged, baseline_export_customers,
          check_bundle=check_export_bundle, changes_data=False),
]}

# What fails today, as ``<phase> <CODE> [at step N]: <message excerpt> — <why>`` (phase: prepare / run / verify;
# CODE ``complete`` = the run said complete while the database lacks the change: a false complete).
KNOWN_GAPS: dict[str, str] = {
}
