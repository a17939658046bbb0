"""prepare -> run through the real CLI in real Chromium on the demo site; the site's server state is the proof."""

from __future__ import annotations

import asyncio
import hashlib
import threading
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.cli import cli
from browserops.config import Settings
from browserops.demo_site import DemoSite
from browserops.evidence import verify_bundle
from browserops.lane import Lane
from browserops.listing_rows import listing_items
from browserops.packs import BUILTIN_DIR
from browserops.privacy import text_digest
from browserops.tools.context import ToolContext
from tests.calls import call_tool
from tests.plan_e2e.helpers import (
    EXPENSE_INPUT,
    bundle_info,
    bundle_of,
    cli_json,
    cli_run,
    events,
    post,
    prepare_expense,
    server_state,
    write_steps,
)


@pytest.fixture
def site(demo_site: DemoSite) -> DemoSite:
    demo_site.reset()
    return demo_site


def test_prepare_prints_the_diff_and_changes_nothing(site: DemoSite, workspace: Path) -> None:
    result = cli_run(workspace, "prepare", "--pack", "demo_expense", "--input", str(EXPENSE_INPUT),
                     "--base-url", site.base_url)
    assert result.exit_code == 2, result.stderr  # like terraform plan -detailed-exitcode: there are changes
    out = result.stdout
    for line in ('  + merchant       = "Northwind Taxi"', '  + amount         = "23.40"',
                 '  ~ category       = "Choose a category" -> "Travel"', '  + currency       = "EUR"',
                 '  ~ billable       = "false" -> "true"', '  + payment_method = "Card"',
                 '  + receipt        = "example_receipt.png"',
                 '  > submit         button "Submit expense"   [browser-act, needs --confirm]',
                 "Plan: 9 fills, 1 submit, 0 exports; side effects: browser-act"):
        assert line in out, line
    phrase = out.split("Confirm phrase: ")[1].split()[0]
    request_id = out.split("Plan ")[1].split(":")[0]
    assert f'browserops --workspace {workspace.resolve()} run {request_id} --confirm "{phrase}"' in out
    assert "[11/11] submit: button \"Submit expense\" is #" in result.stderr  # progress on stderr
    bundle = bundle_of(workspace, request_id)
    assert (bundle / "snapshots" / "001_expense.aria.txt").read_text().count('textbox "Merchant"') == 1
    plan = orjson.loads((bundle / "plan.json").read_bytes())
    assert plan["fingerprint"]["values"]["merchant"] is None and plan["actions"][1]["preparedNumber"] == 2
    report = verify_bundle(bundle)
    assert report.ok and report.status == "prepared"
    state = server_state(site.base_url)
    assert state["submissions"] == [] and state["uploads"] == []


def test_prepare_json_and_no_change_exit_code(site: DemoSite, workspace: Path) -> None:
    data = prepare_expense(workspace, site.base_url)
    assert data["requiresConfirm"] and data["hasChanges"] and data["counts"]["fills"] == 9
    assert data["summary"] == "Plan: 9 fills, 1 submit, 0 exports; side effects: browser-act"
    assert {d["field"]: d["op"] for d in data["diff"]}["category"] == "~"
    assert data["runCommand"].endswith(f'run {data["requestId"]} --confirm "{data["confirmPhrase"]}"')
    # A read-only step file changes nothing: exit 0.
    steps = write_steps(workspace, "look.yaml", {"title": "Look at the statements",
                                                  "steps": [{"kind": "read", "expect": {"text": ["Statements"]}}]})
    code, look, _ = cli_json(workspace, "prepare", "--steps", str(steps), "--url", site.base_url + "/statements")
    assert code == 0 and not look["hasChanges"] and look["summary"].endswith("side effects: none (read-only)")
    assert look["startUrl"] == site.base_url + "/statements"
    assert look["snapshots"] == ["snapshots/001_statements.aria.txt"]


