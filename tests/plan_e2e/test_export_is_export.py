"""An export is an export (issue 36.3): an ``export`` step runs without ``--confirm``, so prepare clicks it in its
fenced rehearsal and refuses the plan (``BROWSER_EXPORT_UNSAFE``) when the click sends anything that could change the
site; the run checks again, refusing every unsafe request of the export's click in the browser. A real export (a
link answered with a file, a script that makes a file) still prepares and runs."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browserops.demo_site import DemoSite
from tests.plan_e2e.helpers import cli_json, post, request_log, server_state, write_steps

SAFE = {"GET", "HEAD", "OPTIONS"}


@pytest.fixture
def site(demo_site: DemoSite) -> DemoSite:
    demo_site.reset()
    return demo_site


def _export(role: str, name: str, save_as: str | None = None) -> dict[str, Any]:
    step: dict[str, Any] = {"kind": "export", "target": {"role": role, "names": [name]}}
    return {**step, "saveAs": save_as} if save_as else step


def test_an_export_step_on_a_delete_button_is_refused(site: DemoSite, workspace: Path) -> None:
    steps = write_steps(workspace, "delete.yaml", {"title": "Export expenses", "startUrl": "/injection",
                                                   "steps": [_export("button", "Delete all expenses")]})
    before = len(request_log(site.base_url))
    code, refused, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 1 and refused["code"] == "BROWSER_EXPORT_UNSAFE", (refused, err)
    assert "POST" in refused["error"] and "Delete all expenses" in refused["error"], refused
    assert [r for r in request_log(site.base_url)[before:] if r["method"] not in SAFE] == []
    assert server_state(site.base_url)["deletions"] == []


def test_a_real_export_prepares_and_runs(site: DemoSite, workspace: Path) -> None:
    steps = write_steps(workspace, "export.yaml", {"title": "Statements", "startUrl": "/statements", "steps": [
        _export("link", "2026-01 CSV", "jan.csv"), _export("button", "Export via script", "script.csv")]})
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 2 and not prepared["requiresConfirm"], (prepared, err)
    assert prepared["rehearsed"] == [1, 2], prepared
    assert server_state(site.base_url)["downloads"] == []  # the rehearsal fetched no file
    code, run, err = cli_json(workspace, "run", prepared["requestId"])
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    assert [e["path"] for e in run["exports"]] == ["exports/jan.csv", "exports/script.csv"]
    assert server_state(site.base_url)["downloads"] == ["statements_2026-01.csv"]


def test_the_run_refuses_an_export_that_came_to_send_a_change(site: DemoSite, workspace: Path) -> None:
    """Prepared on a plain export link; by the run the page's link also posts a change: the browser refuses that
    post before it leaves, and the run stops with the export's code."""
    steps = write_steps(workspace, "export.yaml", {"title": "Statements", "startUrl": "/statements",
                                                   "steps": [_export("link", "2026-01 CSV", "jan.csv")]})
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 2, (prepared, err)
    post(site.base_url, "/__variant", {"name": "statements_export", "value": "archives"})
    before = len(request_log(site.base_url))
    code, run, err = cli_json(workspace, "run", prepared["requestId"])
    assert code == 1 and run["code"] == "BROWSER_EXPORT_UNSAFE", (run, err)
    assert "POST" in run["error"] and "/statements/archive" in run["error"], run
    assert [r for r in request_log(site.base_url)[before:] if r["method"] not in SAFE] == []


def test_an_export_that_posts_a_second_later_is_refused_by_prepare(site: DemoSite, workspace: Path) -> None:
    """The change is sent from a timer the click set, after the page has gone quiet: still the export's."""
    post(site.base_url, "/__variant", {"name": "statements_export", "value": "delayed"})
    steps = write_steps(workspace, "export.yaml", {"title": "Statements", "startUrl": "/statements",
                                                   "steps": [_export("link", "2026-01 CSV", "jan.csv")]})
    before = len(request_log(site.base_url))
    code, refused, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 1 and refused["code"] == "BROWSER_EXPORT_UNSAFE", (refused, err)
    assert "/statements/archive" in refused["error"], refused
    assert [r for r in request_log(site.base_url)[before:] if r["method"] not in SAFE] == []
