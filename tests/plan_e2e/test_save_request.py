"""Issue 35 item 3 and issue 34 item 6: the save is the right request. Only a request the page made after the step
acted, to its own site or a form's target, of a kind that carries data, makes or breaks the save; a beacon to
another site and a CSP report are in the ledger and change nothing; an autosave after the last step is waited for; a
submit that navigates by GET and is answered (a row's "Approve" link) is saved by that navigation.

The demo site's ``/save/<case>`` and ``/save/rows`` pages (browserops/demo_site/saving.py) do what no corpus app
shows on purpose; its request log (``GET /__requests``) is what the server received."""

from __future__ import annotations

from pathlib import Path

import pytest

from browserops.demo_site import DemoSite
from tests.plan_e2e.helpers import cli_json, request_log, write_steps
from tests.plan_e2e.test_saved import _ledger, _path, _save_steps, _two_phase


@pytest.fixture
def site(demo_site: DemoSite) -> DemoSite:
    demo_site.reset()
    return demo_site


def _log(site: DemoSite, since: int) -> list[tuple[str, str]]:
    return [(r["method"], r["path"]) for r in request_log(site.base_url)[since:]
            if r["method"] not in ("GET", "HEAD", "OPTIONS", "WS")]


def test_a_beacon_to_another_site_is_no_save(site: DemoSite, workspace: Path) -> None:
    """Save says "Saved" and sends only an analytics beacon to another site (one the plan also visits, so the run's
    origin rules let the beacon through and it is answered 204): the ledger lists the beacon, and the run ends
    BROWSER_NOT_SAVED (before, any answered unsafe request counted as the save: a false complete)."""
    other = site.base_url.replace("127.0.0.1", "localhost")
    assert other != site.base_url
    doc = _save_steps("beacon", "Saved", saveWaitMs=2000)
    doc["steps"][:0] = [{"kind": "navigate", "url": f"{other}/save/rows"}, {"kind": "navigate", "url": "/save/beacon"}]
    start = len(request_log(site.base_url))
    code, run, err, request_id = _two_phase(site, workspace, doc)
    assert code == 1 and run["code"] == "BROWSER_NOT_SAVED", (run, err)
    assert "carries no change of this page" in run["error"], run["error"]
    assert _log(site, start) == [("POST", "/save/collect")]  # the beacon did leave
    ledger = _ledger(workspace, request_id)
    assert [(r["method"], _path(r["url"]), r["status"], r["kind"], r.get("save", False)) for r in ledger] == [
        ("POST", "/save/collect", 204, "ping", False)], ledger
    assert ledger[0]["url"].startswith(other)


def test_a_csp_report_answered_400_does_not_fail_a_save_that_worked(site: DemoSite, workspace: Path) -> None:
    start = len(request_log(site.base_url))
    code, run, err, request_id = _two_phase(site, workspace, _save_steps("csp", "Saved"))
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    logged = _log(site, start)
    assert ("POST", "/save/api") in logged, logged
    # The report left during the save click and was answered 400 before the save was; it is listed, and no save.
    ledger = [(r["step"], _path(r["url"]), r["status"], r.get("save", False)) for r in _ledger(workspace, request_id)]
    assert (2, "/save/csp", 400, False) in ledger and (2, "/save/api", 200, True) in ledger, ledger
    assert ledger.index((2, "/save/csp", 400, False)) < ledger.index((2, "/save/api", 200, True))


def test_a_debounced_autosave_after_the_last_step_lands(site: DemoSite, workspace: Path) -> None:
    """The plan's last step types the title; the page POSTs it 700 ms after the last key. The run waits for the
    page's own due work before the browser closes, so the server gets it, and the step's ledger says so."""
    start = len(request_log(site.base_url))
    doc = {"title": "Autosave the title", "startUrl": "/save/autosave?delay=700", "steps": [
        {"kind": "fill", "field": "title", "target": {"role": "textbox", "names": ["Title"]}, "value": "Q4 plan"}]}
    code, run, err, request_id = _two_phase(site, workspace, doc)
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    assert _log(site, start) == [("POST", "/save/api")]
    assert [(r["step"], r["method"], _path(r["url"]), r["status"], r.get("save", False))
            for r in _ledger(workspace, request_id)] == [(1, "POST", "/save/api", 200, True)]


