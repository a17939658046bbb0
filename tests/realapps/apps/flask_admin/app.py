"""Flask-Admin 2.2 (PyPI) with Flask-SQLAlchemy and Flask-Login: the corpus' server-rendered admin.

The deployer's glue is ``corpus_site.py`` (models, admin views with AJAX references, a many-to-many, inline invoice
lines, CSV export, a sign-in page with "Remember me"), run by this folder's own uv environment. The database is a
sqlite file; the tasks' checks read it with sqlite3.
"""

from __future__ import annotations

import contextlib
import sqlite3
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.realapps.harness import RunningApp, app_process, free_port

APP_DIR = Path(__file__).resolve().parent
PYTHON = APP_DIR / ".venv" / "bin" / "python"
USERNAME = "office"
PASSWORD = "Corpus-office-2024"  # the staff account corpus_site.seed() creates


def ensure_installed() -> None:
    if not PYTHON.exists():
        raise RuntimeError(f"Flask-Admin corpus app is not installed ({PYTHON} missing): run ./scripts/setup.sh")


@contextlib.contextmanager
def start(tmp: Path) -> Iterator[RunningApp]:
    """Seed a sqlite database under ``tmp`` (kept as ``seed.db`` for reseeding) and serve the site on a free port."""
    ensure_installed()
    tmp.mkdir(parents=True, exist_ok=True)
    seed_db = tmp / "seed.db"
    subprocess.run([str(PYTHON), "corpus_site.py", "--seed", str(seed_db)], cwd=APP_DIR, check=True,
                   capture_output=True, timeout=120)
    live_db = tmp / "office.db"
    _restore(seed_db, live_db)
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    log_path = tmp / "flask.log"
    with app_process([str(PYTHON), "corpus_site.py", str(live_db), str(port)], cwd=APP_DIR, env={},
                     health_url=f"{base_url}/login", log_path=log_path):
        yield RunningApp("flask-admin", base_url, log_path, data={"db": live_db, "seed": seed_db})


def _restore(source: Path, target: Path) -> None:
    """Copy a database with sqlite's backup API, which is safe while the server holds the target open."""
    with contextlib.closing(sqlite3.connect(source)) as src, contextlib.closing(sqlite3.connect(target)) as dst:
        src.backup(dst)


def reseed(app: RunningApp) -> None:
    seed = app.data["seed"]
    assert isinstance(seed, Path)
    _restore(seed, db_path(app))


def db_path(app: RunningApp) -> Path:
    path = app.data["db"]
    assert isinstance(path, Path)
    return path


def query(app: RunningApp, sql: str, *args: object) -> list[dict[str, Any]]:
    with contextlib.closing(sqlite3.connect(db_path(app))) as conn:
        conn.row_factory = sqlite3.Row
        return [dict(row) for row in conn.execute(sql, args)]


def one(app: RunningApp, sql: str, *args: object) -> dict[str, Any] | None:
    rows = query(app, sql, *args)
    assert len(rows) <= 1, f"{len(rows)} rows for {sql} {args}"
    return rows[0] if rows else None


def count(app: RunningApp, table: str) -> int:
    return int(query(app, f"SELECT count(*) AS n FROM {table}")[0]["n"])  # table names are ours, not input


def customer_by_name(app: RunningApp, name: str) -> dict[str, Any] | None:
    row = one(app, "SELECT * FROM customer WHERE name = ?", name)
    if row is not None:
        row["tags"] = sorted(t["name"] for t in query(
            app, "SELECT tag.name FROM tag JOIN customer_tags ct ON ct.tag_id = tag.id WHERE ct.customer_id = ?",
            row["id"]))
    return row


def project_by_name(app: RunningApp, name: str) -> dict[str, Any] | None:
    return one(app, "SELECT project.*, customer.name AS customer FROM project JOIN customer "
                    "ON customer.id = project.customer_id WHERE project.name = ?", name)


def invoice_lines(app: RunningApp, reference: str) -> list[dict[str, Any]]:
    return query(app, "SELECT l.description, l.quantity FROM invoice_line l JOIN invoice i ON i.id = l.invoice_id "
                      "WHERE i.reference = ? ORDER BY l.id", reference)
