"""采购管理系统: Vue 3 with Element Plus 2 in Simplified Chinese (npm), over json-server 0.17.4 — the corpus' Vue app.

The deployer's glue is ``src/`` (vue-router routes, single-file components on Element Plus with its zh-cn locale,
a small fetch client) and ``server.cjs`` (json-server serving the built admin, its history routes and its REST
API under /api on one port, logging ``REQ <method> <path> <status>`` per request). The database is the
``db.json`` file json-server rewrites after every change; the tasks' checks read that file.
"""

from __future__ import annotations

from pathlib import Path

from tests.realapps.json_server import JsonServerApp

SERVER = JsonServerApp(Path(__file__).resolve().parent, "element-plus", "the Vue + Element Plus corpus app",
                       "/api/cities")
start, reseed, database, seed_database, db_path = (SERVER.start, SERVER.reseed, SERVER.database,
                                                   SERVER.seed_database, SERVER.db_path)
