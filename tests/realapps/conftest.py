"""The corpus apps of a test session: each app started once, on first use, and its signed-in profile made once.

A corpus test module names its app (``CORPUS_APP = "django_admin"``); its tests ask for ``app`` (the running app)
and ``profile`` (its signed-in ``--profile``, or None for an app whose tasks sign in themselves). Every test
reseeds the app before it acts, so a test neither sees nor leaves anything for another (the profile holds a
sign-in, which every task expects). tests/work_units.py makes all the modules of one app one xdist work unit, so one
worker serves the app once for them all.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.realapps.catalogue import load
from tests.realapps.harness import RunningApp


class Corpus:
    """The apps started in this session (per xdist worker), stopped when it ends."""

    def __init__(self, root: Path, stack: contextlib.ExitStack) -> None:
        self.root = root
        self._stack = stack
        self._apps: dict[str, RunningApp] = {}
        self._profiles: dict[str, Path | None] = {}

    def app(self, name: str) -> RunningApp:
        if name not in self._apps:
            where = self.root / name / "app"
            where.mkdir(parents=True)
            self._apps[name] = self._stack.enter_context(load(name).running(where))
        return self._apps[name]

    def profile(self, name: str) -> Path | None:
        if name not in self._profiles:
            app = self.app(name)
            self._profiles[name] = load(name).signed_in_profile(app, self.root / name / "profile")
        return self._profiles[name]


@pytest.fixture(scope="session")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Corpus]:
    with contextlib.ExitStack() as stack:
        yield Corpus(tmp_path_factory.mktemp("corpus"), stack)


def _app_name(request: pytest.FixtureRequest) -> str:
    name = getattr(request.module, "CORPUS_APP", None)
    assert isinstance(name, str), f"{request.module.__name__} names no CORPUS_APP"
    return name


@pytest.fixture
def app(corpus: Corpus, request: pytest.FixtureRequest) -> RunningApp:
    """The module's corpus app, running (started on first use in this session)."""
    return corpus.app(_app_name(request))


@pytest.fixture
def profile(corpus: Corpus, request: pytest.FixtureRequest) -> Path | None:
    """The module's app's signed-in ``--profile`` (None when its tasks sign in themselves)."""
    return corpus.profile(_app_name(request))
