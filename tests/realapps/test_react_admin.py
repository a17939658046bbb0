"""react-admin 5.15 over json-server 0.17.4, through browserops' two phases in real Chromium; db.json is the proof.

One json-server per session (tests/realapps/conftest.py), reseeded (seed file copied, json-server told to re-read it)
before every attempt. The tasks every app gets are in tests/realapps/suite.py.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import yaml

from tests.realapps.apps.react_admin import app as desk
from tests.realapps.apps.react_admin.tasks import TASKS, check_unchanged
from tests.realapps.harness import RunningApp
from tests.realapps.suite import app_tests
from tests.realapps.twophase import CorpusTask, cli_json, prepare, two_phase

CORPUS_APP = "react_admin"
test_task = app_tests(CORPUS_APP, twice=None)  # no shared profile: suite.py
HELD_MS = 1500  # well after the edit form shows, within the settle bound (plan/pages.py SETTLE_MS)


def test_a_rejected_save_saves_nothing(app: RunningApp, tmp_path: Path) -> None:
    """The segment form without its required name: the desk refuses to save, the run fails, db.json is as seeded."""
    desk.reseed(app)
    doc = yaml.safe_load(TASKS["create_segment"].steps.read_text(encoding="utf-8"))
    doc["steps"] = [step for step in doc["steps"] if step.get("field") != "name"]
    steps = tmp_path / "nameless_segment.yaml"
    steps.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    task = CorpusTask("nameless_segment", steps, check_unchanged, TASKS["create_segment"].baseline,
                      inputs=TASKS["create_segment"].inputs)
    outcome = two_phase(tmp_path / "ws", app, task)
    assert outcome.prepare_requests.unsafe == []
    failure = outcome.failure() or ""
    assert failure.startswith("run BROWSER_SUBMIT_FAILED"), outcome.describe()
    # The form's own words, read as soon as the page marked the field invalid (not after the expectation's 10 s).
    assert "marked fields invalid: Name *: the page marks it invalid: 'Required'" in failure, failure
    assert outcome.run_requests is not None and outcome.run_requests.unsafe == []
    check_unchanged(app)


def test_the_apps_sign_in_route_is_a_login_wall(app: RunningApp, tmp_path: Path) -> None:
    """A plan without the sign-in steps: the desk goes to its hash route #/login after loading, which prepare
    calls a login wall (BROWSER_LOGIN_REQUIRED), not a missing target."""
    desk.reseed(app)
    doc = yaml.safe_load(TASKS["edit_invoice_amount"].steps.read_text(encoding="utf-8"))
    doc["steps"] = [step for step in doc["steps"]
                    if step.get("kind") in ("navigate", "submit") or step.get("field") == "amount"]
    steps = tmp_path / "signed_out_edit.yaml"
    steps.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    (tmp_path / "ws").mkdir()
    code, data, _ = prepare(tmp_path / "ws", app, steps, {})
    assert code == 1 and data["code"] == "BROWSER_LOGIN_REQUIRED", data
    assert "#/login" in data["error"] and "--profile DIR --headed" in data["error"]


def _edit_alpine_steps(tmp_path: Path) -> Path:
    """Alpine Ski House (seeded: segment Mid-market, tag Newsletter, not VIP): another segment, a second tag."""
    doc = yaml.safe_load(TASKS["edit_customer_vip"].steps.read_text(encoding="utf-8"))
    doc["title"], doc["startUrl"] = "Move Alpine Ski House to Enterprise, tagged Partner too", "/#/customers/2"
    doc["steps"][0]["url"] = "/#/customers/2"
    doc["steps"][4]["expect"] = {"text": ["Customer Alpine Ski House"]}
    doc["steps"][5:6] = [
        {"kind": "fill", "action": "select", "field": "segment", "target": {"role": "combobox", "names": ["Segment"]},
         "value": "Enterprise"},
        {"kind": "fill", "action": "select", "field": "tags", "target": {"role": "combobox", "names": ["Tags"]},
         "value": ["Newsletter", "Partner"]},
    ]
    doc["steps"][-1]["saveWaitMs"] = 20000  # react-admin sends the undoable PUT once its notice closes
    steps = tmp_path / "edit_alpine.yaml"
    steps.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return steps


def _alpine(app: RunningApp) -> dict[str, Any]:
    return next(c for c in desk.database(app)["customers"] if c["id"] == 2)


def test_prepare_reads_custom_selects_and_the_edit_lands(app: RunningApp, tmp_path: Path) -> None:
    """Issue 24 item 5 and 18 item 3 on Material UI: prepare reads what the button-style Select and the multiple
    Select show, so the diff says what changes (~ old -> new, the tags as one list); the run keeps the tag that
    was there (clicking it again would take it away) and the database has exactly the edit.

    The API answers the selects' choices (segments, tags) late, after the record's title is shown: read before
    those GETs are answered, the selects show nothing yet (the diff would say ``+ segment``, the run's staleness
    check would call the plan stale). prepare and the run read once the page has settled."""
    desk.reseed(app)
    desk.hold(app, ["/segments", "/tags"], HELD_MS)
    task = CorpusTask("edit_alpine", _edit_alpine_steps(tmp_path), check_unchanged, TASKS["create_segment"].baseline,
                      inputs=TASKS["edit_customer_vip"].inputs)
    outcome = two_phase(tmp_path / "ws", app, task)
    diff = str(outcome.prepare.get("diffText"))
    lines = [" ".join(line.split()) for line in diff.splitlines()]
    assert '~ segment = "Mid-market" -> "Enterprise"' in lines, diff
    assert '~ tags = ["Newsletter"] -> ["Newsletter", "Partner"]' in lines, diff
    assert outcome.failure() is None, outcome.describe()
    alpine = _alpine(app)
    assert alpine["segment_id"] == 3 and sorted(alpine["tag_ids"]) == [2, 3], alpine


def test_a_custom_select_changed_after_prepare_makes_the_plan_stale(app: RunningApp, tmp_path: Path) -> None:
    """The staleness check covers a custom select: someone moves Alpine Ski House to Public sector between
    prepare and run; run refuses the plan and leaves that change alone."""
    desk.reseed(app)
    workspace = tmp_path / "ws"
    workspace.mkdir()
    code, prepared, err = prepare(workspace, app, _edit_alpine_steps(tmp_path), TASKS["edit_customer_vip"].inputs)
    assert code == 2, (prepared, err[-2000:])
    request = urllib.request.Request(app.base_url + "/customers/2", data=json.dumps({"segment_id": 4}).encode(),
                                     method="PATCH", headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200
    code, ran, _ = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"],
                            "--input", str(workspace / "input.yaml"))
    assert code != 0 and ran.get("code") == "BROWSER_PLAN_STALE", ran
    alpine = _alpine(app)
    assert alpine["segment_id"] == 4 and alpine["tag_ids"] == [2], alpine
