"""采购管理系统's business tasks (Vue 3 + Element Plus in zh-CN over json-server): step files in ``tasks/`` naming
every target as the page reads it, the database checks (every field the plan set, the rest as seeded), and each task
as a plain Playwright script (the baseline bench/real_apps.py times the run against).

The system has no sign-in (an internal tool behind the company network): every task starts in a fresh browser.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.async_api import expect

from tests.realapps.apps.element_plus import app as desk
from tests.realapps.baseline import Shots
from tests.realapps.harness import RunningApp
from tests.realapps.twophase import CorpusTask

TASKS_DIR = Path(__file__).resolve().parent / "tasks"


# --- database questions ------------------------------------------------------------------------------------------

_rest_as_seeded, _row, _seeded, _id_of = (desk.SERVER.rest_as_seeded, desk.SERVER.row, desk.SERVER.seeded,
                                         desk.SERVER.id_of)
_created, _changed = desk.SERVER.created, desk.SERVER.changed


def check_create_supplier(app: RunningApp) -> None:
    row = _created(app, "suppliers")
    certs = row.pop("cert_ids")
    assert sorted(certs or []) == sorted([_id_of("certs", "质量体系认证"), _id_of("certs", "高新技术企业")]), (
        f"cert_ids {certs}")
    assert {k: v for k, v in row.items() if k != "id"} == {
        "name": "德信精密机械", "category": "parts", "city_id": _id_of("cities", "宁波"), "since": "2024-08-16",
        "annual_amount": 1250000, "active": True, "nda": True}, row


def check_create_order(app: RunningApp) -> None:
    row = _created(app, "orders")
    assert {k: v for k, v in row.items() if k != "id"} == {
        "number": "CG-2024-006", "supplier_id": _id_of("suppliers", "远航电子元件"), "deliver_on": "2024-09-30",
        "status": "pending",
        "lines": [{"item": "贴片电阻 0603", "quantity": 5000}, {"item": "钽电容 10uF", "quantity": 1200}],
    }, row


def check_edit_supplier(app: RunningApp) -> None:
    row = dict(_row(app, "suppliers", 2))
    certs = row.pop("cert_ids")
    assert sorted(certs) == sorted([_id_of("certs", "质量体系认证"), _id_of("certs", "绿色工厂")]), f"cert_ids {certs}"
    seeded = {k: v for k, v in _seeded("suppliers", 2).items() if k != "cert_ids"}
    assert row == {**seeded, "annual_amount": 960000}, row
    _rest_as_seeded(app, "suppliers", {2})


def check_approve_order(app: RunningApp) -> None:
    _changed(app, "orders", 3, status="approved")


def check_delete_supplier(app: RunningApp) -> None:
    ids = [row["id"] for row in desk.database(app)["suppliers"]]
    assert 7 not in ids, "博大纸业 is still in db.json"
    assert len(ids) == len(desk.seed_database()["suppliers"]) - 1, ids
    _rest_as_seeded(app, "suppliers", {7})


def check_search_edit_supplier(app: RunningApp) -> None:
    _changed(app, "suppliers", 4, active=False)


def check_unchanged(app: RunningApp) -> None:
    assert desk.database(app) == desk.seed_database(), "db.json differs from the seed"


# --- the same tasks as plain Playwright scripts ------------------------------------------------------------------

async def _pick(shots: Shots, field: str, combobox: str, *options: str, search: str | None = None) -> None:
    page = shots.page

    async def choose() -> None:
        box = page.get_by_role("combobox", name=combobox)
        await box.click(force=True)  # the input sits under the shown choice (or placeholder), which takes the click
        if search is not None:
            await box.fill(search)
        for option in options:
            await page.get_by_role("option", name=option, exact=True).locator("visible=true").click()
        if len(options) > 1:
            await page.keyboard.press("Escape")  # a multiple select keeps its list open after a pick

    await shots.act(field, choose)


async def _date(shots: Shots, field: str, combobox: str, text: str) -> None:
    async def type_date() -> None:
        box = shots.page.get_by_role("combobox", name=combobox)
        await box.fill(text)
        await box.press("Enter")

    await shots.act(field, type_date)


def _switch(page: Any, name: str) -> Any:
    """The el-switch a person clicks: its own input is a zero-size box off the switch."""
    return page.locator(".el-switch").filter(has=page.get_by_role("switch", name=name))


async def _save(shots: Shots, notice: str) -> None:
    await shots.act("submit", lambda: shots.page.get_by_role("button", name="保存").click())
    await shots.page.get_by_text(notice).first.wait_for()


async def baseline_create_supplier(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await page.goto(base_url + "/suppliers/new")
    await shots.act("name", lambda: page.get_by_role("textbox", name="供应商名称").fill("德信精密机械"))
    await _pick(shots, "category", "供应商类别", "零部件")
    await _pick(shots, "certs", "资质认证", "质量体系认证", "高新技术企业")
    await _pick(shots, "city", "所在城市", "宁波", search="宁")
    await _date(shots, "since", "合作日期", "2024-08-16")
    await shots.act("annual_amount", lambda: page.get_by_role("textbox", name="年采购额").fill("1250000"))
    await shots.act("active", lambda: _switch(page, "启用").click())
    await shots.act("nda", lambda: page.get_by_text("已签署保密协议", exact=True).click())  # the box's label
    await _save(shots, "已新增供应商")


async def baseline_create_order(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await page.goto(base_url + "/orders/new")
    await shots.act("number", lambda: page.get_by_role("textbox", name="采购单号").fill("CG-2024-006"))
    await _pick(shots, "supplier", "供应商", "远航电子元件", search="远航")
    await _date(shots, "deliver_on", "交货日期", "2024-09-30")
    lines = page.get_by_role("group", name="采购明细").get_by_role("row")
    for row, (item, quantity) in enumerate([("贴片电阻 0603", "5000"), ("钽电容 10uF", "1200")]):
        await shots.act("act", lambda: page.get_by_role("button", name="添加明细").click())
        cells = lines.nth(row + 1)  # row 0 is the header (its own table)
        await shots.act(f"line{row + 1}_item", lambda cells=cells, text=item: cells.get_by_role("textbox").fill(text))
        await shots.act(f"line{row + 1}_quantity", lambda cells=cells, text=quantity: cells.get_by_role(
            "spinbutton").fill(text))
    await _save(shots, "已新建采购单")


async def baseline_edit_supplier(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await page.goto(base_url + "/suppliers/2/edit")
    await expect(page.get_by_role("textbox", name="供应商名称")).to_have_value("精工零部件制造")
    await _pick(shots, "certs", "资质认证", "绿色工厂")
    await page.keyboard.press("Escape")
    await shots.act("annual_amount", lambda: page.get_by_role("textbox", name="年采购额").fill("960000"))
    await _save(shots, "已保存供应商")


async def baseline_approve_order(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await page.goto(base_url + "/orders")
    row = page.get_by_role("row", name="CG-2024-003")
    await shots.act("act", lambda: row.get_by_role("button", name="审批").click())
    await shots.act("submit", lambda: page.get_by_role("tooltip").get_by_role("button", name="确定").click())
    await page.get_by_text("采购单 CG-2024-003 已审批").wait_for()


async def baseline_delete_supplier(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await page.goto(base_url + "/suppliers")
    row = page.get_by_role("row", name="博大纸业")
    await shots.act("act", lambda: row.get_by_role("button", name="删除").click())
    await shots.act("submit", lambda: page.get_by_role("dialog", name="删除确认").get_by_role(
        "button", name="确定").click())
    await page.get_by_text("已删除供应商").wait_for()


async def baseline_search_edit_supplier(page: Any, base_url: str, shots_dir: Path) -> None:
    shots = Shots(page, shots_dir)
    await page.goto(base_url + "/suppliers")
    await shots.act("search", lambda: page.get_by_role("textbox", name="供应商名称").fill("顺通"))
    await shots.act("submit", lambda: page.get_by_role("button", name="搜索").click())
    await page.get_by_text("共 1 条").wait_for()
    await shots.act("act", lambda: page.get_by_role("row", name="顺通物流").get_by_role("button", name="编辑").click())
    await expect(page.get_by_role("textbox", name="供应商名称")).to_have_value("顺通物流")
    await shots.act("active", lambda: _switch(page, "启用").click())
    await _save(shots, "已保存供应商")


def _task(name: str, check: Any, baseline: Any, **more: Any) -> CorpusTask:
    return CorpusTask(name=name, steps=TASKS_DIR / f"{name}.yaml", check=check, baseline=baseline, **more)


TASKS: dict[str, CorpusTask] = {task.name: task for task in [
    _task("create_supplier", check_create_supplier, baseline_create_supplier),
    _task("create_order", check_create_order, baseline_create_order),
    _task("edit_supplier", check_edit_supplier, baseline_edit_supplier),
    _task("approve_order", check_approve_order, baseline_approve_order),
    _task("delete_supplier", check_delete_supplier, baseline_delete_supplier),
    _task("search_edit_supplier", check_search_edit_supplier, baseline_search_edit_supplier),
]}

# What fails today, as ``<phase> <CODE> [at step N]: <message excerpt> — <why>`` (phase: prepare / run / verify;
# CODE ``complete`` = the run said complete while the database lacks the change: a false complete).
KNOWN_GAPS: dict[str, str] = {}
