"""The newsroom's business tasks: step files in tasks/, their database checks, their Playwright peers.

Each ``check(app, exports)`` compares every news page (and the author snippets, and the page count) with the seed
plus exactly the task's change. Baselines are the same tasks as a competent person writes them with plain
Playwright, screenshots before and after every acting step; they start signed in (``sign_in`` first).
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path
from typing import Any

from playwright.async_api import Page, expect

from tests.realapps.apps.wagtail_site import app as newsroom
from tests.realapps.corpus import Shots, Task
from tests.realapps.harness import RunningApp

TASKS_DIR = Path(__file__).resolve().parent / "tasks"
# With Wagtail 8's autosave on (its default; this deployment turns it off, see newsroom/settings.py) the autosave may
# already have created the new page, and "Publish" then publishes it from its edit view and says so differently.
CREATED = re.compile("created and published|has been published")
SIGN_IN_INPUT = TASKS_DIR / "sign_in.input.yaml"


def _steps(name: str) -> Path:
    return TASKS_DIR / f"{name}.yaml"


def _unchanged_apart_from(app: RunningApp, changed: dict[str, dict[str, Any] | None], *,
                          authors: list[tuple[str, str, str]] | None = None) -> None:
    """News pages are the seed with ``changed`` applied (title -> whole new record without id, or None for gone);
    the author snippets are as seeded unless ``authors`` says otherwise; no other page came or went."""
    expected = newsroom.news_pages(app, seeded=True)
    found = newsroom.news_pages(app)
    for title, record in changed.items():
        if record is None:
            expected.pop(title)
        else:
            new_id = found.get(title, {}).get("id") if title not in expected else expected[title]["id"]
            expected[title] = {"id": new_id, **record}
    assert found == expected, f"the news pages are {found}, expected {expected}"
    seeded_count = newsroom.page_count(app, seeded=True)
    delta = sum(1 for t, r in changed.items() if r is not None and t not in newsroom.news_pages(app, seeded=True))
    delta -= sum(1 for r in changed.values() if r is None)
    assert newsroom.page_count(app) == seeded_count + delta
    assert newsroom.authors(app) == (authors if authors is not None else newsroom.authors(app, seeded=True))


def _seeded(app: RunningApp, title: str, **fields: Any) -> dict[str, Any]:
    record = dict(newsroom.news_pages(app, seeded=True)[title])
    record.pop("id")
    record.update(fields)
    return record


# --- checks -----------------------------------------------------------------------------------------------


def check_sign_in(app: RunningApp, exports: list[Path]) -> None:
    assert newsroom.editor_last_login(app) is not None, "the editor never signed in (auth_user.last_login is empty)"
    _unchanged_apart_from(app, {})


def check_edit_and_publish(app: RunningApp, exports: list[Path]) -> None:
    _unchanged_apart_from(app, {"Lisbon office opening": None, "Lisbon office is open": _seeded(
        app, "Lisbon office opening", body="Our new office by the river is open.")})


def check_create_child(app: RunningApp, exports: list[Path]) -> None:
    _unchanged_apart_from(app, {"Porto office opening": {
        "slug": "porto-office-opening", "parent": "News", "live": True, "has_unpublished_changes": False,
        "date": dt.date(2026, 7, 1).isoformat(), "intro": "We open an office in Porto.", "body": "", "tags": [],
        "draft_intro": "We open an office in Porto."}})


def check_add_tags(app: RunningApp, exports: list[Path]) -> None:
    _unchanged_apart_from(app, {"Quarterly results": _seeded(app, "Quarterly results",
                                                             tags=["budget", "finance", "q2"])})


def check_delete(app: RunningApp, exports: list[Path]) -> None:
    _unchanged_apart_from(app, {"Old parking rules": None})


def check_search_and_open(app: RunningApp, exports: list[Path]) -> None:
    # Saved as a draft: the live page keeps its intro, the latest revision holds the new one.
    _unchanged_apart_from(app, {"Summer party": _seeded(app, "Summer party", has_unpublished_changes=True,
                                                        draft_intro="Everyone and their families are invited.")})


def check_create_snippet(app: RunningApp, exports: list[Path]) -> None:
    _unchanged_apart_from(app, {}, authors=sorted([*newsroom.authors(app, seeded=True),
                                                   ("Bruno Costa", "Photographer", "bruno@example.com")]))


def check_nothing_saved(app: RunningApp, exports: list[Path]) -> None:
    _unchanged_apart_from(app, {})


# --- baselines ----------------------------------------------------------------------------------------------


async def sign_in(page: Page, base_url: str, *, remember: bool = True) -> None:
    await page.goto(base_url + "/admin/login/?next=/admin/")
    await page.get_by_label("Username").fill(newsroom.USERNAME)
    await page.get_by_label("Password").fill(newsroom.PASSWORD)
    if remember:
        await page.get_by_role("checkbox", name="Remember me").check()
    await page.get_by_role("button", name="Sign in").click()
    await expect(page.get_by_role("heading", name="Newsroom")).to_be_visible()


async def _fill(page: Page, shots: Shots, label: str, locator: Any, value: str) -> None:
    await shots.around(page, label, locator.fill(value))


async def _publish(page: Page, shots: Shots, expect_text: str | re.Pattern[str]) -> None:
    await shots.around(page, "act", page.get_by_role("button", name="More actions").click())
    await shots.around(page, "submit", page.get_by_role("button", name="Publish", exact=True).click())
    await expect(page.get_by_text(expect_text)).to_be_visible()


async def baseline_sign_in(page: Page, base_url: str, shots: Shots) -> None:
    await page.context.clear_cookies()
    await page.goto(base_url + "/admin/login/?next=/admin/")
    await _fill(page, shots, "username", page.get_by_label("Username"), newsroom.USERNAME)
    await _fill(page, shots, "password", page.get_by_label("Password"), newsroom.PASSWORD)
    await shots.around(page, "submit", page.get_by_role("button", name="Sign in").click())
    await expect(page.get_by_role("heading", name="Newsroom")).to_be_visible()


async def baseline_edit_and_publish(page: Page, base_url: str, shots: Shots) -> None:
    await page.goto(base_url + "/admin/pages/4/edit/")
    await _fill(page, shots, "title", page.get_by_role("textbox", name="Title"), "Lisbon office is open")
    body = page.locator(".Draftail-Editor [contenteditable=true]")  # Draftail's editor has no accessible name
    await _fill(page, shots, "body", body, "Our new office by the river is open.")
    # Draftail writes the editor's content to the form's hidden field a moment after typing (a debounced save): a
    # careful script waits for that before publishing, else a quick Publish sends the old body (seen under load).
    await expect(page.locator('input[name="body"]')).to_have_value(re.compile("by the river is open"))
    await _publish(page, shots, "has been published")


async def _new_page(page: Page, base_url: str, shots: Shots, title: str, day: str, intro: str) -> None:
    await page.goto(base_url + "/admin/pages/add/news/newspage/3/")
    await _fill(page, shots, "title", page.get_by_role("textbox", name="Title"), title)
    await _fill(page, shots, "post_date", page.get_by_role("textbox", name="Post date"), day)
    await page.keyboard.press("Escape")  # the date picker stays open over the form after typing
    await _fill(page, shots, "intro", page.get_by_role("textbox", name="Intro"), intro)


async def baseline_create_child(page: Page, base_url: str, shots: Shots) -> None:
    await _new_page(page, base_url, shots, "Porto office opening", "2026-07-01", "We open an office in Porto.")
    await _publish(page, shots, CREATED)


async def baseline_add_tags(page: Page, base_url: str, shots: Shots) -> None:
    await page.goto(base_url + "/admin/pages/5/edit/")

    async def add_tags() -> None:
        field = page.locator(".tagit-new input")  # tag-it's input: no accessible name
        for tag in ("budget", "q2"):
            await field.fill(tag)
            await field.press("Enter")

    await shots.around(page, "tags", add_tags())
    await _publish(page, shots, "has been published")


async def baseline_delete(page: Page, base_url: str, shots: Shots) -> None:
    await page.goto(base_url + "/admin/pages/7/edit/")
    await shots.around(page, "act", page.get_by_role("button", name="Actions", exact=True).click())
    await shots.around(page, "act", page.get_by_role("link", name="Delete", exact=True).click())
    await shots.around(page, "submit", page.get_by_role("button", name="Yes, delete it").click())
    await expect(page.get_by_text("deleted")).to_be_visible()


async def baseline_search_and_open(page: Page, base_url: str, shots: Shots) -> None:
    await page.goto(base_url + "/admin/")
    await _fill(page, shots, "search", page.get_by_role("textbox", name="Search", exact=True), "summer")
    await shots.around(page, "act", page.get_by_role("button", name="Search", exact=True).first.click())
    await shots.around(page, "act", page.get_by_role("link", name="Summer party").click())
    await _fill(page, shots, "intro", page.get_by_role("textbox", name="Intro"),
                "Everyone and their families are invited.")
    await shots.around(page, "submit", page.get_by_role("button", name="Save draft").click())
    await expect(page.get_by_text("has been updated")).to_be_visible()


async def baseline_create_snippet(page: Page, base_url: str, shots: Shots) -> None:
    await page.goto(base_url + "/admin/snippets/news/author/add/")
    await _fill(page, shots, "name", page.get_by_role("textbox", name="Name"), "Bruno Costa")
    await _fill(page, shots, "job_title", page.get_by_role("textbox", name="Job title"), "Photographer")
    await _fill(page, shots, "email", page.get_by_role("textbox", name="Email"), "bruno@example.com")
    await shots.around(page, "submit", page.get_by_role("button", name="Save").click())
    await expect(page.get_by_text("created")).to_be_visible()


async def baseline_taken_slug(page: Page, base_url: str, shots: Shots) -> None:
    await _new_page(page, base_url, shots, "Summer party", "2026-07-02", "A second party.")
    await shots.around(page, "act", page.get_by_role("button", name="More actions").click())
    await shots.around(page, "submit", page.get_by_role("button", name="Publish", exact=True).click())
    await expect(page.get_by_text("could not be created")).to_be_visible()


# The module's --profile is signed in with "Remember me" ticked (a persistent cookie).
SIGN_IN = Task("sign_in_remembered", _steps("sign_in_remembered"), check_sign_in, baseline_sign_in,
               input=SIGN_IN_INPUT, profile=False)
TASKS = [
    # Signed in without "Remember me": Wagtail's session cookie lasts until the browser closes.
    Task("sign_in_session_only", _steps("sign_in"), check_sign_in, baseline_sign_in, input=SIGN_IN_INPUT,
         profile=False, then=_steps("look_at_news")),
    Task("edit_and_publish", _steps("edit_and_publish"), check_edit_and_publish, baseline_edit_and_publish),
    Task("create_child_page", _steps("create_child_page"), check_create_child, baseline_create_child),
    Task("add_tags", _steps("add_tags"), check_add_tags, baseline_add_tags),
    Task("delete_page", _steps("delete_page"), check_delete, baseline_delete),
    Task("search_and_open", _steps("search_and_open"), check_search_and_open, baseline_search_and_open),
    Task("create_snippet", _steps("create_snippet"), check_create_snippet, baseline_create_snippet),
]
# A run the app refuses (the page's address is taken): it must fail and leave the database as seeded.
REFUSED = Task("create_page_taken_slug", _steps("create_page_taken_slug"), check_nothing_saved, baseline_taken_slug)

# What today's browserops cannot do, as it fails: "<prepare|run|next prepare> step <N>: <BROWSER_CODE>: <message>".
# A line "prepare sent: METHOD /path" records an unsafe request prepare let through. (Wagtail's editor posts an
# editing-session heartbeat as soon as an edit view opens; prepare's rehearsal copy refuses it now, so no entry
# has such a line: every task's prepare must send nothing unsafe.)
# The editor's beacon that releases its editing session as an edit view unloads (publish, delete, save draft) is in
# the ledger now (the DevTools tap of launch/wire.py sees it), so no task has a "ledger misses" line any more.
KNOWN_GAPS: dict[str, str] = {
}
