"""``kind: press`` steps and announced dialog answers (issues #24.4 and the corpus' confirm() deletes), through the
real CLI's ``prepare`` -> ``run --confirm`` in real Chromium on the demo site; the server's state is the proof."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from browserops.demo_site import DemoSite
from tests.plan_e2e.helpers import cli_json, server_state, write_steps


@pytest.fixture
def site(demo_site: DemoSite) -> DemoSite:
    demo_site.reset()
    return demo_site


def _prepare(workspace: Path, site: DemoSite, start: str, *steps: dict[str, Any]) -> dict[str, Any]:
    doc = {"title": "Keys and dialogs", "startUrl": start, "steps": list(steps)}
    code, data, err = cli_json(workspace, "prepare", "--steps", str(write_steps(workspace, "steps.yaml", doc)),
                               "--base-url", site.base_url)
    assert code == 2, (data, err)
    return data


def _run(workspace: Path, prepared: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    code, data, _ = cli_json(workspace, "run", str(prepared["requestId"]), "--confirm",
                             str(prepared["confirmPhrase"]))
    return code, data


def test_escape_closes_a_menu_and_enter_submits_a_search(site: DemoSite, workspace: Path) -> None:
    prepared = _prepare(
        workspace, site, "/repeated",
        {"kind": "act", "target": {"role": "button", "names": ["more"], "within": {"role": "article",
                                                                                   "names": ["@bob"]}}},
        {"kind": "press", "key": "esc", "target": {"role": "menuitem", "names": ["Report"],
                                                   "within": {"role": "article", "names": ["@bob"]}}},
        {"kind": "navigate", "url": "/search"},
        {"kind": "fill", "field": "query", "target": {"role": "searchbox", "names": ["Search"]}, "value": "stapler"},
        # Enter in a search field sends the form: written as the submit it is.
        {"kind": "submit", "action": "press", "key": "Enter", "target": {"role": "searchbox", "names": ["Search"]},
         "expect": {"urlContains": "q=stapler"}, "sends": False},  # a search is a GET: it saves nothing
    )
    assert "key Escape on menuitem \"Report\" in article \"@bob\"" in prepared["diffText"]
    assert "  > submit" in prepared["diffText"] and "key Enter on searchbox \"Search\"" in prepared["diffText"]
    assert prepared["summary"].startswith("Plan: 1 fill, 1 submit, 0 exports, 2 other actions")
    code, ran = _run(workspace, prepared)
    assert code == 0, ran
    state = server_state(site.base_url)
    assert state["repeated"] == [{"what": "close", "owner": "the post by @bob"}]
    assert state["searches"][-1] == "stapler"


DELETE = {"kind": "submit", "title": "Delete the taxi expense",
          "target": {"role": "button", "names": ["Delete"], "within": {"role": "row", "names": ["EXP-1001"]}},
          "expect": {"text": ["Expense EXP-1001 deleted"]}}


def test_a_confirm_dialog_answered_as_the_plan_says(site: DemoSite, workspace: Path) -> None:
    prepared = _prepare(workspace, site, "/expenses",
                        {**DELETE, "dialog": {"answer": "accept", "text": ["Delete this expense?"]}})
    assert "then OK to its dialog if it says 'Delete this expense?'" in prepared["diffText"]
    code, ran = _run(workspace, prepared)
    assert code == 0, ran
    assert [d["reference"] for d in server_state(site.base_url)["deletions"]] == ["EXP-1001"]


def test_an_unannounced_dialog_is_cancelled_and_says_what_to_write(site: DemoSite, workspace: Path) -> None:
    prepared = _prepare(workspace, site, "/expenses", DELETE)
    code, ran = _run(workspace, prepared)
    assert code != 0 and ran["code"] == "BROWSER_DIALOG_OPEN", ran
    assert "'Delete this expense?'" in ran["error"] and "dialog: accept" in ran["error"]
    assert "it was cancelled" in ran["error"]
    # A dialog that says something else than the plan expects is cancelled too.
    prepared = _prepare(workspace, site, "/expenses",
                        {**DELETE, "dialog": {"answer": "accept", "text": ["Archive this expense?"]}})
    code, ran = _run(workspace, prepared)
    assert code != 0 and ran["code"] == "BROWSER_SITE_CHANGED", ran
    assert server_state(site.base_url)["deletions"] == []
