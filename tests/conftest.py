"""Shared fixtures: one demo site and one Chromium per test session; a fresh tab state per test."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from browserops import privacy
from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.browser.launch.warm import close_warm_browsers
from browserops.config import Settings
from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext

# browserops_log: every browserops.* record at DEBUG, whatever ran before (tests/logcapture.py).
pytest_plugins = ["tests.logcapture", "tests.partner", "tests.late_guard", "tests.cpu_meter"]

# Tests must not pick up a developer's own configuration.
for _key in [k for k in os.environ if k.startswith("BROWSEROPS_")]:
    del os.environ[_key]

# The suite's Chromium is the headless shell of the same Chromium release where one is installed (Debian's
# chromium-headless-shell, which scripts/setup.sh installs beside chromium; Playwright's own headless runs use the
# same build). It is the product's documented choice of binary (BROWSEROPS_CHROMIUM), and most of the suite is
# browser starts: measured with tests/cpu_meter.py on 2 cores, launch + one page cost 0.9 CPU s instead of 2.0 with
# the full browser in its new headless mode, a persistent profile 1.2 instead of 2.9, and the Django corpus module
# 82 CPU s instead of 135. The full browser stays covered where it matters: tests/test_cli_basics.py's doctor run
# and every test that launches find_chromium(env={}) or the system chromium itself.
HEADLESS_SHELLS = ("/usr/lib/chromium/chromium-headless-shell",)
SUITE_CHROMIUM = next((p for p in HEADLESS_SHELLS if os.access(p, os.X_OK)), None)
if SUITE_CHROMIUM:
    os.environ["BROWSEROPS_CHROMIUM"] = SUITE_CHROMIUM

# The browser sessions of one test process share a launched Chromium, each in a fresh context (setting
# browser_reuse, browserops/browser/launch/warm.py), as a server running many phases does: the in-process CLI keeps
# its loop between commands, so prepare, run and the next test's phases start no driver or Chromium of their own.
# Commands run as processes of their own (the crash sweeps, lanes, CLI basics) still start theirs.
os.environ["BROWSEROPS_BROWSER_REUSE"] = "1"

# Bytecode is cached. An environment with PYTHONDONTWRITEBYTECODE (the machines here set it) and a venv
# installed without .pyc made every Python process the tests start (the CLI, MCP servers, crash sweeps, the corpus
# apps) compile every module it imports from source again: `import browserops.cli` took 41 s at load 17 on 2 cores,
# 1.2 s once cached. The first process to import a module writes its .pyc (atomically); the rest read it.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False

# The same for node: every browser session starts a Playwright driver (node compiling Playwright's bundle) and the
# corpus' JavaScript apps run on node. Node's own compile cache (NODE_COMPILE_CACHE, node >= 22.1; written at exit,
# read by the next start) keeps the compiled code in the venv beside the driver it belongs to. Measured: a driver
# start + stop 0.81 -> 0.70 CPU s (5 runs each, load 18); the suite starts hundreds of them.
os.environ.setdefault("NODE_COMPILE_CACHE", str(Path(sys.prefix) / "node-compile-cache"))


@pytest.fixture(autouse=True)
def user_config_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty config directory per test (no developer's evidence signing key); tests may put a key there."""
    path = tmp_path_factory.mktemp("config")
    monkeypatch.setenv("BROWSEROPS_CONFIG_DIR", str(path))
    # Digests are keyed by the workspace the process last said it serves (browserops/privacy.py): each test starts
    # with none, so a test never keys its digests with the workspace of one that ran before it in this worker
    # (the repo root's, for a CLI test run without a workspace: a digest.key appeared there).
    monkeypatch.setattr(privacy, "_workspace", None)
    return path


@pytest.fixture(scope="session")
def demo_site() -> Iterator[DemoSite]:
    with DemoSite() as site:
        yield site


@pytest.fixture(scope="session", autouse=True)
async def warm_browsers_closed() -> AsyncIterator[None]:
    """The warm browsers of the session's event loop (the async tests' loop: MCP servers and front doors run in
    process there) are closed with it, as a front door closes its loop's (browserops/browser/launch/warm.py)."""
    yield
    await close_warm_browsers()


@pytest.fixture(scope="session")
async def browser_session() -> AsyncIterator[BrowserSession]:
    async with BrowserSession(SessionOptions()) as session:
        yield session


@pytest.fixture
async def session(browser_session: BrowserSession, demo_site: DemoSite) -> BrowserSession:
    """The shared session reduced to one tab, with the demo site's state reset."""
    await browser_session.ensure_alive()
    # A dialog left open by an earlier test would block the page for this one.
    for dialog in list(browser_session.dialogs):
        with contextlib.suppress(Exception):
            await dialog.dismiss()
    browser_session.dialogs.clear()
    browser_session.downloads.clear()
    for page in browser_session.pages[1:]:
        await page.close()
    browser_session.switch_to(0)
    await browser_session.context.clear_cookies()
    browser_session.take_notices()
    browser_session.state.forget()
    demo_site.reset()
    return browser_session


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    return ws


@pytest.fixture
def tool_ctx(session: BrowserSession, workspace: Path) -> ToolContext:
    return ToolContext(session=session, settings=Settings(), workspace=workspace)


# The longest work units first (worker-seconds in CI runs, longest first). scripts/test.sh runs `-n 3 --dist loadfile
# --no-loadscope-reorder` with the scheduler of tests/work_units.py (a file per unit, a corpus app's modules together):
# xdist hands each worker one unit at a time in collection order (without --no-loadscope-reorder it would sort the
# units by their number of tests instead). A long unit collected last (tests/realweb comes late alphabetically)
# started when the other worker had nearly finished, leaving it idle for minutes; longest first lets the short files
# fill the gaps at the end. Within a file the order is unchanged; a file not listed keeps its place after these.
LONGEST_FIRST = [
    "tests/realapps/test_django_admin.py",
    "tests/realapps/test_wagtail_site.py",
    "tests/realapps/test_flask_admin.py",
    "tests/realapps/test_react_admin.py",
    "tests/realapps/test_element_plus.py",
    "tests/realapps/test_refine_antd.py",
    "tests/realapps/test_unfold_admin.py",
    "tests/realweb/test_banner_closer_real_pages.py",
    "tests/realweb/test_real_pages_listing.py",
    "tests/plan_e2e/test_lane_processes.py",
    "tests/plan_e2e/test_startup_crash.py",
    "tests/chat/test_loop_brain.py",
    "tests/agent_loop/test_loop.py",
    "tests/plan_e2e/test_lane_redis_run.py",
    "tests/remote/test_remote_browsers.py",
]


@pytest.hookimpl(optionalhook=True)  # a hook of pytest-xdist, absent under -p no:xdist
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """``--dist loadfile``, with a corpus app's modules as one unit (tests/work_units.py)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from tests.work_units import CorpusAppScheduling

    return CorpusAppScheduling(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    from tests.work_units import work_unit

    rank = {path: i for i, path in enumerate(LONGEST_FIRST)}
    first = {}  # a unit's rank is that of its best-ranked file
    for item in items:
        unit = work_unit(item.nodeid)
        first[unit] = min(first.get(unit, len(rank)), rank.get(item.nodeid.split("::", 1)[0], len(rank)))
    items.sort(key=lambda item: first[work_unit(item.nodeid)])  # stable: each file's own order is kept
