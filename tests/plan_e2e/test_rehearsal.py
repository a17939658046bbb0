"""prepare rehearses in-page steps in a fenced copy of the browser: it reads past clicks, finds what the form says
is wrong, leaves a step "not read" when the page needed a request it refused, and the site receives nothing but
safe requests while it does (the demo site's own request log says so)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

import pytest

from browserops.demo_site import DemoSite
from tests.plan_e2e.helpers import bundle_of, cli_json, cli_run, events, post, request_log, write_steps

SAFE = {"GET", "HEAD", "OPTIONS"}


@pytest.fixture
def site(demo_site: DemoSite) -> DemoSite:
    demo_site.reset()
    return demo_site


def _order_steps(*extra: dict[str, Any], email: str | None = "ops@example.com") -> dict[str, Any]:
    steps: list[dict[str, Any]] = [
        {"kind": "fill", "field": "customer", "target": {"role": "textbox", "names": ["Customer"]}, "value": "Globex"},
        {"kind": "act", "title": "More options", "target": {"role": "button", "names": ["More options"]}},
        {"kind": "fill", "field": "notes", "target": {"role": "textbox", "names": ["Delivery notes"]},
         "value": "Ring twice"},
        {"kind": "fill", "action": "select", "field": "priority", "target": {"role": "combobox", "names": ["Priority"]},
         "value": "Urgent"},
        {"kind": "act", "title": "Add a row", "target": {"role": "button", "names": ["Add another row"]}},
        {"kind": "fill", "field": "item2", "target": {"role": "textbox", "names": ["Item 2"]}, "value": "Pens"},
        {"kind": "act", "title": "Billing", "target": {"role": "tab", "names": ["Billing"]}},
        {"kind": "fill", "field": "vat", "target": {"role": "textbox", "names": ["VAT number"]}, "value": "FI12345678"},
    ]
    if email is not None:
        steps.append({"kind": "fill", "field": "email", "target": {"role": "textbox", "names": ["Email"]},
                      "value": email})
    steps += list(extra)
    steps.append({"kind": "submit", "target": {"role": "button", "names": ["Place order"]},
                  "expect": {"text": ["Order placed"]}})
    return {"title": "Place an order", "startUrl": "/rehearse/order", "steps": steps}


def _unsafe(sent: list[dict[str, str]]) -> list[dict[str, str]]:
    return [r for r in sent if r["method"] not in SAFE]


def test_prepare_reads_past_in_page_clicks_and_sends_nothing_unsafe(site: DemoSite, workspace: Path) -> None:
    steps = write_steps(workspace, "order.yaml", _order_steps())
    before = len(request_log(site.base_url))
    code, data, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 2, (data, err)
    sent = request_log(site.base_url)[before:]
    assert _unsafe(sent) == [] and {"method": "GET", "path": "/rehearse/order"} in sent
    diff = {d["field"]: d for d in data["diff"]}
    # Read after the clicks that reveal them: changes with their old values, none of them "not read".
    assert (diff["notes"]["op"], diff["notes"]["before"], diff["notes"]["after"]) == ("~", "Leave at the door",
                                                                                     "Ring twice")
    assert (diff["priority"]["before"], diff["priority"]["after"]) == ("Normal", "Urgent")
    assert (diff["vat"]["before"], diff["vat"]["after"]) == ("FI0000001", "FI12345678")
    assert diff["item2"]["op"] == "+" and not any(d["unread"] for d in data["diff"])
    assert data["unread"] == [] and data["notRead"] == [] and data["problems"] == []
    assert data["rehearsed"] == list(range(1, 10))  # every fill and act; never the submit (step 10)
    assert any("POST request to " in r and r.endswith("/rehearse/beacon") for r in data["refused"])
    assert all(s["preparedNumber"] is not None for s in data["steps"])
    # The run does it for real; the page's own submit is the only unsafe request.
    code, run, err = cli_json(workspace, "run", data["requestId"], "--confirm", data["confirmPhrase"])
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    assert {"method": "POST", "path": "/rehearse/order"} in request_log(site.base_url)


def test_the_form_says_what_is_wrong_at_prepare_time(site: DemoSite, workspace: Path) -> None:
    doc = _order_steps(email=None)
    doc["steps"][7]["value"] = "12-34"  # the VAT field's pattern refuses it
    steps = write_steps(workspace, "bad_order.yaml", doc)
    code, data, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 2, (data, err)
    problems = [(p["step"], p["code"]) for p in data["problems"]]
    assert problems == [(9, "BROWSER_FORM_INVALID"), (9, "BROWSER_FORM_INVALID")], data["problems"]
    messages = " | ".join(p["message"] for p in data["problems"])
    assert "Email: the browser says" in messages and "VAT number: the browser says" in messages
    text = cli_run(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url).stdout
    assert "Problems found while rehearsing (2)" in text and "step 9: BROWSER_FORM_INVALID: Email" in text


def test_a_refused_request_the_page_needed_leaves_the_next_steps_not_read(site: DemoSite, workspace: Path) -> None:
    title = "Everything a rehearsal refuses"
    steps = write_steps(workspace, "unsafe.yaml", {"title": title, "startUrl": "/rehearse/unsafe", "steps": [
        {"kind": "act", "title": "Save a draft", "target": {"role": "button", "names": ["Save draft"]}},
        {"kind": "fill", "field": "draft_title", "target": {"role": "textbox", "names": ["Draft title"]},
         "value": "Q4 plan"},
        {"kind": "navigate", "url": "/rehearse/unsafe"},
        {"kind": "act", "title": "Notify", "target": {"role": "button", "names": ["Notify"]}},
        {"kind": "act", "title": "Pop out", "target": {"role": "button", "names": ["Pop out"]}},
        {"kind": "act", "title": "Chat", "target": {"role": "button", "names": ["Connect chat"]},
         "expect": {"text": ["Chat says welcome"]}},
        {"kind": "fill", "field": "chat_message", "target": {"role": "textbox", "names": ["Chat message"]},
         "value": "hi"},
        {"kind": "navigate", "url": "/rehearse/unsafe"},
        {"kind": "fill", "field": "filter", "target": {"role": "textbox", "names": ["Filter"]}, "value": "north"},
        {"kind": "act", "title": "Filter", "target": {"role": "button", "names": ["Apply filter"]},
         "expect": {"text": ["Filtered by north"]}},  # the page itself with another query: not a new page
        {"kind": "act", "title": "Download", "target": {"role": "link", "names": ["Download orders"]}},
        {"kind": "act", "title": "Report", "target": {"role": "link", "names": ["Open report"]}},
        {"kind": "read", "expect": {"text": ["Report"]}},
    ]})
    before = len(request_log(site.base_url))
    code, data, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 2, (data, err)
    sent = request_log(site.base_url)[before:]
    assert [r for r in sent if r["method"] not in SAFE | {"WS"}] == [], sent  # no POST, no WebSocket message
    assert not any(r["path"] in ("/rehearse/report", "/rehearse/export.csv") for r in sent), sent
    not_read = {n["step"]: n["reason"] for n in data["notRead"]}
    assert set(not_read) == {2, 7, 12, 13}, not_read
    assert "step 1 (act, button \"Save draft\") sent POST request to " in not_read[2]
    assert "WebSocket message" in not_read[7] and "new page" in not_read[12]
    assert 10 in data["rehearsed"] and {"method": "GET", "path": "/rehearse/unsafe"} in sent
    assert data["unread"] == [2, 7] and {d["field"]: d["unread"] for d in data["diff"]} == {
        "draft_title": True, "chat_message": True, "filter": False}
    assert data["problems"] == []  # the beacon and the popup are refused without making anything unreadable
    assert any(r.startswith("popup") for r in data["refused"])
    # The click on "Download orders" went nowhere (its new page was refused): prepare knew at once and did not wait
    # out the action's 10 s for a navigation that could not come.
    [report] = [e for e in events(workspace, data["requestId"]) if e["phase"] == "prepare" and e["step"] == 11]
    assert report["status"] == "ok" and report["durationMs"] < 5000, (report["durationMs"], report.get("note"))


def test_a_target_revealed_by_typing_is_looked_for_when_the_run_gets_there(site: DemoSite, workspace: Path) -> None:
    steps = write_steps(workspace, "find.yaml", {"title": "Add a stapler", "startUrl": "/rehearse/order", "steps": [
        {"kind": "fill", "field": "find", "target": {"role": "searchbox", "names": ["Find product"]},
         "value": "Sta"},
        {"kind": "act", "title": "Add it", "target": {"role": "button", "names": ["Add Stapler"]},
         "expect": {"text": ["Added Stapler"]}},
    ]})
    code, data, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 2, (data, err)
    assert [s["revealedBy"] for s in data["steps"]] == [None, 1]
    code, run, err = cli_json(workspace, "run", data["requestId"], "--confirm", data["confirmPhrase"])
    assert code == 0 and [s["status"] for s in run["steps"]] == ["ok", "ok"], (run, err)


def test_a_failed_run_after_typing_says_exactly_what_it_did(site: DemoSite, workspace: Path) -> None:
    steps = write_steps(workspace, "order.yaml", _order_steps())
    code, data, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 2, (data, err)
    post(site.base_url, "/__variant", {"name": "order_notes_label", "value": "Courier notes"})
    before = len(request_log(site.base_url))
    code, run, err = cli_json(workspace, "run", data["requestId"], "--confirm", data["confirmPhrase"])
    assert code == 1 and run["code"] == "BROWSER_SITE_CHANGED" and run["details"]["failedStep"] == 3, run
    assert run["error"].endswith("Step 1 typed or chose values in the page; step 2 clicked, but no submit or payment "
                                 "step ran, so nothing was submitted."), run["error"]
    assert "Nothing on this page was changed" not in run["error"]
    assert {"method": "POST", "path": "/rehearse/order"} not in request_log(site.base_url)[before:]


def test_the_printed_run_command_works_with_sensitive_values(site: DemoSite, workspace: Path) -> None:
    steps = write_steps(workspace, "login.yaml", {"title": "Log in", "startUrl": "/login", "steps": [
        {"kind": "fill", "field": "username", "target": {"role": "textbox", "names": ["Username"]}, "value": "ada"},
        {"kind": "fill", "field": "password", "target": {"role": "textbox", "names": ["Password"]},
         "valueRef": {"key": "password", "sensitive": True}},
        {"kind": "submit", "target": {"role": "button", "names": ["Log in"]}, "expect": {"text": ["Account"]}},
    ]})
    secrets = workspace / "secrets.yaml"
    secrets.write_text("password: demo\n", encoding="utf-8")
    out = cli_run(workspace, "prepare", "--steps", str(steps), "--input", str(secrets), "--base-url", site.base_url)
    assert out.exit_code == 2, out.output
    line = next(x for x in out.stdout.splitlines() if x.startswith("To run it: "))
    command = shlex.split(line.removeprefix("To run it: "))
    assert command[0] == "browserops" and "--input" in command and str(secrets.resolve()) in command
    ran = cli_run(workspace, *command[1:])  # exactly as printed
    assert ran.exit_code == 0, ran.output
    request_id = next(word for word in command if word.startswith("req-"))
    assert site.state.logins == ["ada"] and "demo" not in (bundle_of(workspace, request_id) / "plan.json").read_text()


def test_a_prepare_that_fails_names_the_step_and_does_not_call_it_a_change(site: DemoSite, workspace: Path) -> None:
    steps = write_steps(workspace, "typo.yaml", {"title": "Typo", "startUrl": "/rehearse/order", "steps": [
        {"kind": "fill", "field": "customer", "target": {"role": "textbox", "names": ["Customer"]}, "value": "Globex"},
        {"kind": "act", "title": "More options", "target": {"role": "button", "names": ["More options"]}},
        {"kind": "fill", "field": "notes", "target": {"role": "textbox", "names": ["Delivery notes"]}, "value": "x"},
        {"kind": "fill", "field": "amount", "target": {"role": "spinbutton", "names": ["Amount"]}, "value": "3"},
    ]})
    code, data, _ = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 1 and data["code"] == "BROWSER_TARGET_NOT_FOUND", data
    assert data["error"].startswith('Step 4 (fill amount, spinbutton "Amount"): Cannot find spinbutton "Amount"')
    assert "first look at the page, so nothing changed" in data["error"] and "site changed" not in data["error"]
    assert data["details"]["step"] == 4
    summary = (Path(data["details"]["bundle"]) / "summary.md").read_text(encoding="utf-8")
    assert "| 4 | fill |" in summary and "BROWSER_TARGET_NOT_FOUND" in summary
    assert "| 0 | navigate | browser_screenshot" not in summary and "(browser_screenshot)" not in summary


def test_a_value_the_field_does_not_offer_is_a_problem(site: DemoSite, workspace: Path) -> None:
    doc = _order_steps()
    doc["steps"][3]["value"] = "Overnight"  # Priority offers Normal and Urgent
    steps = write_steps(workspace, "overnight.yaml", doc)
    code, data, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 2, (data, err)
    assert [(p["step"], p["code"]) for p in data["problems"]] == [(4, "BROWSER_ELEMENT_NOT_FOUND")], data["problems"]
    assert "Overnight" in data["problems"][0]["message"]
    # The rehearsal left the page where the run would fail: the rest of it is not read, with the reason.
    assert data["notRead"][0]["step"] == 5 and "could not be rehearsed" in data["notRead"][0]["reason"]


def test_a_page_behind_a_sign_in_prepare_did_not_make_is_not_read(site: DemoSite, workspace: Path) -> None:
    """bug: prepare followed a navigate after a click it did not make, sat on the login page, and failed."""
    steps = write_steps(workspace, "login_then.yaml", {"title": "Log in, then the account", "startUrl": "/login",
                                                       "steps": [
        {"kind": "fill", "field": "username", "target": {"role": "textbox", "names": ["Username"]}, "value": "ada"},
        {"kind": "fill", "field": "password", "target": {"role": "textbox", "names": ["Password"]},
         "valueRef": {"key": "password", "sensitive": True}},
        {"kind": "submit", "target": {"role": "button", "names": ["Log in"]}, "expect": {"text": ["Account"]}},
        {"kind": "navigate", "url": "/account"},
        {"kind": "read", "expect": {"text": ["Signed in as ada"]}},
    ]})
    secrets = workspace / "secrets.yaml"
    secrets.write_text("password: demo\n", encoding="utf-8")
    code, data, err = cli_json(workspace, "prepare", "--steps", str(steps), "--input", str(secrets),
                               "--base-url", site.base_url)
    assert code == 2, (data, err)
    reasons = {n["step"]: n["reason"] for n in data["notRead"]}
    assert set(reasons) == {5} and "asks to sign in, because step 3 (submit" in reasons[5], reasons
    assert site.state.logins == []



def test_a_page_that_posts_as_it_is_closed_sends_nothing_while_prepare_looks(site: DemoSite,
                                                                             workspace: Path) -> None:
    """A CMS editor releases its editing session with sendBeacon and a keepalive fetch when the tab is left or
    closed: closing prepare's throwaway copy must not let that POST out (the page is not the plan's to close)."""
    doc = {"title": "Edit the note", "startUrl": "/rehearse/editing", "steps": [
        {"kind": "fill", "field": "note", "target": {"role": "textbox", "names": ["Note"]}, "value": "New note"},
        {"kind": "submit", "target": {"role": "button", "names": ["Save note"]}, "expect": {"text": ["Note saved"]}}]}
    steps = write_steps(workspace, "note.yaml", doc)
    before = len(request_log(site.base_url))
    code, data, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 2, (data, err)
    sent = request_log(site.base_url)[before:]
    assert {"method": "GET", "path": "/rehearse/editing"} in sent
    assert _unsafe(sent) == [], sent
    # The run is the person's own browser doing the plan: it saves the note.
    code, run, err = cli_json(workspace, "run", data["requestId"], "--confirm", data["confirmPhrase"])
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    assert {"method": "POST", "path": "/rehearse/editing"} in request_log(site.base_url)[before:]
