"""`browserops record` with a scripted "user" driving the page (headless) while the recorder listens, then
`pack new --from-steps`, `prepare --pack` and `run --confirm` reproduce what the user did on the demo site."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import http.server
import selectors
import signal
import subprocess
import threading
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import orjson
import yaml
from playwright.async_api import Page

from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.cli.record_cmd import record_session, write_recording
from browserops.config import Settings
from browserops.demo_site import DemoSite
from browserops.demo_site.zoo_site import ZooSite
from browserops.packs import PackContext, validate_pack_dir
from browserops.plan.record.recorder import Recorder, Recording, save_name, stable_text
from browserops.tools.context import ToolContext
from tests.plan_e2e.helpers import ROOT, browserops_cmd, cli_run, request_log, server_state, subprocess_env

User = Callable[[Page, Recorder, list[str]], Awaitable[None]]


async def until(check: Callable[[], bool], what: str, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


async def record_while(session: BrowserSession, ctx: ToolContext, url: str, user: User) -> Recording:
    lines: list[str] = []
    recorders: list[Recorder] = []
    stop = asyncio.Event()
    task = asyncio.create_task(record_session(session, ctx, url, lines.append, stop, recorders))
    try:
        await until(lambda: any(line.startswith("Recording:") for line in lines) or task.done(), "the recorder")
        await user(session.page, recorders[0], lines)
    except BaseException:
        # A failed "user" must not leave the recorder running on the shared session: it would go on listing
        # (and so acting on the counts of) the tests that come after.
        task.cancel()
        with contextlib.suppress(BaseException):
            await task
        raise
    stop.set()
    return await asyncio.wait_for(task, 60)


async def cli(workspace: Path, *args: str) -> tuple[int, dict[str, object]]:
    """The CLI in this process, on a thread (the test's own event loop runs here): a `python -m browserops` start
    cost each replay's prepare and run about 1 CPU s, and no replay is about the process."""
    done = await asyncio.to_thread(cli_run, workspace, "--json", *args)
    return done.exit_code, orjson.loads(done.stdout or "{}")


async def test_record_a_login_then_replay_it_as_a_pack(
        session: BrowserSession, tool_ctx: ToolContext, demo_site: DemoSite, workspace: Path) -> None:
    async def user(page: Page, recorder: Recorder, lines: list[str]) -> None:
        await page.get_by_label("Username").fill("ada")
        await page.get_by_label("Password").fill("demo")
        await until(lambda: recorder.pending_fields == ["Username", "Password"], "both fields seen")
        await page.get_by_role("button", name="Log in").click()
        await until(lambda: any(line.startswith("submit:") for line in lines), "the submit")

    url = demo_site.base_url + "/login?next=/account"
    recording = await record_while(session, tool_ctx, url, user)
    assert [s["kind"] for s in recording.steps] == ["fill", "fill", "submit"]
    username, password, submit = recording.steps
    assert username == {"kind": "fill", "field": "username", "target": {"role": "textbox", "names": ["Username"]},
                        "action": "type", "valueRef": {"key": "username"}}
    assert password["valueRef"] == {"key": "password", "sensitive": True} and "value" not in password
    assert submit["target"] == {"role": "button", "names": ["Log in"]} and submit["expect"]["text"]
    assert recording.inputs == {"username": "ada", "password": None} and recording.sensitive == ["password"]

    out = workspace / "login.yaml"
    write_recording(recording, out, workspace / "login.input.yaml")
    for path in (out, workspace / "login.input.yaml"):
        assert "demo" not in path.read_text()  # the typed password is nowhere
    code, made = await cli(workspace, "pack", "new", "recorded_login", "--from-steps", str(out))
    assert code == 0, made
    pack_py = (workspace / "domain_packs" / "recorded_login" / "pack.py").read_text()
    assert "password: SecretStr | None" in pack_py and "username: str" in pack_py and "demo" not in pack_py
    secrets = workspace / "secrets.yaml"
    secrets.write_text("username: ada\npassword: demo\n")
    code, prepared = await cli(workspace, "prepare", "--pack", "recorded_login", "--input", str(secrets),
                               "--base-url", demo_site.base_url)
    assert code == 2, prepared
    code, ran = await cli(workspace, "run", str(prepared["requestId"]), "--confirm", str(prepared["confirmPhrase"]))
    assert code == 0, ran
    assert server_state(demo_site.base_url)["logins"][-1] == "ada"


async def test_record_an_expense_with_types_inferred(
        session: BrowserSession, tool_ctx: ToolContext, demo_site: DemoSite, workspace: Path) -> None:
    receipt = workspace / "receipt.png"
    receipt.write_bytes(b"\x89PNG\r\n\x1a\n recorded receipt")

    async def user(page: Page, recorder: Recorder, lines: list[str]) -> None:
        await page.get_by_label("Merchant").fill("Acme Cabs")
        await page.get_by_label("Amount").fill("12.50")
        await page.get_by_label("Date").fill("2026-01-05")
        await page.get_by_label("Category").select_option("Meals")
        await page.get_by_label("Billable to client").check()
        await page.get_by_label("Receipt").set_input_files(receipt)
        await until(lambda: len(recorder.pending_fields) == 6, "six fields seen")
        await page.get_by_role("button", name="Submit expense").click()
        await until(lambda: any(line.startswith("submit:") for line in lines), "the submit")

    recording = await record_while(session, tool_ctx, demo_site.base_url + "/expense", user)
    assert [s.get("field") for s in recording.steps] == ["merchant", "amount", "date", "category",
                                                         "billable_to_client", "receipt", None]
    assert recording.inputs == {"merchant": "Acme Cabs", "amount": "12.50", "date": "2026-01-05",
                                "category": "Meals", "billable_to_client": True, "receipt": "receipt.png"}
    category, billable, upload = recording.steps[3:6]
    assert category["action"] == "select" and "Meals" in category["options"] and "Travel" in category["options"]
    assert billable["action"] == "check" and upload["action"] == "upload"
    # What the page showed after the submit, without the reference number (a replay gets another one).
    assert recording.steps[-1]["expect"] == {"text": ["Expense submitted"]}
    out = workspace / "expense.yaml"
    write_recording(recording, out, workspace / "expense.input.yaml")
    assert yaml.safe_load(out.read_text())["startUrl"] == demo_site.base_url + "/expense"
    code, made = await cli(workspace, "pack", "new", "recorded_expense", "--from-steps", str(out))
    assert code == 0, made
    pack_py = (workspace / "domain_packs" / "recorded_expense" / "pack.py").read_text()
    for line in ("amount: Decimal", "date: dt.date", "billable_to_client: bool", "merchant: str",
                 "category: Literal[", "receipt: Path | None"):
        assert line in pack_py
    code, prepared = await cli(workspace, "prepare", "--pack", "recorded_expense", "--input",
                               str(workspace / "expense.input.yaml"), "--base-url", demo_site.base_url)
    assert code == 2, prepared
    code, ran = await cli(workspace, "run", str(prepared["requestId"]), "--confirm", str(prepared["confirmPhrase"]))
    assert code == 0, ran
    recorded, submission = server_state(demo_site.base_url)["submissions"]  # the replay got a new reference
    assert submission["reference"] != recorded["reference"]
    assert submission["merchant"] == "Acme Cabs" and submission["amount"] == "12.50"
    assert submission["category"] == "Meals" and submission["billable"]
    assert submission["receipt"]["name"] == "receipt.png" and submission["receipt"]["size"] == receipt.stat().st_size


def test_ctrl_c_ends_the_command_and_writes_the_files(demo_site: DemoSite, workspace: Path) -> None:
    out = workspace / "rec.yaml"
    proc = subprocess.Popen(browserops_cmd(workspace, "record", "--url", demo_site.base_url + "/login",
                                           "--headless", "--out", str(out)),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT,
                            env=subprocess_env())
    try:
        assert proc.stderr is not None
        # The first line, without hanging the test if the command never prints it.
        waiting = selectors.DefaultSelector()
        waiting.register(proc.stderr, selectors.EVENT_READ)
        assert waiting.select(timeout=120), "record printed nothing in 120 s"
        ready = proc.stderr.readline()
        assert ready.startswith("Recording:"), ready
        proc.send_signal(signal.SIGINT)
        stdout, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0 and "Recorded 0 steps" in stdout
    assert yaml.safe_load(out.read_text())["startUrl"] == demo_site.base_url + "/login"
    assert (workspace / "rec.input.yaml").is_file()


async def test_record_a_download_as_an_export_step_then_run_it(
        session: BrowserSession, tool_ctx: ToolContext, demo_site: DemoSite, workspace: Path) -> None:
    async def user(page: Page, recorder: Recorder, lines: list[str]) -> None:
        # A button whose script clicks a link of its own to download: one export step, by the button.
        await page.get_by_role("button", name="Export via script").click()
        await until(lambda: any(line.startswith("export:") for line in lines), "the first export")
        await page.get_by_role("link", name="Export CSV").click()
        await until(lambda: sum(line.startswith("export:") for line in lines) == 2, "the second export")

    # The tab is left on a page that sends a beacon as it goes (an editor releasing its lock), and watched for such
    # sends (as a shared session is once a plan ran in it): what the browser sent before the person could start
    # is no send of their first click.
    session.requests.start_tapping()
    await session.page.goto(demo_site.base_url + "/save/leave")
    await session.requests.tapped()
    recording = await record_while(session, tool_ctx, demo_site.base_url + "/statements", user)
    assert {"method": "POST", "path": "/save/release"} in request_log(demo_site.base_url)  # the beacon went
    scripted, export = recording.steps
    assert scripted == {"kind": "export", "target": {"role": "button", "names": ["Export via script"]},
                        "saveAs": "statements_script.csv"}
    assert export["kind"] == "export" and export["target"] == {"role": "link", "names": ["Export CSV"]}
    assert export["saveAs"] == "statements_2026-01.csv" and recording.inputs == {}
    demo_site.reset()
    out = workspace / "statement.yaml"
    write_recording(recording, out, workspace / "statement.input.yaml")
    code, prepared = await cli(workspace, "prepare", "--steps", str(out), "--input",
                               str(workspace / "statement.input.yaml"))
    assert code == 2, prepared
    code, ran = await cli(workspace, "run", str(prepared["requestId"]), "--confirm", str(prepared["confirmPhrase"]))
    assert code == 0, ran
    assert server_state(demo_site.base_url)["downloads"] == ["statements_2026-01.csv"]
    saved, = await asyncio.to_thread(lambda: list(Path(str(prepared["bundle"])).rglob(export["saveAs"])))
    assert saved.parent.name == "exports" and saved.stat().st_size > 0


def test_the_expectation_leaves_out_what_a_replay_changes() -> None:
    assert stable_text(["Reference: EXP-0001"], ["Expense submitted"]) == "Expense submitted"
    assert stable_text(["Saved 3 items"], ["Order 12"]) == "Saved"
    assert stable_text(["  Thanks,\n  Ada  "], []) == "Thanks, Ada"
    assert stable_text(["42"], ["#7"]) is None and stable_text([], []) is None


def test_save_name_keeps_a_plain_file_name() -> None:
    assert save_name("../../etc/passwd") == "passwd"
    assert save_name("C:\\Users\\x\\report 2026.csv") == "report 2026.csv"
    assert save_name("a<b>|c?.csv") == "a_b_c_.csv"
    assert save_name("...") == "download"


async def test_closing_the_window_ends_the_recording(demo_site: DemoSite, workspace: Path) -> None:
    async with BrowserSession(SessionOptions()) as own:
        ctx = ToolContext(session=own, settings=Settings(), workspace=workspace)

        async def user(page: Page, recorder: Recorder, lines: list[str]) -> None:
            await page.get_by_label("Username").fill("ada")
            await until(lambda: recorder.pending_fields == ["Username"], "the field seen")
            await page.close()

        lines: list[str] = []
        recorders: list[Recorder] = []
        task = asyncio.create_task(record_session(own, ctx, demo_site.base_url + "/login", lines.append,
                                                  recorders=recorders))
        await until(lambda: any(line.startswith("Recording:") for line in lines) or task.done(), "the recorder")
        await user(own.page, recorders[0], lines)
        recording = await asyncio.wait_for(task, 60)  # no stop event: the closed window alone ends it
    assert [s["field"] for s in recording.steps] == ["username"] and recording.inputs == {"username": "ada"}


async def test_record_in_open_shadow_roots_and_in_frames(
        session: BrowserSession, tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    async def in_shadow(page: Page, recorder: Recorder, lines: list[str]) -> None:
        await page.get_by_label("Shadow input").fill("inside")
        await until(lambda: recorder.pending_fields == ["Shadow input"], "the shadow field seen")
        await page.get_by_role("button", name="Deep shadow button").click()
        await until(lambda: any(line.startswith("click:") for line in lines), "the deep click")

    recording = await record_while(session, tool_ctx, demo_site.base_url + "/shadow", in_shadow)
    assert recording.steps == [
        {"kind": "fill", "field": "shadow_input", "target": {"role": "textbox", "names": ["Shadow input"]},
         "action": "type", "valueRef": {"key": "shadow_input"}},
        {"kind": "act", "target": {"role": "button", "names": ["Deep shadow button"]}},
    ]

    async def in_frames(page: Page, recorder: Recorder, lines: list[str]) -> None:
        inner = page.frame_locator("iframe[title='Inner frame']")
        cross = page.frame_locator("iframe[title='Cross-origin frame']")
        await inner.get_by_label("Inner name").fill("Ada")
        await cross.get_by_label("Cross field").fill("Grace")
        await until(lambda: sorted(recorder.pending_fields) == ["Cross field", "Inner name"], "both frames' fields")
        await cross.get_by_role("button", name="Cross-origin button").click()
        await until(lambda: any(line.startswith("click:") for line in lines), "the click in the frame")

    recording = await record_while(session, tool_ctx, demo_site.base_url + "/frames", in_frames)
    inner_fill, cross_fill, click = recording.steps
    assert inner_fill["target"]["names"] == ["Inner name"] and inner_fill["target"]["frame"]
    assert cross_fill["target"]["names"] == ["Cross field"] and cross_fill["target"]["frame"]
    assert click["kind"] == "act" and click["target"]["names"] == ["Cross-origin button"]
    assert recording.inputs == {"inner_name": "Ada", "cross_field": "Grace"}


CARD_PAGE = """<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Pay</title></head><body><main>
<h1>Pay by card</h1>
<form id="pay" aria-label="Pay">
  <label for="holder">Name on card</label><input id="holder" autocomplete="cc-name" placeholder="As printed">
  <label for="card">Card number</label><input id="card" inputmode="numeric" autocomplete="cc-number">
  <label for="code">Code</label><input id="code" inputmode="numeric" autocomplete="one-time-code">
  <input aria-label="Note"> <input aria-label="Note">
  <button type="submit">Pay</button>
</form>
<p id="status" role="status"></p>
</main><script>
document.getElementById("pay").addEventListener("submit", (ev) => {
  ev.preventDefault();
  document.getElementById("status").textContent = "Payment sent";
});
</script></body></html>"""


@contextlib.contextmanager
def served(folder: Path) -> Iterator[str]:
    """``folder`` on a free loopback port."""
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


async def test_card_numbers_and_one_time_codes_are_recorded_without_their_values(
        session: BrowserSession, tool_ctx: ToolContext, tmp_path: Path, workspace: Path) -> None:
    (tmp_path / "pay.html").write_text(CARD_PAGE, encoding="utf-8")

    async def user(page: Page, recorder: Recorder, lines: list[str]) -> None:
        await page.get_by_label("Name on card").fill("Ada Lovelace")
        await page.get_by_label("Card number").fill("4111111111111111")
        await page.get_by_label("Code").fill("902417")
        await page.get_by_label("Note").nth(1).fill("second")
        await until(lambda: len(recorder.pending_fields) == 4, "four fields seen")
        await page.get_by_role("button", name="Pay").click()
        await until(lambda: any(line.startswith("submit:") for line in lines), "the submit")

    with served(tmp_path) as base:
        recording = await record_while(session, tool_ctx, base + "/pay.html", user)
    holder, card, code, note, submit = recording.steps
    assert holder["valueRef"] == {"key": "name_on_card"}
    # The placeholder is kept as a label a replay tries when the name no longer matches.
    assert holder["target"] == {"role": "textbox", "names": ["Name on card"], "labels": ["As printed"]}
    # The card number by its name, the code (named only "Code") by its autocomplete attribute.
    assert card["valueRef"] == {"key": "card_number", "sensitive": True}
    assert code["valueRef"] == {"key": "code", "sensitive": True}
    # Two fields of one name: the second is told apart by its position among them.
    assert note["target"] == {"role": "textbox", "names": ["Note"], "nth": 1}
    assert submit["expect"] == {"text": ["Payment sent"]}
    assert recording.inputs == {"name_on_card": "Ada Lovelace", "card_number": None, "code": None, "note": "second"}
    out = workspace / "pay.yaml"
    write_recording(recording, out, workspace / "pay.input.yaml")
    for path in (out, workspace / "pay.input.yaml"):
        text = path.read_text()
        assert "4111" not in text and "902417" not in text


async def test_record_a_custom_combobox_a_radio_and_a_textarea_then_replay(
        session: BrowserSession, tool_ctx: ToolContext, demo_site: DemoSite, workspace: Path) -> None:
    async def user(page: Page, recorder: Recorder, lines: list[str]) -> None:
        await page.get_by_label("Merchant").fill("Acme")
        await page.get_by_label("Amount").fill("3")
        await page.get_by_role("combobox", name="Currency").fill("EU")  # the list opens, filtered
        await page.get_by_role("option", name="EUR").click()
        await page.get_by_label("Bank transfer").check()
        await page.get_by_label("Notes").fill("Taxi to the airport, shared with two colleagues.")
        await until(lambda: len(recorder.pending_fields) == 5, "five fields seen")
        await page.get_by_role("button", name="Submit expense").click()
        await until(lambda: any(line.startswith("submit:") for line in lines), "the submit")

    recording = await record_while(session, tool_ctx, demo_site.base_url + "/expense", user)
    by_field = {s.get("field"): s for s in recording.steps}
    assert by_field["currency"]["target"]["role"] == "combobox" and recording.inputs["currency"] == "EUR"
    # The radio chosen: one step keyed by its group's legend, with the group's radios as the options.
    payment = by_field["payment_method"]
    assert payment["target"] == {"role": "radio", "names": ["Bank transfer"]} and payment["value"] is True
    assert payment["display"] == "Bank transfer" and payment["options"] == ["Card", "Cash", "Bank transfer"]
    assert "card" not in by_field and recording.inputs["payment_method"] == "Bank transfer"
    assert recording.inputs["notes"] == "Taxi to the airport, shared with two colleagues."
    out = workspace / "expense.yaml"
    write_recording(recording, out, workspace / "expense.input.yaml")
    code, prepared = await cli(workspace, "prepare", "--steps", str(out), "--input",
                               str(workspace / "expense.input.yaml"))
    assert code == 2, prepared
    code, ran = await cli(workspace, "run", str(prepared["requestId"]), "--confirm", str(prepared["confirmPhrase"]))
    assert code == 0, ran
    replayed = server_state(demo_site.base_url)["submissions"][-1]
    assert (replayed["currency"], replayed["payment_method"]) == ("EUR", "bank")
    assert replayed["notes"] == "Taxi to the airport, shared with two colleagues."
    # As a pack, the choice is an enum of the group's radios, and another choice picks another radio.
    code, made = await cli(workspace, "pack", "new", "recorded_choice", "--from-steps", str(out))
    assert code == 0, made
    pack = validate_pack_dir(workspace / "domain_packs" / "recorded_choice")
    other = pack.build(pack.parse_input({**pack.example, "payment_method": "Cash"}, PackContext(workspace)))
    chosen, = [s for s in other.steps if s.field == "payment_method"]
    assert chosen.target is not None and chosen.target.names == ["Cash"] and chosen.display == "Cash"


async def test_record_native_date_and_time_controls_of_the_widget_zoo(
        session: BrowserSession, tool_ctx: ToolContext, workspace: Path) -> None:
    async def user(page: Page, recorder: Recorder, lines: list[str]) -> None:
        await page.get_by_label("Birthday").fill("1990-05-17")
        await page.get_by_label("Meeting time").fill("09:30")
        await page.get_by_label("Billing month").fill("2026-02")
        await until(lambda: len(recorder.pending_fields) == 3, "three fields seen")

    with ZooSite() as zoo:
        recording = await record_while(session, tool_ctx, zoo.url("native"), user)
    assert [(s["field"], s["action"], s["target"]["names"]) for s in recording.steps] == [
        ("birthday", "type", ["Birthday"]), ("meeting_time", "type", ["Meeting time"]),
        ("billing_month", "type", ["Billing month"])]
    assert recording.inputs == {"birthday": "1990-05-17", "meeting_time": "09:30", "billing_month": "2026-02"}
    out = workspace / "native.yaml"
    write_recording(recording, out, workspace / "native.input.yaml")
    code, made = await cli(workspace, "pack", "new", "zoo_native", "--from-steps", str(out))
    assert code == 0, made
    assert "birthday: dt.date" in (workspace / "domain_packs" / "zoo_native" / "pack.py").read_text()
