"""The expense desk (Django 5.2's admin + django-import-export), started for a test, and its database questions.

``start(tmp)`` migrates and seeds a database under ``tmp`` once, serves it with Django's own ``runserver``
(``--noreload``; it logs method, path and status of every request) on a free port, and ``reseed(app)`` puts a
fresh copy of the seeded file in place between tasks. The questions read the sqlite file directly, read-only.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

from tests.realapps.corpus import query
from tests.realapps.django_app import DjangoApp
from tests.realapps.harness import RunningApp

USERNAME = "admin"
PASSWORD = "corpus-Admin-pass-1"  # a local test deployment's seeded superuser

SERVER = DjangoApp("django_admin", "EXPENSEDESK", "expensedesk.settings", PASSWORD)
seed, start, reseed, database = SERVER.seed, SERVER.start, SERVER.reseed, SERVER.database


def _expense_rows(db: Path) -> dict[str, dict[str, Any]]:
    rows = query(db, """
        SELECT e.id, e.title, e.amount, e.billable, e.spent_on, e.spent_at, v.name AS vendor
        FROM expenses_expense e LEFT JOIN expenses_vendor v ON v.id = e.vendor_id""")
    found: dict[str, dict[str, Any]] = {}
    for row in rows:
        expense = dict(row)
        assert expense["title"] not in found, f"two expenses are titled {expense['title']!r}"
        expense["amount"] = _money(expense["amount"])
        expense["billable"] = bool(expense["billable"])
        expense["tags"] = sorted(r["name"] for r in query(db, """
            SELECT t.name FROM expenses_expense_tags et JOIN expenses_tag t ON t.id = et.tag_id
            WHERE et.expense_id = ?""", expense["id"]))
        expense["lines"] = [(r["description"], r["quantity"], _money(r["unit_price"])) for r in query(db, """
            SELECT description, quantity, unit_price FROM expenses_expenseline WHERE expense_id = ? ORDER BY id""",
            expense["id"])]
        found[expense.pop("title")] = expense
    return found


def _money(value: object) -> Decimal:
    return Decimal(str(value)).quantize(Decimal("0.01"))


def expenses(app: RunningApp) -> dict[str, dict[str, Any]]:
    """Every expense by title: id, amount, billable, spent_on, spent_at, vendor, tags (sorted), lines."""
    return _expense_rows(database(app))


def seeded_expenses(app: RunningApp) -> dict[str, dict[str, Any]]:
    """The same, as seeded (what a task's change is measured against)."""
    return _expense_rows(Path(str(app.data["seed"])))


def vendors_and_tags(app: RunningApp, *, seeded: bool = False) -> dict[str, list[str]]:
    """Vendors and tags by name (tasks never change them), now or as seeded."""
    db = Path(str(app.data["seed"])) if seeded else database(app)
    return {table: sorted(r["name"] for r in query(db, f"SELECT name FROM {table}"))
            for table in ("expenses_vendor", "expenses_tag")}


def admin_last_login(app: RunningApp) -> str | None:
    rows = query(database(app), "SELECT last_login FROM auth_user WHERE username = ?", USERNAME)
    return None if rows[0]["last_login"] is None else str(rows[0]["last_login"])
