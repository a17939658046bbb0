"""Учёт заказов' business tasks (Django admin under django-unfold, in Russian): step files in ``tasks/`` naming every
target as the page reads it, the database checks (every field the plan set, everything else as seeded), and each
task as a plain Playwright script (the baseline bench/real_apps.py times the run against).

The tasks run in a ``--profile`` that signed in once on the desk's sign-in page with ``sign_in``.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

from playwright.async_api import expect

from tests.realapps.apps.unfold_admin import app as desk
from tests.realapps.baseline import Shots
from tests.realapps.harness import RunningApp
from tests.realapps.twophase import CorpusTask

TASKS_DIR = Path(__file__).resolve().parent / "tasks"


# --- database questions ------------------------------------------------------------------------------------------

def _only(app: RunningApp, number: str, **fields: Any) -> None:
    """Order ``number`` holds its seeded values with ``fields`` changed; every other order, client and tag is as
    seeded."""
    now, seeded = desk.orders(app), desk.seeded_orders(app)
    assert number in now, f"order {number} is not in the database"
    assert now[number] == {**seeded[number], **fields}, now[number]
    assert {k: v for k, v in now.items() if k != number} == {k: v for k, v in seeded.items() if k != number}, (
        "other orders changed")
    assert desk.clients_and_tags(app) == desk.clients_and_tags(app, seeded=True), "clients or tags changed"


def check_create_order(app: RunningApp) -> None:
    now, seeded = desk.orders(app), desk.seeded_orders(app)
    assert set(now) == {*seeded, "З-1007"}, sorted(now)
    order = dict(now["З-1007"])
    order.pop("id")
    assert order == {
        "status": "approved", "delivery_date": "2026-05-20", "amount": Decimal("13250.50"), "urgent": True,
        "client": "Электросила", "tags": ["VIP", "экспорт"],
        "lines": [("Трансформатор ТМГ-250", 2, Decimal("6625.25"))],
    }, order
    assert {k: v for k, v in now.items() if k != "З-1007"} == seeded, "other orders changed"
    assert desk.clients_and_tags(app) == desk.clients_and_tags(app, seeded=True), "clients or tags changed"


def check_edit_order(app: RunningApp) -> None:
    _only(app, "З-1003", status="shipped", delivery_date="2026-04-10", amount=Decimal("305000.00"))


def check_approve_order(app: RunningApp) -> None:
    _only(app, "З-1001", status="approved")


def check_delete_order(app: RunningApp) -> None:
    now, seeded = desk.orders(app), desk.seeded_orders(app)
    assert "З-1006" not in now, "З-1006 is still in the database"
    assert now == {k: v for k, v in seeded.items() if k != "З-1006"}, "other orders changed"


def check_search_edit_order(app: RunningApp) -> None:
    _only(app, "З-1004", urgent=True)


def check_unchanged(app: RunningApp) -> None:
    assert desk.orders(app) == desk.seeded_orders(app), "the orders differ from the seed"
    assert desk.clients_and_tags(app) == desk.clients_and_tags(app, seeded=True), "clients or tags changed"


# --- the same tasks as plain Playwright scripts -------------------------------------------------------------------

# The plain sign-in: the corpus signs the tasks' --profile in with it once, bench/real_apps.py the baselines' browser.
sign_in = desk.sign_in


async def _open(page: Any, base_url: str, path: str) -> None:
    """Open a page of the desk, signing in first when the browser has no session (unfold's sign-in form lands on
    the admin's index, not back on the page asked for)."""
    await page.goto(base_url + path)
    if "/admin/login/" in page.url:
        await desk.sign_in(page, base_url)
        await page.goto(base_url + path)

async def _autocomplete(shots: Shots, field: str, select_id: str, *options: str, search: str) -> None:
    page = shots.page

    async def choose() -> None:
        for option in options:
            await page.locator(f"#{select_id} + .select2").click()
            await page.locator(".select2-container--open .select2-search__field").fill(search or option)
            await page.get_by_role("option", name=option, exact=True).click()

    await shots.act(field, choose)


async def _save(shots: Shots, notice: str) -> None:
    await shots.act("submit", lambda: shots.page.get_by_role("button", name="Сохранить", exact=True).click())
    await shots.page.get_by_text(notice).wait_for()


async def baseline_create_order(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await _open(page, base_url, "/admin/sales/order/add/")
    await shots.act("number", lambda: page.get_by_role("textbox", name="Номер").fill("З-1007"))
    await _autocomplete(shots, "client", "id_client", "Электросила", search="Электро")
    await _autocomplete(shots, "tags", "id_tags", "VIP", "экспорт", search="")
    await shots.act("status", lambda: page.get_by_role("combobox", name="Статус").select_option(label="Одобрен"))
    await shots.act("delivery_date", lambda: page.get_by_role("textbox", name="Дата поставки").fill("20.05.2026"))
    await shots.act("amount", lambda: page.get_by_role("spinbutton", name="Сумма, ₽").fill("13250.50"))
    await shots.act("urgent", lambda: page.get_by_role("checkbox", name="Срочный").check())
    await shots.act("line_description", lambda: page.locator("#id_lines-0-description").fill("Трансформатор ТМГ-250"))
    await shots.act("line_quantity", lambda: page.locator("#id_lines-0-quantity").fill("2"))
    await shots.act("line_price", lambda: page.locator("#id_lines-0-price").fill("6625.25"))
    await _save(shots, "был успешно добавлен")


async def baseline_edit_order(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await _open(page, base_url, "/admin/sales/order/3/change/")
    await shots.act("status", lambda: page.get_by_role("combobox", name="Статус").select_option(label="Отгружен"))
    await shots.act("delivery_date", lambda: page.get_by_role("textbox", name="Дата поставки").fill("10.04.2026"))
    await shots.act("amount", lambda: page.get_by_role("spinbutton", name="Сумма, ₽").fill("305000.00"))
    await _save(shots, "был успешно изменен")


async def baseline_approve_order(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await _open(page, base_url, "/admin/sales/order/")
    row = page.get_by_role("row", name="З-1001")
    await shots.act("act", lambda: row.get_by_text("more_horiz").click())
    await shots.act("submit", lambda: page.get_by_role("link", name="Одобрить").locator("visible=true").click())
    await page.get_by_text("Заказ З-1001 одобрен").wait_for()


async def baseline_delete_order(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await _open(page, base_url, "/admin/sales/order/6/change/")
    await shots.act("act", lambda: page.get_by_role("link", name="Удалить заказ").click())
    await shots.act("submit", lambda: page.get_by_role("button", name="Да, я уверен").click())
    await page.get_by_text("был успешно удален").wait_for()


async def baseline_search_edit_order(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await _open(page, base_url, "/admin/sales/order/")
    search = page.get_by_role("textbox", name="Type to search")
    await shots.act("search", lambda: search.fill("Волга"))
    await shots.act("submit", lambda: search.press("Enter"))
    await page.get_by_text("1 заказ", exact=True).wait_for()
    row = page.get_by_role("row", name="Волга-Трейд")
    await shots.act("act", lambda: row.get_by_role("link", name="З-1004").click())
    await expect(page.get_by_role("textbox", name="Номер")).to_have_value("З-1004")
    await shots.act("urgent", lambda: page.get_by_role("checkbox", name="Срочный").check())
    await _save(shots, "был успешно изменен")


def _task(name: str, check: Any, baseline: Any, **more: Any) -> CorpusTask:
    return CorpusTask(name=name, steps=TASKS_DIR / f"{name}.yaml", check=check, baseline=baseline, **more)


TASKS: dict[str, CorpusTask] = {task.name: task for task in [
    _task("create_order", check_create_order, baseline_create_order),
    _task("edit_order", check_edit_order, baseline_edit_order),
    _task("approve_order", check_approve_order, baseline_approve_order),
    _task("delete_order", check_delete_order, baseline_delete_order),
    _task("search_edit_order", check_search_edit_order, baseline_search_edit_order),
]}

# What fails today, as ``<phase> <CODE> [at step N]: <message excerpt> — <why>`` (phase: prepare / run / verify;
# CODE ``complete`` = the run said complete while the database lacks the change: a false complete).
KNOWN_GAPS: dict[str, str] = {}
