"""The corpus apps served by json-server 0.17.4 (react-admin, Refine + antd, Vue + Element Plus): one deployer's glue
``server.cjs`` per app serving the built admin and its REST API on one port (logging ``REQ <method> <path>
<status>``), over a ``db.json`` file json-server rewrites after every change — which the tasks' checks read.

:class:`JsonServerApp` starts one such app over a fresh copy of its seed and answers the database questions every
task check asks (a row, the seeded row, what was created, what changed and that nothing else did).
"""

from __future__ import annotations

import contextlib
import json
import shutil
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.realapps.harness import RunningApp, app_process, free_port

Database = dict[str, list[dict[str, Any]]]


@dataclass(frozen=True)
class JsonServerApp:
    app_dir: Path  # holds server.cjs, db.seed.json, dist/ (the built admin) and node_modules/
    name: str  # RunningApp's name
    what: str  # in the not-built error: "the Refine + antd corpus app"
    health_path: str  # a REST path that answers once json-server is up

    @property
    def seed(self) -> Path:
        return self.app_dir / "db.seed.json"

    def ensure_built(self) -> None:
        built = self.app_dir / "dist" / "index.html"
        if not built.exists() or not (self.app_dir / "node_modules" / "json-server").is_dir():
            raise RuntimeError(f"{self.what} is not built ({built} missing): run ./scripts/setup.sh")

    @contextlib.contextmanager
    def start(self, tmp: Path) -> Iterator[RunningApp]:
        """json-server on a free port over a fresh copy of the seed database, serving the built admin."""
        self.ensure_built()
        tmp.mkdir(parents=True, exist_ok=True)
        db_file = tmp / "db.json"
        shutil.copyfile(self.seed, db_file)
        port = free_port()
        base_url = f"http://127.0.0.1:{port}"
        log_path = tmp / "json-server.log"
        with app_process(["node", "server.cjs", str(db_file), str(port)], cwd=self.app_dir,
                         env={"NODE_ENV": "production"}, health_url=f"{base_url}{self.health_path}",
                         log_path=log_path):
            yield RunningApp(self.name, base_url, log_path, data={"db": db_file})

    def reseed(self, app: RunningApp) -> None:
        """Put the seed back: copy it over the database file and have json-server read it again."""
        shutil.copyfile(self.seed, self.db_path(app))
        request = urllib.request.Request(app.base_url + "/__corpus__/reload", data=b"{}", method="POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=10) as response:
            assert json.loads(response.read()) == {"reloaded": True}

    @staticmethod
    def db_path(app: RunningApp) -> Path:
        path = app.data["db"]
        assert isinstance(path, Path)
        return path

    def database(self, app: RunningApp) -> Database:
        """The whole database as json-server last wrote it."""
        data: Database = json.loads(self.db_path(app).read_text(encoding="utf-8"))
        return data

    def seed_database(self) -> Database:
        data: Database = json.loads(self.seed.read_text(encoding="utf-8"))
        return data

    # --- the questions task checks ask ---------------------------------------------------------------------------

    def rest_as_seeded(self, app: RunningApp, resource: str, touched_ids: set[int]) -> None:
        """Every resource but ``resource`` is as seeded, and in it every row but ``touched_ids``."""
        now, seed = self.database(app), self.seed_database()
        for name, rows in seed.items():
            if name != resource:
                assert now[name] == rows, f"{name} changed"
        before = {row["id"]: row for row in seed[resource] if row["id"] not in touched_ids}
        after = {row["id"]: row for row in now[resource] if row["id"] not in touched_ids}
        assert after == before, f"other {resource} changed"

    def row(self, app: RunningApp, resource: str, row_id: int) -> dict[str, Any]:
        rows = [row for row in self.database(app)[resource] if row["id"] == row_id]
        assert len(rows) == 1, f"{len(rows)} {resource} with id {row_id}"
        return rows[0]

    def seeded(self, resource: str, row_id: int) -> dict[str, Any]:
        return next(row for row in self.seed_database()[resource] if row["id"] == row_id)

    def id_of(self, resource: str, name: str) -> int:
        return int(next(row["id"] for row in self.seed_database()[resource] if row["name"] == name))

    def created(self, app: RunningApp, resource: str) -> dict[str, Any]:
        """The one row added to ``resource`` (json-server numbers it after the highest id); the rest as seeded."""
        seed = self.seed_database()[resource]
        new_id = max(row["id"] for row in seed) + 1
        rows = self.database(app)[resource]
        assert len(rows) == len(seed) + 1, f"{len(rows) - len(seed)} {resource} added, expected 1"
        self.rest_as_seeded(app, resource, {new_id})
        return dict(self.row(app, resource, new_id))

    def changed(self, app: RunningApp, resource: str, row_id: int, **fields: Any) -> None:
        """Row ``row_id`` holds exactly its seeded values with ``fields`` changed; nothing else changed."""
        assert self.row(app, resource, row_id) == {**self.seeded(resource, row_id), **fields}, (
            self.row(app, resource, row_id))
        self.rest_as_seeded(app, resource, {row_id})
