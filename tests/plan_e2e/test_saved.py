"""Complete means saved: a run step that changes something is done only when its change was sent and answered, and
every request that could change the server is in the bundle's side-effect ledger — exactly what the site received.

The demo site's ``/save/<case>`` pages say "Saved" while doing different things (save.html); its request log
(``GET /__requests``) is what the server saw."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import orjson
import pytest

from browserops.demo_site import DemoSite
from browserops.privacy import keyed_digest
from tests.plan_e2e.helpers import bundle_of, cli_json, cli_run, events, request_log, write_steps

SAFE = {"GET", "HEAD", "OPTIONS", "WS"}  # "WS" is the site's line for a WebSocket handshake; WSMSG a message


@pytest.fixture
def site(demo_site: DemoSite) -> DemoSite:
    demo_site.reset()
    return demo_site


def _save_steps(case: str, expect: str, **submit: Any) -> dict[str, Any]:
    return {"title": f"Save the title ({case})", "startUrl": f"/save/{case}", "steps": [
        {"kind": "fill", "field": "title", "target": {"role": "textbox", "names": ["Title"]}, "value": "Q4 plan"},
        {"kind": "submit", "target": {"role": "button", "names": ["Save"]}, "expect": {"text": [expect]}, **submit},
    ]}


def _two_phase(site: DemoSite, workspace: Path, doc: dict[str, Any]) -> tuple[int, dict[str, Any], str, str]:
    """prepare, then run --confirm; (run exit code, run JSON, its stderr, request id), and the log cut at the run."""
    steps = write_steps(workspace, "steps.yaml", doc)
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 2, (prepared, err)
    code, run, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    return code, run, err, str(prepared["requestId"])


def _unsafe_log(site: DemoSite, since: int) -> list[tuple[str, str]]:
    return [(r["method"], r["path"]) for r in request_log(site.base_url)[since:] if r["method"] not in SAFE]


def _ledger(workspace: Path, request_id: str) -> list[dict[str, Any]]:
    return [r for e in events(workspace, request_id) if e.get("phase") == "run" for r in e.get("sent", [])]


def _path(url: str) -> str:
    return re.sub(r"^(https?|wss?)://[^/]+", "", url).split("?", 1)[0]


def test_a_page_that_says_saved_but_sends_nothing_is_not_complete(site: DemoSite, workspace: Path) -> None:
    start = len(request_log(site.base_url))
    code, run, err, request_id = _two_phase(site, workspace, _save_steps("local", "Saved", saveWaitMs=2000))
    assert code == 1 and run["code"] == "BROWSER_NOT_SAVED", (run, err)
    assert run["details"]["run"]["runStatus"] == "incomplete"
    assert "the page said 'Saved'" in run["error"] and "sent nothing to the server in 2 s" in run["error"]
    assert "sends: false" in run["error"]  # says what to do when the step truly saves nothing
    assert _unsafe_log(site, start) == [] and _ledger(workspace, request_id) == []
    failed = [e for e in events(workspace, request_id) if e.get("status") == "error"]
    assert [(e["step"], e["code"]) for e in failed] == [(2, "BROWSER_NOT_SAVED")]
    assert any("_after_" in s for s in failed[0]["screenshots"])  # the page as it was when the run gave up


def test_sends_false_lets_a_step_that_saves_nothing_complete(site: DemoSite, workspace: Path) -> None:
    code, run, err, request_id = _two_phase(site, workspace, _save_steps("local", "Saved", sends=False))
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    assert _ledger(workspace, request_id) == []


def test_a_500_answer_fails_the_step_with_its_status(site: DemoSite, workspace: Path) -> None:
    start = len(request_log(site.base_url))
    code, run, err, request_id = _two_phase(site, workspace, _save_steps("broken", "Saved"))
    assert code == 1 and run["code"] == "BROWSER_SUBMIT_FAILED", (run, err)
    assert "answered POST" in run["error"] and "/save/api?fail=…" in run["error"] and "with 500" in run["error"]
    assert run["details"]["status"] == 500
    assert _unsafe_log(site, start) == [("POST", "/save/api")]
    ledger = _ledger(workspace, request_id)
    assert [(r["method"], _path(r["url"]), r["status"], r["step"]) for r in ledger] == [("POST", "/save/api", 500, 2)]


def test_an_undoable_save_is_waited_for_until_it_is_sent(site: DemoSite, workspace: Path) -> None:
    """The notice says "Element updated" at once; the PUT leaves 2 s later. A run that closed the browser on the
    notice would lose it (the site would log no PUT)."""
    start = len(request_log(site.base_url))
    code, run, err, request_id = _two_phase(site, workspace, _save_steps("undoable", "Element updated"))
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    assert _unsafe_log(site, start) == [("PUT", "/save/api")]
    ledger = _ledger(workspace, request_id)
    assert [(r["method"], _path(r["url"]), r["status"], r["kind"], r["step"]) for r in ledger] == [
        ("PUT", "/save/api", 200, "fetch", 2)]
    entry = ledger[0]
    body = b'{"title":"Q4 plan"}'
    assert entry["bodyBytes"] == len(body) and entry["bodyDigest"] == keyed_digest(body)
    assert "Q4 plan" not in orjson.dumps(events(workspace, request_id)).decode()  # the body is never recorded
    submit = next(s for s in run["steps"] if s["number"] == 2)
    assert submit["sent"][0]["method"] == "PUT" and "sent PUT" in submit["note"]


def test_a_save_a_click_sets_off_a_moment_later_is_the_clicks(site: DemoSite, workspace: Path) -> None:
    """An autosave's debounce: the POST leaves 250 ms after the click, with nothing on the page saying so. The click
    step's short look for what it starts must not end while the page's timer is still due (the page has a timer of
    its own, so "nothing scheduled" cannot cut the look short), and the POST is that step's, not a later one's."""
    start = len(request_log(site.base_url))
    doc = {"title": "Autosave the title", "startUrl": "/save/debounced?delay=250", "steps": [
        {"kind": "fill", "field": "title", "target": {"role": "textbox", "names": ["Title"]}, "value": "Q4 plan"},
        {"kind": "act", "title": "save", "target": {"role": "button", "names": ["Save"]}},
        {"kind": "read", "action": "snapshot", "title": "after"},
    ]}
    code, run, err, request_id = _two_phase(site, workspace, doc)
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    assert _unsafe_log(site, start) == [("POST", "/save/api")]
    assert [(r["method"], _path(r["url"]), r["step"]) for r in _ledger(workspace, request_id)] == [
        ("POST", "/save/api", 2)]


def test_the_ledger_is_what_the_site_received_and_verify_guards_it(site: DemoSite, workspace: Path) -> None:
    start = len(request_log(site.base_url))
    code, run, err, request_id = _two_phase(site, workspace, _save_steps("plain", "Saved"))
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    ledger = _ledger(workspace, request_id)
    assert [(r["method"], _path(r["url"])) for r in ledger] == _unsafe_log(site, start) == [("POST", "/save/api")]
    shown = cli_run(workspace, "evidence", "show", request_id)
    assert "Sent to the server" in shown.stdout and re.search(r"\| 2 \| POST \| http://[^|]+/save/api \| 200 \|",
                                                                shown.stdout), shown.stdout
    summary = (bundle_of(workspace, request_id) / "summary.md").read_text(encoding="utf-8")
    assert "| 2 | POST |" in summary
    report = cli_run(workspace, "evidence", "report", request_id)
    assert report.exit_code == 0, report.output
    html = (bundle_of(workspace, request_id) / "report.html").read_text(encoding="utf-8")
    assert "Sent to the server during step 2" in html and "/save/api" in html
    assert cli_run(workspace, "evidence", "verify", request_id).exit_code == 0
    # An auditor's edit of one ledger entry (the 200 made a 201) is caught by the manifest.
    path = bundle_of(workspace, request_id) / "events.jsonl"
    text = path.read_text(encoding="utf-8")
    assert text.count('"status":200') == 1
    path.write_text(text.replace('"status":200', '"status":201'), encoding="utf-8")
    verify = cli_run(workspace, "evidence", "verify", request_id)
    assert verify.exit_code == 1 and "events.jsonl" in verify.output


def test_beacons_websocket_messages_and_fetches_are_all_in_the_ledger(site: DemoSite, workspace: Path) -> None:
    doc = {"title": "Send three ways", "startUrl": "/rehearse/unsafe", "steps": [
        {"kind": "act", "title": "Save draft", "target": {"role": "button", "names": ["Save draft"]},
         "expect": {"text": ["Draft saved"]}},
        {"kind": "act", "title": "Notify", "target": {"role": "button", "names": ["Notify"]}, "sends": True},
        {"kind": "act", "title": "Chat", "target": {"role": "button", "names": ["Connect chat"]}, "sends": True},
    ]}
    start = len(request_log(site.base_url))
    code, run, err, request_id = _two_phase(site, workspace, doc)
    assert code == 0 and run["runStatus"] == "complete", (run["error"], run.get("details"), err)
    ledger = [(r["step"], r["method"], _path(r["url"]), r["kind"]) for r in _ledger(workspace, request_id)]
    assert ledger == [(1, "POST", "/rehearse/draft", "fetch"), (2, "POST", "/rehearse/beacon", "ping"),
                      (3, "WS", "/rehearse/chat", "websocket")], ledger
    assert _unsafe_log(site, start) == [("POST", "/rehearse/draft"), ("POST", "/rehearse/beacon"),
                                        ("WSMSG", "/rehearse/chat")]


def _leave_steps(*then: dict[str, Any]) -> dict[str, Any]:
    return {"title": "Save the title and leave", "startUrl": "/save/leave", "steps": [
        {"kind": "fill", "field": "title", "target": {"role": "textbox", "names": ["Title"]}, "value": "Q4 plan"},
        *then]}


def test_a_beacon_sent_as_the_page_unloads_is_in_the_ledger_with_its_status(site: DemoSite, workspace: Path) -> None:
    """Save posts the form and navigates away; the page's pagehide listener sends a beacon, which the browser sends
    after the document is gone (no page request event reports it): the ledger has it, answered 202."""
    start = len(request_log(site.base_url))
    code, run, err, request_id = _two_phase(site, workspace, _leave_steps(
        {"kind": "submit", "target": {"role": "button", "names": ["Save"]}, "expect": {"text": ["Saved"]}}))
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    assert _unsafe_log(site, start) == [("POST", "/save/form"), ("POST", "/save/release")]
    ledger = [(r["step"], r["method"], _path(r["url"]), r["status"], r.get("unloading", False))
              for r in _ledger(workspace, request_id)]
    assert ledger == [(2, "POST", "/save/form", 303, False), (2, "POST", "/save/release", 202, True)], ledger
    beacon = _ledger(workspace, request_id)[1]
    assert beacon["kind"] == "ping" and beacon["bodyBytes"] == len(b"lock=1") and not beacon.get("inFlight")
    summary = (bundle_of(workspace, request_id) / "summary.md").read_text(encoding="utf-8")
    row = r"\| 2 \| POST \| http://[^|]+/save/release \| 202 \| ping \(as its page unloaded\)"
    assert re.search(row, summary), summary


def test_prepare_refuses_a_beacon_a_page_sends_as_a_step_leaves_it(site: DemoSite, workspace: Path) -> None:
    """The rehearsal follows a navigate step away from the form: the beacon its pagehide listener sends never
    reaches a route, and must still not leave the fenced copy."""
    start = len(request_log(site.base_url))
    steps = write_steps(workspace, "steps.yaml", _leave_steps({"kind": "navigate", "url": "/save/leave?saved=no"}))
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 2, (prepared, err)
    assert _unsafe_log(site, start) == []
    assert any("/save/release" in line for line in orjson.dumps(prepared).decode().split('"')), prepared
