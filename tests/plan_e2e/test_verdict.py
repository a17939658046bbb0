"""Issue 35: the verdict is exact. A plan prepare calls ready runs on the unchanged page: several steps on one field
are one line of the diff, whose staleness baseline is the field's value before any step touched it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from browserops.demo_site.zoo_site import ZooSite
from tests.plan_e2e.helpers import cli_json, write_steps


@pytest.fixture(scope="module")
def zoo() -> Iterator[ZooSite]:
    with ZooSite() as site:
        yield site


def _pick(field: str, option: str) -> dict[str, object]:
    return {"kind": "fill", "action": "select", "field": field, "target": {"role": "listbox", "names": ["Fruits"]},
            "value": option}


def test_two_steps_on_one_multiple_select_prepare_and_run(zoo: ZooSite, workspace: Path) -> None:
    steps = write_steps(workspace, "fruits.yaml", {"title": "Pick fruits", "steps": [
        _pick("fruit1", "Apple"), _pick("fruit2", "Banana")]})
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--url", zoo.url("native"))
    assert code == 2, (prepared, err)
    # One field, one line: the value before either step (empty), and what the last step leaves.
    assert [(d["field"], d["op"], d.get("before"), d["after"]) for d in prepared["diff"]] == [
        ("fruit1", "+", None, "Banana")], prepared["diff"]
    code, run, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert code == 0 and run["runStatus"] == "complete", (run.get("error"), err)
    assert [s["status"] for s in run["steps"]] == ["ok", "ok"]



def test_a_field_that_rewrites_what_is_typed_is_read_back_before_the_next_step(zoo: ZooSite,
                                                                                workspace: Path) -> None:
    """IMask (from npm) formats a phone number as it is typed: the field then holds other text than the plan's.
    The read-back after the act says so — in prepare's rehearsal as a problem, in the run as BROWSER_VALUE_MISMATCH
    with the field, the planned and the found value — and the run's later steps never run."""
    steps = write_steps(workspace, "phone.yaml", {"title": "Phone and card", "steps": [
        {"kind": "fill", "field": "phone", "target": {"role": "textbox", "names": ["Phone"]}, "value": "15551234567"},
        {"kind": "fill", "field": "card", "target": {"role": "textbox", "names": ["Card number"]},
         "value": "4111111111111111"}]})
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--url", zoo.url("masks"))
    assert code == 2, (prepared, err)
    problems = [(p["step"], p["code"]) for p in prepared["problems"]]
    assert (1, "BROWSER_VALUE_MISMATCH") in problems, prepared["problems"]
    code, run, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert code == 1 and run["code"] == "BROWSER_VALUE_MISMATCH", (run, err)
    details = run["details"]
    assert details["field"] == "phone" and details["planned"] == "15551234567" and details["found"] != "15551234567"
    assert [s["status"] for s in details["run"]["steps"]] == ["error"]  # the card was never typed
