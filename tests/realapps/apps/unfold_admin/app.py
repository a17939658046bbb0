"""Учёт заказов (Django 5.2's admin under django-unfold 0.91, in Russian), started for a test, and its database
questions.

``start(tmp)`` migrates and seeds a database once per version of the glue (kept in ``.seed-cache/``), serves a fresh
copy with Django's own ``runserver`` (``--noreload``; it logs method, path and status of every request) on a free
port, and ``reseed(app)`` puts a fresh copy of the seeded file in place between tasks. The questions read the
sqlite file directly, read-only. Sessions live in files beside it, so a profile signed in once stays signed
in across reseeds.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

from tests.realapps.corpus import query
from tests.realapps.django_app import DjangoApp
from tests.realapps.harness import RunningApp

USERNAME = "admin"
PASSWORD = "corpus-Admin-pass-2"  # a local test deployment's seeded superuser

SERVER = DjangoApp("unfold_admin", "ORDERDESK", "orderdesk.settings", PASSWORD)
seed, start, reseed, database = SERVER.seed, SERVER.start, SERVER.reseed, SERVER.database


def _money(value: object) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.01"))


def _orders(db: Path) -> dict[str, dict[str, Any]]:
    rows = query(db, """
        SELECT o.id, o.number, o.status, o.delivery_date, o.amount, o.urgent, c.name AS client
        FROM sales_order o JOIN sales_client c ON c.id = o.client_id""")
    found: dict[str, dict[str, Any]] = {}
    for row in rows:
        order = dict(row)
        order["amount"] = _money(order["amount"])
        order["urgent"] = bool(order["urgent"])
        order["tags"] = sorted(r["name"] for r in query(db, """
            SELECT t.name FROM sales_order_tags ot JOIN sales_tag t ON t.id = ot.tag_id WHERE ot.order_id = ?""",
            order["id"]))
        order["lines"] = [(r["description"], r["quantity"], _money(r["price"])) for r in query(db, """
            SELECT description, quantity, price FROM sales_orderline WHERE order_id = ? ORDER BY id""", order["id"])]
        found[order.pop("number")] = order
    return found


def orders(app: RunningApp) -> dict[str, dict[str, Any]]:
    """Every order by number: id, status, delivery_date, amount, urgent, client, tags (sorted), lines."""
    return _orders(database(app))


def seeded_orders(app: RunningApp) -> dict[str, dict[str, Any]]:
    """The same, as seeded (what a task's change is measured against)."""
    return _orders(Path(str(app.data["seed"])))


def clients_and_tags(app: RunningApp, *, seeded: bool = False) -> dict[str, list[tuple[str, ...]]]:
    """Clients (name, city) and tags (name), now or as seeded: no task changes them."""
    db = Path(str(app.data["seed"])) if seeded else database(app)
    return {"clients": [tuple(r) for r in query(db, "SELECT name, city FROM sales_client ORDER BY id")],
            "tags": [tuple(r) for r in query(db, "SELECT name FROM sales_tag ORDER BY id")]}


async def sign_in(page: Any, base_url: str) -> None:
    """Sign in on the desk's own (Russian) sign-in page; Django's session cookie outlives the browser, so a profile
    signed in once stays signed in."""
    await page.goto(base_url + "/admin/login/")
    await page.get_by_role("textbox", name="Имя пользователя").fill(USERNAME)
    await page.get_by_role("textbox", name="Пароль").fill(PASSWORD)
    await page.get_by_role("button", name="Войти").click()
    await page.wait_for_url("**/admin/")