def test_a_submit_that_navigates_by_get_is_saved_by_that_navigation(site: DemoSite, workspace: Path) -> None:
    """A row's "Approve" link approves by GET and comes back to the list: the run is complete, the ledger lists
    the navigation (GET, its status, kind "navigation") as the save, and the site has the approval."""
    doc = {"title": "Approve the desk lamp", "startUrl": "/save/rows", "steps": [
        {"kind": "submit", "target": {"role": "link", "names": ["Approve"], "within": {"role": "row",
                                                                                       "names": ["Desk lamp"]}},
         "expect": {"text": ["Desk lamp approved"]}}]}
    code, run, err, request_id = _two_phase(site, workspace, doc)
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    assert site.state.approvals == [1]
    ledger = [(r["method"], _path(r["url"]), r["status"], r["kind"], r.get("save", False))
              for r in _ledger(workspace, request_id)]
    assert ledger == [("GET", "/save/approve", 303, "navigation", True)], ledger
    assert "row=…" in _ledger(workspace, request_id)[0]["url"]  # query values are never written


def test_prepare_reports_no_form_problem_for_a_link_submit(site: DemoSite, workspace: Path) -> None:
    steps = write_steps(workspace, "approve.yaml", {"title": "Approve", "startUrl": "/save/rows", "steps": [
        {"kind": "submit", "target": {"role": "link", "names": ["Approve"], "nth": 0}}]})
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 2 and prepared["problems"] == [], (prepared, err)
    assert site.state.approvals == []  # prepare never follows a submit


def test_values_shown_as_the_page_writes_them_are_no_change(site: DemoSite, workspace: Path) -> None:
    """Issue 34 item 3: on a Russian page showing 13 250,50 and 02.11.2026, a plan saying 13250.50 and 2026-11-02
    asks for nothing new: prepare's read of the current values and its diff compare by meaning in the page's
    language (only the comment is a line), and the run finds those fields unchanged, the page not stale."""
    doc = {"title": "Comment the order", "startUrl": "/save/order", "steps": [
        {"kind": "fill", "field": "amount", "target": {"role": "textbox", "names": ["Сумма"]}, "value": "13250.50"},
        {"kind": "fill", "field": "delivery", "target": {"role": "textbox", "names": ["Дата поставки"]},
         "value": "2026-11-02"},
        {"kind": "fill", "field": "comment", "target": {"role": "textbox", "names": ["Комментарий"]},
         "value": "срочно"},
        {"kind": "submit", "target": {"role": "button", "names": ["Сохранить"]}, "expect": {"text": ["Сохранено"]}}]}
    steps = write_steps(workspace, "order.yaml", doc)
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 2 and prepared["problems"] == [], (prepared, err)
    assert [(d["field"], d["op"]) for d in prepared["diff"]] == [("comment", "+")], prepared["diff"]
    code, run, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    assert [s["status"] for s in run["steps"]][:3] == ["unchanged", "unchanged", "ok"], run["steps"]


def test_a_socket_heartbeat_is_no_save(site: DemoSite, workspace: Path) -> None:
    """The page's socket says "ping" every 200 ms from the start; Save says "Saved" and sends nothing of its own.
    The pings after the click repeat, word for word, what the socket sent before it: they are listed in the ledger
    and make no save, so the run ends BROWSER_NOT_SAVED (before, any WebSocket message counted as an answered save).
    The plan first waits for the page to say "Live", as a plan for a live page does: a first ping that leaves only
    after the title was typed is, to the typing step, a message never sent before (CI saw that under load)."""
    doc = _save_steps("heartbeat", "Saved", saveWaitMs=2000)
    doc["steps"][:0] = [{"kind": "read", "expect": {"text": ["Live"]}}]
    code, run, err, request_id = _two_phase(site, workspace, doc)
    assert code == 1 and run["code"] == "BROWSER_NOT_SAVED", (run, err)
    ledger = _ledger(workspace, request_id)
    beats = [r for r in ledger if r["method"] == "WS" and r["step"] == 3]
    assert beats and not any(r.get("save") for r in ledger), ledger
