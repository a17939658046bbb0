"""The newsroom (Wagtail 8.0.1 on Django 5.2.19), started for a test, and its database questions.

``start(tmp)`` takes the seeded database (migrated and seeded once per version of the glue, cached), serves a copy
with Django's ``runserver --noreload`` (it logs method, path and status of every request) on a free port, and
``reseed(app)`` puts a fresh copy in place between tasks. The questions read the sqlite file directly, read-only.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.realapps.corpus import query
from tests.realapps.django_app import DjangoApp
from tests.realapps.harness import RunningApp

USERNAME = "editor"
PASSWORD = "corpus-Editor-pass-1"  # a local test deployment's seeded editor

SERVER = DjangoApp("wagtail_site", "NEWSROOM", "newsroom.settings", PASSWORD,
                   media=True, manage_timeout_s=1200, start_timeout_s=180)
seed, start, reseed, database = SERVER.seed, SERVER.start, SERVER.reseed, SERVER.database


def _db(app: RunningApp, seeded: bool) -> Path:
    return Path(str(app.data["seed"])) if seeded else database(app)


def text_of(html: str) -> str:
    """Rich text as a reader sees it: tags dropped, whitespace collapsed."""
    return " ".join(re.sub(r"<[^>]+>", " ", html).split())


def news_pages(app: RunningApp, *, seeded: bool = False) -> dict[str, dict[str, Any]]:
    """Every news page by title: id, slug, parent's title, live, unpublished changes, date, intro, body text, tags,
    and the intro of its latest revision (a saved draft shows there first)."""
    db = _db(app, seeded)
    rows = query(db, """
        SELECT p.id, p.title, p.slug, p.live, p.has_unpublished_changes, p.latest_revision_id, n.date, n.intro, n.body,
               (SELECT parent.title FROM wagtailcore_page parent
                WHERE parent.path = substr(p.path, 1, length(p.path) - 4)) AS parent
        FROM wagtailcore_page p JOIN news_newspage n ON n.page_ptr_id = p.id""")
    pages: dict[str, dict[str, Any]] = {}
    for row in rows:
        page = dict(row)
        assert page["title"] not in pages, f"two news pages are titled {page['title']!r}"
        page["live"], page["has_unpublished_changes"] = bool(page["live"]), bool(page["has_unpublished_changes"])
        page["body"] = text_of(page["body"])
        page["tags"] = sorted(r["name"] for r in query(db, """
            SELECT t.name FROM news_newspagetag nt JOIN taggit_tag t ON t.id = nt.tag_id
            WHERE nt.content_object_id = ?""", page["id"]))
        revision = query(db, "SELECT content FROM wagtailcore_revision WHERE id = ?", page.pop("latest_revision_id"))
        page["draft_intro"] = json.loads(revision[0]["content"])["intro"] if revision else None
        pages[page.pop("title")] = page
    return pages


def authors(app: RunningApp, *, seeded: bool = False) -> list[tuple[str, str, str]]:
    return sorted((r["name"], r["job_title"], r["email"])
                  for r in query(_db(app, seeded), "SELECT name, job_title, email FROM news_author"))


def page_count(app: RunningApp, *, seeded: bool = False) -> int:
    return int(query(_db(app, seeded), "SELECT count(*) AS n FROM wagtailcore_page")[0]["n"])


def editor_last_login(app: RunningApp) -> str | None:
    rows = query(database(app), "SELECT last_login FROM auth_user WHERE username = ?", USERNAME)
    return None if rows[0]["last_login"] is None else str(rows[0]["last_login"])