def test_run_without_confirm_does_no_side_effect(site: DemoSite, workspace: Path) -> None:
    prepared = prepare_expense(workspace, site.base_url)
    code, data, err = cli_json(workspace, "run", prepared["requestId"])
    assert code == 0, data
    # Nothing was filed: never "complete" — partial, everywhere the run's status shows.
    assert data["status"] == "ok" and data["runStatus"] == "partial" and not data["confirmed"]
    assert data["skipped"] == list(range(2, 12))
    assert [s["status"] for s in data["steps"]][:2] == ["ok", "skipped"]
    state = server_state(site.base_url)
    assert state["submissions"] == [] and state["uploads"] == []
    assert not list((bundle_of(workspace, prepared["requestId"]) / "screenshots").iterdir())
    assert data["verify"]["ok"]
    assert "[11/11] submit: skipped (needs --confirm)" in err
    assert data["verify"]["status"] == "partial" and data["verify"]["partial"] == "10 steps need --confirm"
    bundle = bundle_of(workspace, prepared["requestId"])
    assert "Status: **partial** (10 steps need --confirm)" in (bundle / "summary.md").read_text(encoding="utf-8")
    code, listed, _ = cli_json(workspace, "evidence", "list")
    assert code == 0 and [b["status"] for b in listed["bundles"] if b["requestId"] == prepared["requestId"]] == [
        "partial"]
    verified = cli_run(workspace, "evidence", "verify", prepared["requestId"]).stdout
    assert verified.startswith(f"OK: {prepared['requestId']} is intact; partial: 10 steps need --confirm")
    text = cli_run(workspace, "run", prepared["requestId"]).stdout
    assert f"Run {prepared['requestId']} (attempt 3, without --confirm: read-only and export steps only): partial" \
        in text
    assert "Skipped 10 steps (2, 3, 4, 5, 6, 7, 8, 9, 10, 11): they change the site" in text


def test_wrong_phrase_runs_nothing(site: DemoSite, workspace: Path) -> None:
    prepared = prepare_expense(workspace, site.base_url)
    before = bundle_info(workspace, prepared["requestId"])
    result = cli_run(workspace, "run", prepared["requestId"], "--confirm", "amber-falcon-river-0000")
    assert result.exit_code == 1 and "Error [BROWSER_CONFIRM_REQUIRED]" in result.stderr
    code, data, _ = cli_json(workspace, "run", prepared["requestId"], "--confirm", "nope")
    assert code == 1 and data["code"] == "BROWSER_CONFIRM_REQUIRED"
    assert server_state(site.base_url)["submissions"] == []
    assert bundle_info(workspace, prepared["requestId"]) == before  # not even an attempt was recorded


def test_review_shows_the_phrase_on_the_terminal_and_runs_nothing_without_it(site: DemoSite,
                                                                            workspace: Path) -> None:
    """`run --review` (what an MCP client without elicitation hands to the person): the plan and its phrase on the
    terminal; nothing typed, or another phrase, runs nothing. (Typing the phrase back: tests/mcp/test_two_phase.py.)"""
    prepared = prepare_expense(workspace, site.base_url)
    request_id = prepared["requestId"]
    before = bundle_info(workspace, request_id)
    for typed in ("\n", "amber falcon river 0000\n"):
        result = CliRunner().invoke(cli, ["--workspace", str(workspace), "run", request_id, "--review"], input=typed,
                                    catch_exceptions=False)
        assert result.exit_code == 1 and "Error [BROWSER_CONFIRM_REQUIRED]" in result.stderr, result.output
        assert f"Confirm phrase: {prepared['confirmPhrase']}" in result.stderr
        assert '+ merchant       = "Northwind Taxi"' in result.stderr and result.stdout == ""
    both = cli_run(workspace, "run", request_id, "--review", "--confirm", prepared["confirmPhrase"])
    assert both.exit_code == 1 and "Error [BROWSER_INVALID_ARGS]" in both.stderr
    assert server_state(site.base_url)["submissions"] == []
    assert bundle_info(workspace, request_id) == before


