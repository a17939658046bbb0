"""Every corpus app and task behind one face: for the corpus tests (``suite.py``: each task once, as its known gap
says or done and in the database), and for the measurements that go over the whole corpus (``prepare_share.py``,
``bench/real_apps.py``).

The corpus grew two task records: ``corpus.Task`` (Django admin, Wagtail: an input *file*, ``check(app, exports)``,
a baseline given a ``corpus.Shots``) and ``twophase.CorpusTask`` (Flask-Admin, react-admin, and every new app: an
input dict, ``check(app)`` + ``check_bundle``, a baseline given its screenshot folder). :class:`CatalogueTask` answers
the same questions for both: drive the task through prepare -> run --confirm -> evidence verify, assert what its
record says (done and exactly in the database, or failing as its known gap), run the plain Playwright peer.

An app whose tasks run signed in has a ``sign_in(page, base_url)`` in its ``tasks.py`` (the plain Playwright
sign-in, ticking "Remember me" where the site has one): its signed-in ``--profile`` is a persistent Chromium
profile that ``sign_in`` ran in once. An app without one (react-admin keeps its session in sessionStorage) runs
every task without ``--profile``, each signing in itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

from tests.realapps import corpus, corpus_checks, twophase
from tests.realapps.harness import APPS, RunningApp


def app_names() -> list[str]:
    return sorted(p.name for p in APPS.iterdir() if (p / "app.py").is_file() and (p / "tasks.py").is_file())


@dataclass
class Attempt:
    """One prepare -> run --confirm -> evidence verify of one task, and what the app's database says after it."""

    task: str
    prepare_ok: bool
    completed: bool  # run said complete and evidence verify passed
    check_error: str | None  # the database check's complaint (None: the change is there)
    failure: str | None  # the first failure the two phases reported
    bundle: Path | None
    unsafe_during_prepare: list[str]
    prepare_s: float
    run_s: float
    saved_something: bool = False  # after a complete whose check failed: the database is no longer as seeded

    @property
    def done(self) -> bool:
        return self.completed and self.check_error is None

    @property
    def false_complete(self) -> bool:
        """The run said complete (and verify passed), and nothing of the change is in the database."""
        return self.completed and self.check_error is not None and not self.saved_something

    @property
    def wrong_complete(self) -> bool:
        """The run said complete, and the database holds something other than the plan's values (the task's check
        compares every field the plan set): a wrong value saved, which a person would believe (issue 35 item 5)."""
        return self.completed and self.check_error is not None and self.saved_something


def targeted_steps(steps: Path) -> int:
    doc = yaml.safe_load(steps.read_text(encoding="utf-8"))
    return sum(1 for step in doc["steps"] if step.get("target"))


def _check(check: Callable[[], None]) -> str | None:
    try:
        check()
    except AssertionError as exc:
        return str(exc)[:300] or "check failed"
    return None


@dataclass
class CatalogueTask:
    app_name: str
    name: str
    steps: Path
    known_gap: str | None
    raw: Any  # the app's own task record
    tasks: ModuleType

    @property
    def modern(self) -> bool:
        """A ``twophase.CorpusTask`` (Flask-Admin, react-admin), else a ``corpus.Task``."""
        return isinstance(self.raw, twophase.CorpusTask)

    @property
    def signed_in(self) -> bool:
        """Runs in the app's signed-in profile (not a sign-in task of its own)."""
        return not self.raw.fresh_profile if self.modern else bool(self.raw.profile)

    def inputs(self) -> dict[str, Any]:
        if self.modern:
            return dict(self.raw.inputs)
        if self.raw.input is None:
            return {}
        return dict(yaml.safe_load(self.raw.input.read_text(encoding="utf-8")) or {})

    def attempt(self, app: RunningApp, work: Path, profile: Path | None) -> Attempt:
        """prepare -> run --confirm -> evidence verify in ``profile`` (a fresh one under ``work`` for a sign-in
        task), then the database check."""
        where = self.profile_for(work, profile)
        if self.modern:
            out = twophase.two_phase(work / "ws", app, self.raw, profile=where)
            completed = out.run_complete and out.verify_code == 0
            error = None
            if completed:
                error = _check(lambda: self.raw.check(app))
                if error is None and self.raw.check_bundle is not None and out.bundle is not None:
                    error = _check(lambda: self.raw.check_bundle(app, out.bundle))
            return Attempt(self.name, out.prepare_code in (0, 2), completed, error, out.failure(),
                           _bundle_of(out.prepare), out.prepare_requests.unsafe, out.prepare_s, out.run_s,
                           saved_something=error is not None and self.saved_something(app))
        old = corpus.drive(app, self.raw, work / "ws", where)
        completed = old.completed and old.verify_code == 0
        error = _check(lambda: self.raw.check(app, old.exports)) if completed else None
        return Attempt(self.name, old.prepare_code == 2, completed, error,
                       None if old.failure() is None else old.describe(), _bundle_of(old.prepare),
                       [f"{m} {p} {s}" for m, p, s in old.unsafe_during_prepare], old.prepare_s, old.run_s,
                       saved_something=error is not None and self.saved_something(app))

    def unchanged(self, app: RunningApp) -> None:
        """The app's own check that its database is as seeded."""
        if self.modern:
            self.tasks.check_unchanged(app)
        else:
            self.tasks.check_nothing_saved(app, [])

    def saved_something(self, app: RunningApp) -> bool:
        """Whether the database is no longer as seeded (tells a wrong complete from a false one)."""
        return _check(lambda: self.unchanged(app)) is not None

    def profile_for(self, work: Path, profile: Path | None) -> Path | None:
        """The app's signed-in profile, or a fresh one under ``work`` for a task that signs in itself."""
        return profile if self.signed_in else work / "fresh-profile"

    def assert_check_tells_the_seed_apart(self, app: RunningApp) -> None:
        """On the freshly seeded database the task's check fails (it would pass on a database the task never
        touched otherwise: a check that checks nothing). Read-only tasks leave the database as seeded."""
        if self.modern and not self.raw.changes_data:
            return
        try:
            self.raw.check(app) if self.modern else self.raw.check(app, [])
        except AssertionError:
            return
        raise AssertionError(f"the check of {self.name} passes on the seeded database: it checks nothing")

    def assert_as_recorded(self, app: RunningApp, work: Path, profile: Path | None) -> None:
        """prepare -> run --confirm -> evidence verify on the app as it is now (reseed first), then: done and
        exactly the task's change in the database, the run's ledger the app's own log, nothing unsafe sent while
        preparing — or, for a known gap, failing exactly as recorded and saving nothing."""
        where = self.profile_for(work, profile)
        if self.modern:
            out = twophase.two_phase(work / "ws", app, self.raw, profile=where)
            if self.known_gap is None:
                corpus_checks.assert_done(app, self.raw, out, self.tasks.check_unchanged)
            else:
                corpus_checks.assert_gap_holds(app, self.raw, out, self.known_gap, self.tasks.check_unchanged)
            return
        old = corpus.drive(app, self.raw, work / "ws", where)
        if self.known_gap is None:
            corpus.assert_done(app, self.raw, old, lambda a: self.tasks.check_nothing_saved(a, []))
            return
        corpus.assert_gap_holds(app, self.raw, old, self.known_gap)
        if old.run_code is not None and not old.completed:
            self.tasks.check_nothing_saved(app, [])  # a run that failed part-way saved nothing

    async def baseline(self, app: RunningApp, shots: Path, state: dict[str, Any] | None) -> float:
        """The task's plain Playwright peer, timed from the browser's launch to its last step, in a context that
        starts with ``state`` (the signed-in cookies) as the browserops run starts in its signed-in profile."""
        from playwright.async_api import async_playwright

        from browserops.browser.launch.discovery import find_chromium, launch_args

        began = time.monotonic()
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=find_chromium().path, args=launch_args())
            try:
                context = await browser.new_context(accept_downloads=True,
                                                    storage_state=state if self.signed_in else None)
                page: Any = await context.new_page()
                page.set_default_timeout(20_000)
                if self.modern:
                    await self.raw.baseline(page, app.base_url, shots)
                else:
                    await self.raw.baseline(page, app.base_url, corpus.Shots(shots))
            finally:
                await browser.close()
        return time.monotonic() - began


