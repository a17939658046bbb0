"""Evidence bundles: writing, the manifest, verification against edits, crashes (real SIGKILL), isolation."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import orjson
import pytest

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence import (
    BundleWriter,
    StepEvent,
    find_bundle,
    list_bundles,
    read_events,
    read_info,
    verify_bundle,
)
from browserops.evidence.layout import MANIFEST_FILE
from browserops.plan import confirm_phrase, load_plan, resolve_plan
from tests.plan_samples import REQUEST_ID, expense_plan

PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 64
ROOT = Path(__file__).resolve().parents[1]


def fresh_bundle(workspace: Path) -> Path:
    """prepare (plan + snapshot) then a confirmed run (events, screenshots, export), both finished."""
    plan = expense_plan()
    with BundleWriter.create(workspace, REQUEST_ID) as writer:
        writer.write_plan(plan)
        writer.add_snapshot(1, "expense", "- textbox \"Merchant\"\n- button \"Submit expense\"\n")
        writer.finish("prepared")
    with BundleWriter.open(workspace, REQUEST_ID, confirmed_with=confirm_phrase(plan)) as writer:
        ev = StepEvent.begin(step=2, tool="browser_overlay_act", kind="fill",
                             args={"index": 4, "action": "type", "text": "Northwind Taxi"})
        # Typing changed the page: the after image differs from the before one.
        shots = [writer.add_screenshot(2, phase, PNG + phase.encode(), "merchant") for phase in ("before", "after")]
        writer.log_event(ev.end({"status": "ok"}, page_url="http://127.0.0.1/expense", page_title="New expense",
                                screenshots=shots))
        export = writer.add_export("statements_2026-01.csv", b"month,total\n2026-01,100.00\n")
        writer.log_event(StepEvent.begin(step=8, tool="browser_click_and_wait_download", kind="export")
                         .end({"status": "ok"}, exports=[export]))
        writer.finish("complete")
    return writer.path


def test_fresh_bundle_verifies_and_has_the_layout(workspace: Path) -> None:
    path = fresh_bundle(workspace)
    assert path == workspace.resolve() / "artifacts/browser/2026-01-05" / REQUEST_ID
    names = sorted(p.relative_to(path).as_posix() for p in path.rglob("*") if p.is_file())
    assert names == [
        "bundle.json", "events.jsonl", "exports/statements_2026-01.csv", MANIFEST_FILE, "plan.json",
        "screenshots/002_after_merchant.png", "screenshots/002_before_merchant.png",
        "snapshots/001_expense.aria.txt", "summary.md",
    ]
    report = verify_bundle(path)
    assert report.ok and report.intact and report.complete and report.status == "complete"
    assert report.files_checked == len(names) - 1
    assert load_plan(path / "plan.json") == expense_plan()
    manifest = (path / MANIFEST_FILE).read_text().splitlines()
    assert all(len(line.split("  ", 1)[0]) == 64 for line in manifest)
    info = read_info(path)
    assert info is not None and [a.status for a in info.attempts] == ["prepared", "complete"]
    assert info.attempts[1].confirmed_with == confirm_phrase(expense_plan())


@pytest.mark.parametrize("victim", ["plan.json", "events.jsonl", "bundle.json", "summary.md",
                                    "screenshots/002_before_merchant.png", "exports/statements_2026-01.csv"])
def test_one_changed_byte_anywhere_fails(workspace: Path, victim: str) -> None:
    path = fresh_bundle(workspace)
    target = path / victim
    data = bytearray(target.read_bytes())
    data[len(data) // 2] ^= 0x01
    target.write_bytes(bytes(data))
    report = verify_bundle(path)
    assert not report.ok and report.edited == [victim] and not report.missing and not report.extra


def test_removed_and_added_files_fail(workspace: Path) -> None:
    path = fresh_bundle(workspace)
    (path / "screenshots/002_after_merchant.png").unlink()
    report = verify_bundle(path)
    assert not report.ok and report.missing == ["screenshots/002_after_merchant.png"]
    path = fresh_bundle(workspace / "other")
    (path / "exports/extra.csv").write_text("x")
    (path / "notes.txt").symlink_to("/etc/hostname")
    report = verify_bundle(path)
    assert not report.ok and report.extra == ["exports/extra.csv", "notes.txt"]


def test_missing_manifest_or_forged_status_fail(workspace: Path) -> None:
    path = fresh_bundle(workspace)
    info = orjson.loads((path / "bundle.json").read_bytes())
    info["attempts"][-1]["status"] = "incomplete"
    (path / "bundle.json").write_bytes(orjson.dumps(info))
    assert verify_bundle(path).edited == ["bundle.json"]
    (path / MANIFEST_FILE).unlink()
    report = verify_bundle(path)
    assert not report.ok and report.interrupted and report.status == "incomplete"


def test_a_block_that_raises_finishes_incomplete(workspace: Path) -> None:
    with pytest.raises(BrowserOpsError), BundleWriter.create(workspace, REQUEST_ID) as writer:
        writer.write_plan(expense_plan())
        raise BrowserOpsError(ErrorCode.SITE_CHANGED, "No button 'Submit expense' on http://x/?mail=a@b.example")
    report = verify_bundle(writer.path)
    assert report.intact and not report.complete and not report.ok and report.status == "incomplete"
    info = read_info(writer.path)
    assert info is not None and info.status == "incomplete"
    assert info.attempts[0].reason is not None and "BROWSER_SITE_CHANGED" in info.attempts[0].reason
    assert "a@b.example" not in info.attempts[0].reason
    summary = (writer.path / "summary.md").read_text()
    assert "BROWSER\\_SITE\\_CHANGED" in summary or "BROWSER_SITE_CHANGED" in summary


def test_writer_refuses_after_finish_and_never_overwrites(workspace: Path) -> None:
    writer = BundleWriter.create(workspace, REQUEST_ID)
    first = writer.add_screenshot(3, "before", PNG, "submit")
    second = writer.add_screenshot(3, "before", PNG, "submit")
    assert (first, second) == ("screenshots/003_before_submit.png", "screenshots/003_before_submit-2.png")
    with pytest.raises(BrowserOpsError):
        writer.add_screenshot(3, "after", b"GIF89a", "submit")
    writer.write_plan(expense_plan())
    with pytest.raises(BrowserOpsError):
        writer.write_plan(expense_plan())
    writer.finish("prepared")
    with pytest.raises(BrowserOpsError):
        writer.log_event(StepEvent.begin(step=1))
    with pytest.raises(BrowserOpsError):
        BundleWriter.create(workspace, REQUEST_ID)


def test_events_hold_no_typed_text_or_pii(workspace: Path) -> None:
    writer = BundleWriter.create(workspace, REQUEST_ID, phase="run")
    ev = StepEvent.begin(step=5, tool="browser_overlay_act",
                         args={"index": 9, "action": "type", "text": "hunter2-secret"})
    ev.end({"status": "error", "code": "BROWSER_ACTION_FAILED", "error": "call +1 (555) 123-4567 or jo@x.example"},
           page_url="http://site/?email=jo@x.example", page_title="Hi jo@x.example")
    ev.note = "typed for jo@x.example"  # assigned after construction: still masked when logged
    logged = writer.log_event(ev)
    writer.finish("incomplete", reason="failed for jo@x.example")
    raw = (writer.path / "events.jsonl").read_text() + (writer.path / "summary.md").read_text()
    for secret in ("hunter2", "jo@x.example", "555"):
        assert secret not in raw
    assert logged.args["text"]["textLength"] == len("hunter2-secret")
    assert logged.request_id == REQUEST_ID and logged.attempt == 1 and logged.phase == "run"
    assert logged.duration_ms is not None and logged.elapsed_ms is not None
    events, problems = read_events(writer.path)
    assert problems == [] and events[0].args == logged.args  # masking twice changes nothing


def test_summary_escapes_untrusted_page_text(workspace: Path) -> None:
    writer = BundleWriter.create(workspace, REQUEST_ID, phase="run")
    writer.log_event(StepEvent.begin(step=1, tool="browser_navigate").end(
        {"status": "ok"}, page_url="http://x/", page_title="![pwn](http://evil/x.png) <script>alert(1)</script>"))
    writer.finish("complete")
    summary = (writer.path / "summary.md").read_text()
    assert "![pwn](" not in summary and "<script>" not in summary
    assert "\\!\\[pwn\\]" in summary


def test_summary_tells_the_story(workspace: Path) -> None:
    path = fresh_bundle(workspace)
    summary = (path / "summary.md").read_text()
    for fragment in ("# Evidence bundle " + REQUEST_ID, "File a taxi expense", "## What was asked",
                     "Confirmed by: `" + confirm_phrase(expense_plan()) + "`", "### Attempt 1: prepare, prepared",
                     "### Attempt 2: run, complete", "(screenshots/002_before_merchant.png)",
                     "## What failed", "Nothing.", "| merchant | `+` |  | Northwind Taxi |"):
        assert fragment in summary, fragment


def test_a_confirmed_plan_runs_to_completion_once(workspace: Path) -> None:
    fresh_bundle(workspace)  # prepared, then a confirmed run that completed
    with pytest.raises(BrowserOpsError) as info:
        BundleWriter.open(workspace, REQUEST_ID, confirmed_with=confirm_phrase(expense_plan()))
    assert info.value.code is ErrorCode.PLAN_STALE and "already ran with confirmation" in info.value.message
    assert verify_bundle(find_bundle(workspace, REQUEST_ID)).ok  # the refusal touched nothing
    with BundleWriter.open(workspace, REQUEST_ID) as writer:  # an unconfirmed (export-only) run may repeat
        writer.finish("complete")
    assert writer.attempt == 3


def test_run_without_phrase_is_recorded(workspace: Path) -> None:
    with BundleWriter.create(workspace, REQUEST_ID) as writer:
        writer.write_plan(expense_plan())
        writer.finish("prepared")
    with BundleWriter.open(workspace, REQUEST_ID) as writer:
        writer.log_event(StepEvent.begin(step=7, kind="submit").end(status="skipped", note="needs --confirm"))
        writer.finish("complete")
    summary = (writer.path / "summary.md").read_text()
    assert "no phrase: only read-only and export steps could run" in summary
    assert "step 7: needs --confirm" in summary


# --------------------------------------------------------------------------- crashes

WRITER_SCRIPT = textwrap.dedent("""
    import sys
    from pathlib import Path
    from browserops.evidence import BundleWriter, StepEvent
    from tests.plan_samples import REQUEST_ID, expense_plan

    ws = Path(sys.argv[1])
    writer = BundleWriter.create(ws, REQUEST_ID, phase="run")
    writer.write_plan(expense_plan())
    png = b"\\x89PNG\\r\\n\\x1a\\n" + bytes(200_000)
    n = 0
    while True:
        n += 1
        writer.add_screenshot(n, "before", png, "step")
        writer.log_event(StepEvent.begin(step=n, tool="browser_overlay_act",
                                         args={"text": "x" * 5000}).end({"status": "ok"}))
        if n == 3:
            print("ready", flush=True)
