"""``browserops evidence list|show|verify`` through CliRunner."""

from __future__ import annotations

from pathlib import Path

import orjson
from click.testing import CliRunner

from browserops.cli import cli
from browserops.evidence import BundleWriter, StepEvent
from tests.plan_samples import REQUEST_ID, expense_plan
from tests.test_evidence import fresh_bundle


def run(ws: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--workspace", str(ws), *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_list_empty_and_filled(workspace: Path) -> None:
    code, out, _ = run(workspace, "evidence", "list")
    assert code == 0 and "No evidence bundles" in out
    fresh_bundle(workspace)
    code, out, _ = run(workspace, "evidence", "list")
    assert code == 0 and REQUEST_ID in out and "complete" in out and "File a taxi expense" in out
    for args in (["evidence", "list", "--json"], ["--json", "evidence", "list"]):
        code, out, _ = run(workspace, *args)
        data = orjson.loads(out)
        assert code == 0 and data["workspace"] == str(workspace.resolve())
        bundle = data["bundles"][0]
        assert bundle["requestId"] == REQUEST_ID and bundle["status"] == "complete" and bundle["steps"] == 8
        assert bundle["hasManifest"] and not bundle["interrupted"]


def test_show(workspace: Path) -> None:
    fresh_bundle(workspace)
    code, out, _ = run(workspace, "evidence", "show", REQUEST_ID)
    assert code == 0
    assert out.startswith(f"# Evidence bundle {REQUEST_ID}") and "## Attempts" in out
    assert "(8 files checked); unsigned" in out.splitlines()[-1] and "Verify: OK" in out
    code, out, _ = run(workspace, "evidence", "show", REQUEST_ID, "--json")
    data = orjson.loads(out)
    assert code == 0 and set(data) == {"bundle", "info", "plan", "events", "files", "verify"}
    assert data["plan"]["requestId"] == REQUEST_ID and len(data["events"]) == 2 and data["verify"]["ok"]


def test_verify_ok_then_tampered(workspace: Path) -> None:
    path = fresh_bundle(workspace)
    code, out, _ = run(workspace, "evidence", "verify", REQUEST_ID)
    assert code == 0 and out.startswith(f"OK: {REQUEST_ID} is intact and complete")
    code, out, _ = run(workspace, "evidence", "verify", REQUEST_ID, "--json")
    assert code == 0 and orjson.loads(out)["report"]["ok"] is True

    (path / "plan.json").write_bytes((path / "plan.json").read_bytes().replace(b"23.40", b"93.40"))
    (path / "screenshots/002_after_merchant.png").unlink()
    code, out, err = run(workspace, "evidence", "verify", REQUEST_ID)
    assert code == 1
    assert "edited:  plan.json" in out and "missing: screenshots/002_after_merchant.png" in out
    assert "Error [BROWSER_EVIDENCE_MISMATCH]" in err and "1 edited, 1 missing" in err
    code, out, _ = run(workspace, "evidence", "verify", REQUEST_ID, "--json")
    data = orjson.loads(out)
    assert code == 1 and data["code"] == "BROWSER_EVIDENCE_MISMATCH"
    assert data["details"]["report"]["edited"] == ["plan.json"]


def test_verify_interrupted_bundle(workspace: Path) -> None:
    writer = BundleWriter.create(workspace, REQUEST_ID, phase="run")
    writer.write_plan(expense_plan())
    writer.log_event(StepEvent.begin(step=1).end({"status": "ok"}))  # and then the process "dies": no finish
    code, out, err = run(workspace, "evidence", "verify", REQUEST_ID)
    assert code == 1 and "status incomplete (interrupted)" in out and "run interrupted" in err
    code, out, _ = run(workspace, "evidence", "list")
    assert "interrupted" in out
    code, out, _ = run(workspace, "evidence", "show", REQUEST_ID)
    assert code == 0 and "interrupted (the writer stopped before finishing)" in out and "Verify: FAILED" in out


def test_unknown_and_malformed_ids(workspace: Path) -> None:
    code, _, err = run(workspace, "evidence", "verify", "req-20260105-101500-ffff")
    assert code == 1 and "BROWSER_EVIDENCE_NOT_FOUND" in err and "evidence list" in err
    code, out, _ = run(workspace, "--json", "evidence", "show", "../../etc")
    assert code == 1 and orjson.loads(out)["code"] == "BROWSER_INVALID_ARGS"


def test_other_workspace_cannot_see_the_bundle(tmp_path: Path) -> None:
    fresh_bundle(tmp_path / "a")
    code, _, err = run(tmp_path / "b", "evidence", "show", REQUEST_ID)
    assert code == 1 and "BROWSER_EVIDENCE_NOT_FOUND" in err