def test_right_phrase_submits_and_keeps_the_reference(site: DemoSite, workspace: Path) -> None:
    prepared = prepare_expense(workspace, site.base_url)
    phrase = prepared["confirmPhrase"].upper().replace("-", " ")  # case and separators do not matter
    code, data, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", phrase)
    assert code == 0, data
    submission, = server_state(site.base_url)["submissions"]
    assert submission["merchant"] == "Northwind Taxi" and submission["amount"] == "23.40"
    assert submission["category"] == "Travel" and submission["currency"] == "EUR" and submission["billable"]
    assert submission["payment_method"] == "card" and submission["receipt"]["name"] == "example_receipt.png"
    # The file's bytes arrive, not only its name (run's origin rules route the form's POST through the browser).
    receipt = (BUILTIN_DIR / "demo_expense" / "example_receipt.png").read_bytes()
    assert submission["receipt"]["sha256"] == hashlib.sha256(receipt).hexdigest()
    assert data["reference"] == submission["reference"] == "EXP-0001"
    bundle = Path(data["bundle"])
    confirmation = (bundle / data["confirmation"]["snapshot"]).read_text()
    assert "EXP-0001" in confirmation and data["confirmation"]["messages"] == ["Reference: EXP-0001"]
    assert "reference EXP-0001" in (bundle / "summary.md").read_text()
    shots = sorted(p.name for p in (bundle / "screenshots").iterdir())
    info = bundle_info(workspace, prepared["requestId"])
    names = set(shots) | {n.removeprefix("screenshots/") for n in info["sameAs"]}
    for n, label in [(2, "merchant"), (6, "currency"), (10, "receipt"), (11, "submit")]:
        assert f"{n:03d}_before_{label}.png" in names and f"{n:03d}_after_{label}.png" in names
    # Ten act steps owe 20 images; each "before" is the previous step's "after" byte for byte, stored once.
    assert len(names) == 20 and len(shots) == 11 and data["verify"]["ok"]
    assert info["sameAs"]["screenshots/003_before_amount.png"] == "screenshots/002_after_merchant.png"
    run_events = [e for e in events(workspace, prepared["requestId"]) if e["phase"] == "run"]
    typed = next(e for e in run_events if e["step"] == 2)
    assert typed["args"]["text"] == {"textLength": 14, "textDigest": text_digest("Northwind Taxi")}
    box, viewport = typed["target"].pop("box"), typed["target"].pop("viewport")
    assert typed["target"] == {"role": "textbox", "name": "Merchant", "number": 2, "matched": True}
    assert viewport == [1280, 800] and len(box) == 4 and box[2] > 0 and box[3] > 0  # drawn by `evidence report`
    assert "Northwind" not in (bundle / "events.jsonl").read_text()
    assert "[2/11] fill merchant: ok (typed into textbox \"Merchant\" (#2))" in err
    # A confirmed plan runs once.
    result = cli_run(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert result.exit_code == 1 and "BROWSER_PLAN_STALE" in result.stderr and "already ran" in result.stderr
    assert len(server_state(site.base_url)["submissions"]) == 1
    verify = cli_run(workspace, "evidence", "verify", prepared["requestId"])
    assert verify.exit_code == 0 and verify.stdout.startswith("OK:")


def test_plan_edited_after_prepare_is_refused(site: DemoSite, workspace: Path) -> None:
    prepared = prepare_expense(workspace, site.base_url)
    plan_path = Path(prepared["planFile"])
    plan = orjson.loads(plan_path.read_bytes())
    plan["actions"][1]["value"] = "Evil Corp"
    plan_path.write_bytes(orjson.dumps(plan, option=orjson.OPT_INDENT_2))
    for extra in ([], ["--confirm", prepared["confirmPhrase"]]):
        result = cli_run(workspace, "run", prepared["requestId"], *extra)
        assert result.exit_code == 1 and "BROWSER_PLAN_INVALID" in result.stderr, result.stderr
        assert "changed after prepare" in result.stderr
    # Also re-sealing the manifest does not help: the phrase was for the reviewed plan.
    manifest = bundle_of(workspace, prepared["requestId"]) / "manifest-sha256.txt"
    lines = [ln for ln in manifest.read_text().splitlines() if not ln.endswith("  plan.json")]
    lines.append(f"{hashlib.sha256(plan_path.read_bytes()).hexdigest()}  plan.json")
    manifest.write_text("\n".join(lines) + "\n")
    result = cli_run(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert result.exit_code == 1 and "BROWSER_CONFIRM_REQUIRED" in result.stderr
    # Passing the edited file by path is refused too.
    result = cli_run(workspace, "run", str(plan_path), "--confirm", prepared["confirmPhrase"])
    assert result.exit_code == 1 and "BROWSER_CONFIRM_REQUIRED" in result.stderr
    assert server_state(site.base_url)["submissions"] == []


def test_page_changed_after_prepare_is_stale(site: DemoSite, workspace: Path) -> None:
    prepared = prepare_expense(workspace, site.base_url)
    post(site.base_url, "/__draft", {"merchant": "Globex", "notes": "someone else's draft"})
    code, data, _ = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert code == 1 and data["code"] == "BROWSER_PLAN_STALE", data
    assert "merchant, notes" in data["error"] and "re-run `browserops prepare`" in data["error"].lower()
    assert data["details"]["fields"] == ["merchant", "notes"]
    run = data["details"]["run"]
    assert run["runStatus"] == "incomplete" and [s["status"] for s in run["steps"]] == ["ok", "error"]
    assert server_state(site.base_url)["submissions"] == []
    bundle = bundle_of(workspace, prepared["requestId"])
    assert (bundle / "screenshots" / "002_error_merchant.png").is_file()
    assert not (bundle / "screenshots" / "002_before_merchant.png").exists()  # nothing was typed
    report = verify_bundle(bundle)
    assert report.intact and not report.ok and report.status == "incomplete"
    assert Lane(workspace).is_free()


def test_renamed_target_is_site_changed_with_evidence(site: DemoSite, workspace: Path) -> None:
    prepared = prepare_expense(workspace, site.base_url)
    post(site.base_url, "/__variant", {"name": "submit_label", "value": "File this claim"})
    code, data, _ = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert code == 1 and data["code"] == "BROWSER_SITE_CHANGED", data
    assert 'button "Submit expense"' in data["error"] and 'button "File this claim"' in data["error"]
    assert data["details"]["failedStep"] == 11 and "Nothing was changed: no step had typed" in data["error"]
    assert {"n": 13, "role": "button", "name": "File this claim"} in data["details"]["seen"]
    assert server_state(site.base_url)["submissions"] == []
    bundle = bundle_of(workspace, prepared["requestId"])
    snapshot = next((bundle / "snapshots").glob("002_error-*.aria.txt")).read_text()
    assert 'button "File this claim"' in snapshot
    assert (bundle / "screenshots" / "002_error_merchant.png").is_file()
    failed = [e for e in events(workspace, prepared["requestId"]) if e["status"] == "error"]
    assert failed[-1]["code"] == "BROWSER_SITE_CHANGED"
    show = cli_run(workspace, "evidence", "show", prepared["requestId"]).stdout
    assert "BROWSER\\_SITE\\_CHANGED" in show or "BROWSER_SITE_CHANGED" in show


def test_csv_export_lands_in_the_bundle(site: DemoSite, workspace: Path) -> None:
    months = workspace / "months.yaml"
    months.write_text("months: ['2026-01']\n")
    code, prepared, _ = cli_json(workspace, "prepare", "--pack", "demo_statements", "--input", str(months),
                                 "--base-url", site.base_url)
    assert code == 2 and not prepared["requiresConfirm"] and prepared["counts"]["exports"] == 1
    assert prepared["runCommand"].endswith(f"run {prepared['requestId']}")
    code, data, _ = cli_json(workspace, "run", prepared["planFile"])  # by the plan's path this time
    assert code == 0, data
    export, = data["exports"]
    assert export["path"] == "exports/statements_2026-01.csv"
    bundle = Path(data["bundle"])
    csv = (bundle / export["path"]).read_bytes()
    assert b"2026-01" in csv
    digest = hashlib.sha256(csv).hexdigest()
    assert export["sha256"] == digest
    assert f"{digest}  exports/statements_2026-01.csv" in (bundle / "manifest-sha256.txt").read_text()
    assert server_state(site.base_url)["downloads"] == ["statements_2026-01.csv"]
    assert not any((workspace / "artifacts" / "downloads").glob("*"))  # moved into the bundle


def test_login_wall_says_how_to_log_in(site: DemoSite, workspace: Path) -> None:
    steps = write_steps(workspace, "pay.yaml", {
        "title": "Pay the invoice", "startUrl": "/pay",
        "steps": [{"kind": "payment", "target": {"role": "button", "names": ["Pay now"]}}],
    })
    code, data, _ = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 1 and data["code"] == "BROWSER_LOGIN_REQUIRED"
    assert "--profile DIR --headed" in data["error"] and "/login?next=/pay" in data["error"]
    evidence = Path(data["details"]["bundle"])
    assert (evidence / "screenshots" / "000_error_login-required.png").is_file()
    assert not verify_bundle(evidence).ok and not (evidence / "plan.json").exists()
    assert server_state(site.base_url)["payments"] == []


def test_sensitive_value_comes_from_the_input_and_stays_out_of_the_record(site: DemoSite, workspace: Path) -> None:
    steps = write_steps(workspace, "login.yaml", {
        "title": "Log in", "startUrl": "/login?next=/account",
        "steps": [
            {"kind": "fill", "field": "username", "target": {"role": "textbox", "names": ["Username"]},
             "valueRef": {"key": "user"}},
            {"kind": "fill", "field": "password", "target": {"role": "textbox", "names": ["Password"]},
             "valueRef": {"key": "password", "sensitive": True}},
            {"kind": "submit", "target": {"role": "button", "names": ["Log in"]},
             "expect": {"urlContains": "/account"}},
        ],
    })
    secrets = workspace / "secrets.yaml"
    secrets.write_text("user: ada\npassword: demo\n")
    code, prepared, _ = cli_json(workspace, "prepare", "--steps", str(steps), "--input", str(secrets),
                                 "--base-url", site.base_url)
    assert code == 2, prepared
    assert [(d["field"], d["op"], d["sensitive"]) for d in prepared["diff"]] == [
        ("username", "+", False), ("password", "+", True)]
    plan_text = Path(prepared["planFile"]).read_text()
    assert text_digest("demo") not in plan_text and '"password": null' not in plan_text
    code, refused, _ = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert code == 1 and refused["code"] == "BROWSER_INPUT_INVALID" and "--input" in refused["error"]
    code, data, _ = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"],
                             "--input", str(secrets))
    assert code == 0, data
    assert server_state(site.base_url)["logins"] == ["ada"]
    record = (Path(data["bundle"]) / "events.jsonl").read_text()
    typed = [orjson.loads(line) for line in record.splitlines() if '"step":2,' in line and '"phase":"run"' in line]
    assert typed[0]["args"]["text"] == {"sensitive": True}  # no length, no digest: not even a keyed one
    assert text_digest("demo") not in record


def test_bad_arguments_are_clear_and_start_no_browser(site: DemoSite, workspace: Path) -> None:
    code, data, _ = cli_json(workspace, "prepare", "--pack", "demo_expense", "--input", str(EXPENSE_INPUT))
    assert code == 1 and data["code"] == "BROWSER_INVALID_ARGS" and "--base-url" in data["error"]
    code, data, _ = cli_json(workspace, "prepare")
    assert code == 1 and data["code"] == "BROWSER_INVALID_ARGS" and "exactly one plan source" in data["error"]
    code, data, _ = cli_json(workspace, "prepare", "--pack", "demo_expense")
    assert code == 1 and "--input FILE" in data["error"]
    code, data, _ = cli_json(workspace, "run", "req-20260105-101500-ab12")
    assert code == 1 and data["code"] == "BROWSER_PLAN_NOT_FOUND"
    code, data, _ = cli_json(workspace, "run", "not-a-request-id")
    assert code == 1 and data["code"] == "BROWSER_PLAN_NOT_FOUND"
    # Nothing written but the workspace's digest key, made when the input file was first digested (privacy.py).
    assert [p for p in workspace.rglob("*") if p.is_file()] in ([], [workspace / ".browserops" / "digest.key"])


def test_lane_busy_and_waiting(site: DemoSite, workspace: Path) -> None:
    months = workspace / "months.yaml"
    months.write_text("months: ['2026-02']\n")
    code, prepared, _ = cli_json(workspace, "prepare", "--pack", "demo_statements", "--input", str(months),
                                 "--base-url", site.base_url)
    assert code == 2
    before = bundle_info(workspace, prepared["requestId"])
    lane = Lane(workspace, holder={"requestId": "req-20260105-101500-ab12"})
    with lane:
        code, data, _ = cli_json(workspace, "run", prepared["requestId"], "--no-wait")
        assert code == 1 and data["code"] == "BROWSER_LANE_BUSY" and "req-20260105-101500-ab12" in data["error"]
        assert bundle_info(workspace, prepared["requestId"]) == before  # queued runs record nothing
        timer = threading.Timer(1.0, lane.release)
        timer.start()
        result = cli_run(workspace, "run", prepared["requestId"])
        timer.join()
    assert result.exit_code == 0, result.stderr
    assert "is busy" in result.stderr and "waiting for it" in result.stderr
    assert "Export: exports/statements_2026-02.csv" in result.stdout


def test_log_in_once_in_a_profile_then_run_with_it(site: DemoSite, workspace: Path) -> None:
    profile = workspace / "profile"
    pay = write_steps(workspace, "pay.yaml", {
        "title": "Pay the invoice", "startUrl": "/pay",
        "steps": [{"kind": "payment", "target": {"role": "button", "names": ["Pay now"]},
                   "expect": {"text": ["Payment received"]}}],
    })
    code, data, _ = cli_json(workspace, "prepare", "--steps", str(pay), "--base-url", site.base_url,
                             "--profile", str(profile))
    assert code == 1 and data["code"] == "BROWSER_LOGIN_REQUIRED"

    async def log_in_by_hand() -> None:
        """What the person does once in the profile's window (headless here: the test machine has no display)."""
        options = SessionOptions(mode="persistent", profile_dir=profile)
        async with BrowserSession(options) as session:
            ctx = ToolContext(session=session, settings=Settings(), workspace=workspace)
            await call_tool("browser_navigate", ctx, {"url": site.base_url + "/login"})
            items = listing_items((await call_tool("browser_list_interactives", ctx, {}))["data"])
            n = {i["name"]: i["n"] for i in items}
            await call_tool("browser_overlay_act", ctx, {"index": n["Username"], "action": "type", "text": "ada"})
            await call_tool("browser_overlay_act", ctx, {"index": n["Password"], "action": "type", "text": "demo"})
            await call_tool("browser_overlay_act", ctx, {"index": n["Log in"], "action": "click"})

    asyncio.run(log_in_by_hand())
    code, prepared, _ = cli_json(workspace, "prepare", "--steps", str(pay), "--base-url", site.base_url,
                                 "--profile", str(profile))
    assert code == 2, prepared
    assert prepared["runCommand"].endswith(f'--confirm "{prepared["confirmPhrase"]}" --profile {profile}')
    code, data, _ = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"],
                             "--profile", str(profile))
    assert code == 0, data
    payment, = server_state(site.base_url)["payments"]
    assert payment["user"] == "ada" and payment["source"] == "pay"