def _bundle_of(data: dict[str, Any]) -> Path | None:
    bundle = data.get("bundle") or (data.get("details") or {}).get("bundle")
    return Path(bundle) if bundle else None


@dataclass
class CatalogueApp:
    name: str
    module: ModuleType  # app.py: start, reseed
    tasks: ModuleType

    def all_tasks(self) -> list[CatalogueTask]:
        raw = self.tasks.TASKS
        records = list(raw.values()) if isinstance(raw, dict) else list(raw)
        gaps: dict[str, str] = self.tasks.KNOWN_GAPS
        return [CatalogueTask(self.name, t.name, t.steps, gaps.get(t.name), t, self.tasks) for t in records]

    def reseed(self, app: RunningApp) -> None:
        self.module.reseed(app)

    @contextlib.contextmanager
    def running(self, tmp: Path) -> Iterator[RunningApp]:
        with self.module.start(tmp) as app:
            yield app

    def signed_in_profile(self, app: RunningApp, folder: Path) -> Path | None:
        """The browser profile the app's ordinary tasks run in: a persistent Chromium profile that the app's
        ``sign_in`` ran in once (None for an app without one: its tasks sign in themselves)."""
        sign_in = getattr(self.tasks, "sign_in", None)
        if sign_in is None:
            return None
        folder.mkdir(parents=True, exist_ok=True)
        asyncio.run(_sign_in_profile(sign_in, app.base_url, folder))
        return folder

    def signed_in_state(self, app: RunningApp) -> dict[str, Any] | None:
        """Cookies and storage of a plain Playwright context signed in with the app's baseline ``sign_in``."""
        sign_in = getattr(self.tasks, "sign_in", None)
        if sign_in is None:
            return None
        return asyncio.run(_state_after(sign_in, app.base_url))


async def _sign_in_profile(sign_in: Any, base_url: str, folder: Path) -> None:
    from playwright.async_api import async_playwright

    from browserops.browser.launch.discovery import find_chromium, launch_args

    async with async_playwright() as pw:
        context = await pw.chromium.launch_persistent_context(str(folder), executable_path=find_chromium().path,
                                                              args=launch_args(), headless=True)
        try:
            page = context.pages[0] if context.pages else await context.new_page()
            await sign_in(page, base_url)
        finally:
            await context.close()


async def _state_after(sign_in: Any, base_url: str) -> dict[str, Any]:
    from playwright.async_api import async_playwright

    from browserops.browser.launch.discovery import find_chromium, launch_args

    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=find_chromium().path, args=launch_args())
        try:
            context = await browser.new_context()
            page = await context.new_page()
            await sign_in(page, base_url)
            state: dict[str, Any] = dict(await context.storage_state())
            return state
        finally:
            await browser.close()


def load(name: str) -> CatalogueApp:
    return CatalogueApp(name, importlib.import_module(f"tests.realapps.apps.{name}.app"),
                        importlib.import_module(f"tests.realapps.apps.{name}.tasks"))
