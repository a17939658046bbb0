"""客户管理台: Refine 5 with Ant Design 5 in Simplified Chinese (npm), over json-server 0.17.4 — the corpus' antd app.

The deployer's glue is ``src/`` (Refine resources, antd forms, the zh_CN locale and a zh-CN table of Refine's
texts) and ``server.cjs`` (json-server serving the built admin, its history routes and its REST API under /api on
one port, logging ``REQ <method> <path> <status>`` per request). The database is the ``db.json`` file json-server
rewrites after every change; the tasks' checks read that file.
"""

from __future__ import annotations

from pathlib import Path

from tests.realapps.json_server import JsonServerApp

SERVER = JsonServerApp(Path(__file__).resolve().parent, "refine-antd", "the Refine + antd corpus app", "/api/cities")
start, reseed, database, seed_database, db_path = (SERVER.start, SERVER.reseed, SERVER.database,
                                                   SERVER.seed_database, SERVER.db_path)
