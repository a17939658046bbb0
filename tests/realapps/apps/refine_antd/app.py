"""客户管理台: Refine 5 with Ant Design 5 in Simplified Chinese (npm), over json-server 0.17.4 — the corpus' antd app.

The deployer's glue is ``src/`` (Refine resources, antd forms, the zh_CN locale and a zh-CN table of Refine's
texts) and ``server.cjs`` (json-server serving the built admin, its history routes and its REST API under /api on
one port, logging ``REQ <method> <path> <status>`` per request). The database is the ``db.json`` file json-server
rewrites after every change; the tasks' checks read that file.
"""

from __future__ import annotations

import contextlib
import json
import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from tests.realapps.harness import RunningApp, app_process, free_port

APP_DIR = Path(__file__).resolve().parent
SEED = APP_DIR / "db.seed.json"
BUILT = APP_DIR / "dist" / "index.html"


def ensure_built() -> None:
    if not BUILT.exists() or not (APP_DIR / "node_modules" / "json-server").is_dir():
        raise RuntimeError(f"the Refine + antd corpus app is not built ({BUILT} missing): run ./scripts/setup.sh")


@contextlib.contextmanager
def start(tmp: Path) -> Iterator[RunningApp]:
    """json-server on a free port over a fresh copy of the seed database, serving the built admin."""
    ensure_built()
    tmp.mkdir(parents=True, exist_ok=True)
    db_file = tmp / "db.json"
    shutil.copyfile(SEED, db_file)
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    log_path = tmp / "json-server.log"
    with app_process(["node", "server.cjs", str(db_file), str(port)], cwd=APP_DIR, env={"NODE_ENV": "production"},
                     health_url=f"{base_url}/api/cities", log_path=log_path):
        yield RunningApp("refine-antd", base_url, log_path, data={"db": db_file})


def reseed(app: RunningApp) -> None:
    """Put the seed back: copy it over the database file and have json-server read it again."""
    shutil.copyfile(SEED, db_path(app))
    request = urllib.request.Request(app.base_url + "/__corpus__/reload", data=b"{}", method="POST",
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert json.loads(response.read()) == {"reloaded": True}


def db_path(app: RunningApp) -> Path:
    path = app.data["db"]
    assert isinstance(path, Path)
    return path


def database(app: RunningApp) -> dict[str, list[dict[str, Any]]]:
    """The whole database as json-server last wrote it."""
    data: dict[str, list[dict[str, Any]]] = json.loads(db_path(app).read_text(encoding="utf-8"))
    return data


def seed_database() -> dict[str, list[dict[str, Any]]]:
    data: dict[str, list[dict[str, Any]]] = json.loads(SEED.read_text(encoding="utf-8"))
    return data
