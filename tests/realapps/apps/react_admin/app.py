"""react-admin 5.15 (npm) over json-server 0.17.4: the corpus' single-page admin whose edits and deletes are undoable.

The deployer's glue is ``src/`` (resources, forms, a sessionStorage sign-in) and ``server.cjs`` (json-server serving
the built admin and its REST API on one port, logging ``REQ <method> <path> <status>`` per request). The database is
the ``db.json`` file json-server reads and rewrites after every change; the tasks' checks read that file.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from tests.realapps.harness import RunningApp
from tests.realapps.json_server import JsonServerApp

APP_DIR = Path(__file__).resolve().parent
USERNAME = "desk"
PASSWORD = "Corpus-desk-2024"  # the demo account of src/authProvider.js


SERVER = JsonServerApp(APP_DIR, "react-admin", "react-admin corpus app", "/segments")
start, reseed, database, seed_database, db_path = (SERVER.start, SERVER.reseed, SERVER.database,
                                                   SERVER.seed_database, SERVER.db_path)


def hold(app: RunningApp, paths: list[str], ms: int) -> None:
    """Have the API answer GETs of ``paths`` (and the records under them) ``ms`` later, until the next reseed."""
    request = urllib.request.Request(app.base_url + "/__corpus__/hold", data=json.dumps({"paths": paths, "ms": ms})
                                     .encode(), method="POST", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert json.loads(response.read()) == {"held": {"paths": paths, "ms": ms}}


def row_by(app: RunningApp, resource: str, field: str, value: object) -> dict[str, Any] | None:
    rows = [row for row in database(app)[resource] if row.get(field) == value]
    assert len(rows) <= 1, f"{len(rows)} {resource} with {field}={value!r}"
    return rows[0] if rows else None


def id_of(app: RunningApp, resource: str, name: str, field: str = "name") -> int:
    row = row_by(app, resource, field, name)
    assert row is not None, f"no {resource} named {name!r}"
    return int(row["id"])