""")


def test_writer_killed_mid_way_reads_incomplete_then_recovers(workspace: Path) -> None:
    proc = subprocess.Popen([sys.executable, "-c", WRITER_SCRIPT, str(workspace)], cwd=ROOT,
                            stdout=subprocess.PIPE, text=True)
    try:
        # Killed as soon as it says it is mid-way (three steps written, more on their way).
        assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)
    path = find_bundle(workspace, REQUEST_ID)
    report = verify_bundle(path)
    assert not report.ok and report.interrupted and report.status == "incomplete"
    assert any("stopped before finishing" in p for p in report.problems)
    assert [b.status for b in list_bundles(workspace)] == ["incomplete"]
    events, problems = read_events(path)
    assert len(events) >= 3 and all(e.args["text"]["textLength"] == 5000 for e in events)
    assert all("incomplete" in p for p in problems)  # at most a torn last line, reported, never misread

    # A retry continues the same bundle: partial temp files are dropped, a torn line is cut, attempt 2 begins.
    writer = BundleWriter.open(workspace, REQUEST_ID)
    assert writer.attempt == 2
    writer.log_event(StepEvent.begin(step=1).end({"status": "ok"}))
    writer.finish("complete")
    report = verify_bundle(path)
    assert report.ok, report
    assert not list(path.rglob(".tmp-*"))
    events, problems = read_events(path)
    assert problems == [] and events[-1].attempt == 2
    info = read_info(path)
    assert info is not None and info.attempts[0].status is None and info.attempts[1].status == "complete"
    assert "interrupted (the writer stopped before finishing)" in (path / "summary.md").read_text()


# --------------------------------------------------------------------------- finding bundles


def test_bundles_are_found_only_inside_their_workspace(tmp_path: Path) -> None:
    ws_a, ws_b = tmp_path / "a", tmp_path / "b"
    fresh_bundle(ws_a)
    assert [b.request_id for b in list_bundles(ws_a)] == [REQUEST_ID]
    assert list_bundles(ws_b) == []
    with pytest.raises(BrowserOpsError) as info:
        find_bundle(ws_b, REQUEST_ID)
    assert info.value.code is ErrorCode.EVIDENCE_NOT_FOUND
    # A symlink planted in workspace b that points at workspace a's bundle is not followed.
    link = ws_b / "artifacts/browser/2026-01-05" / REQUEST_ID
    link.parent.mkdir(parents=True)
    link.symlink_to(find_bundle(ws_a, REQUEST_ID))
    with pytest.raises(BrowserOpsError):
        find_bundle(ws_b, REQUEST_ID)
    assert list_bundles(ws_b) == []
    for bad in ("../a", "req-20260105-101500-ab12/..", "req-2026"):
        with pytest.raises(BrowserOpsError) as info:
            find_bundle(ws_b, bad)
        assert info.value.code is ErrorCode.INVALID_ARGS


def test_resolve_plan_by_id_or_path_within_the_workspace(tmp_path: Path) -> None:
    ws = (tmp_path / "ws")
    ws.mkdir()
    plan = expense_plan(workspace=str(ws.resolve()))
    with BundleWriter.create(ws, REQUEST_ID) as writer:
        writer.write_plan(plan)
        writer.finish("prepared")
    assert resolve_plan(ws, REQUEST_ID) == (plan, writer.path)
    assert resolve_plan(ws, str(writer.path / "plan.json")) == (plan, writer.path)

    copy = tmp_path / "edited.json"
    data = orjson.loads(plan.to_json())
    data["actions"][1]["value"] = "Someone else"
    copy.write_bytes(orjson.dumps(data))
    with pytest.raises(BrowserOpsError) as info:
        resolve_plan(ws, str(copy))
    assert info.value.code is ErrorCode.PLAN_INVALID and "differs from the plan in its bundle" in info.value.message

    other = tmp_path / "other"
    other.mkdir()
    for ref in (REQUEST_ID, str(writer.path / "plan.json")):
        with pytest.raises(BrowserOpsError) as info:
            resolve_plan(other, ref)
        assert info.value.code is ErrorCode.PLAN_NOT_FOUND


def test_identical_consecutive_screenshots_are_stored_once(workspace: Path) -> None:
    other = PNG + b"\x01"
    with BundleWriter.create(workspace, REQUEST_ID, phase="run") as writer:
        writer.write_plan(expense_plan())
        after2 = writer.add_screenshot(2, "after", PNG, "merchant")
        before3 = writer.add_screenshot(3, "before", PNG, "amount")  # nothing changed on the page in between
        after3 = writer.add_screenshot(3, "after", other, "amount")
        before4 = writer.add_screenshot(4, "before", PNG, "category")  # same bytes as 2, but not consecutive
        assert writer.stored_as(before3) == after2 and writer.stored_as(before4) == before4
        assert before3 == "screenshots/003_before_amount.png" and before3 in writer.evidence_names()
        writer.log_event(StepEvent.begin(step=3).end({"status": "ok"}, screenshots=[before3, after3]))
        writer.finish("complete")
    path = writer.path
    stored = sorted(p.name for p in (path / "screenshots").iterdir())
    assert stored == ["002_after_merchant.png", "003_after_amount.png", "004_before_category.png"]
    info = read_info(path)
    assert info is not None and info.same_as == {before3: after2}
    assert "003\\_before\\_amount.png: the same image as" in (path / "summary.md").read_text()
    assert verify_bundle(path).ok
    # The stored image is what both names show: removing it breaks both, and verify says so.
    (path / after2).unlink()
    report = verify_bundle(path)
    assert not report.ok and report.missing == [after2]
    (path / after2).write_bytes(PNG)
    assert verify_bundle(path).ok


def test_an_event_naming_a_file_the_bundle_lacks_fails_verify(workspace: Path) -> None:
    with BundleWriter.create(workspace, REQUEST_ID, phase="run") as writer:
        writer.log_event(StepEvent.begin(step=1).end({"status": "ok"}, screenshots=["screenshots/001_before_x.png"]))
        writer.finish("complete")
    report = verify_bundle(writer.path)
    assert not report.ok and report.problems == [
        "events.jsonl names screenshots/001_before_x.png, which is not in the bundle"]
