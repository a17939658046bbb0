"""The prepare/run engine in-process on the shared Chromium: read-only by construction, multi-page plans,
several languages, and waiting for a person to log in."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from browserops.browser.launch.session import BrowserSession
from browserops.config import Settings
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.demo_site import DemoSite
from browserops.evidence import read_info, verify_bundle
from browserops.listing_rows import listing_items
from browserops.packs import get_pack
from browserops.plan.interpret.guard import PREPARE_CLASSES, UNCONFIRMED_CLASSES, GuardedTools
from browserops.plan.model import PlanSource
from browserops.plan.prepare.prepare import PlanRequest, prepare_plan
from browserops.plan.run.attempt import RunOptions, run_plan
from browserops.plan.steps import Step
from browserops.tools.context import ToolContext
from browserops.tools.runner import ToolRunner
from tests.calls import call_tool
from tests.plan_e2e.helpers import EXPENSE_INPUT, events, request_log

ACTING = ("browser_overlay_act", "browser_act_by_index", "browser_press", "browser_upload", "browser_dialog",
          "browser_close_banners")


def _ctx(session: BrowserSession, workspace: Path) -> ToolContext:
    return ToolContext(session=session, settings=Settings(), workspace=workspace)


async def test_prepare_guard_refuses_every_tool_that_acts(session: BrowserSession, demo_site: DemoSite,
                                                          workspace: Path) -> None:
    ctx = _ctx(session, workspace)
    await call_tool("browser_navigate", ctx, {"url": demo_site.base_url + "/expense"})
    listing = await call_tool("browser_list_interactives", ctx, {"limit": 50})
    submit = next(i["n"] for i in listing_items(listing["data"]) if i["name"] == "Submit expense")
    tools = GuardedTools(ctx, PREPARE_CLASSES, who="prepare")
    for name in (*ACTING, "browser_click_and_wait_download", "browser_download_wait"):
        with pytest.raises(BrowserOpsError) as err:
            await tools.call(name, {"index": submit, "action": "click"})
        assert err.value.code is ErrorCode.POLICY_REFUSED and name in err.value.message
    assert tools.calls == []  # refused before the tool ran
    unconfirmed = GuardedTools(ctx, UNCONFIRMED_CLASSES, who="run without --confirm")
    with pytest.raises(BrowserOpsError):
        await unconfirmed.call("browser_overlay_act", {"index": submit, "action": "click"})
    assert unconfirmed.allows("browser_click_and_wait_download") and not unconfirmed.allows("browser_upload")
    assert demo_site.state.submissions == []


async def test_prepare_acts_only_in_its_fenced_copy(session: BrowserSession, demo_site: DemoSite, workspace: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """On the person's browser prepare calls nothing; it types into its throwaway copy, which sends nothing unsafe."""
    await call_tool("browser_navigate", _ctx(session, workspace), {"url": demo_site.base_url + "/expense"})
    called: list[tuple[bool, str]] = []

    real_call = ToolRunner.call

    async def spy(runner: ToolRunner, name: str, args: dict[str, Any] | None = None, *,
                  raise_refused: bool = False, **more: Any) -> dict[str, Any]:
        called.append((runner.ctx.session is session, name))
        return await real_call(runner, name, args, raise_refused=raise_refused, **more)

    monkeypatch.setattr(ToolRunner, "call", spy)
    requests_before = len(request_log(demo_site.base_url))
    pack = get_pack(workspace, "demo_expense")
    built = pack.build(pack.load_input(EXPENSE_INPUT))
    request = PlanRequest(title=built.title, start_url=demo_site.base_url + "/expense", steps=built.steps,
                          source=PlanSource(kind="pack", name=pack.name))
    prepared = await prepare_plan(_ctx(session, workspace), workspace, request)
    assert [name for own, name in called if own] == []
    in_copy = {name for own, name in called if not own}
    assert "browser_list_interactives" in in_copy and "browser_overlay_act" in in_copy
    assert prepared.plan.diff is not None and len(prepared.plan.diff) == 9
    assert prepared.rehearsed == [a.number for a in prepared.plan.actions if a.kind.value == "fill"]
    assert demo_site.state.submissions == [] and demo_site.state.uploads == []
    sent = request_log(demo_site.base_url)[requests_before:]
    assert sent and {r["method"] for r in sent} <= {"GET", "HEAD"}, sent
    # Nothing was typed into the person's browser (left on the form above).
    listing = await call_tool("browser_list_interactives", _ctx(session, workspace), {"limit": 50})
    merchant = next(i for i in listing_items(listing["data"]) if i["name"] == "Merchant")
    assert "value" not in merchant.get("state", {})


def _multilang_steps() -> list[Step]:
    raw: list[dict[str, Any]] = [
        {"kind": "fill", "field": "first_name_en", "target": {"role": "textbox", "names": ["First name", "Имя"]},
         "value": "Ada"},
        {"kind": "submit", "target": {"role": "button", "names": ["Send", "Отправить", "提交"]},
         "expect": {"text": ["Thank you", "Спасибо"], "urlContains": "sent=en"}},
        {"kind": "fill", "field": "first_name_ru", "target": {"role": "textbox", "names": ["Имя", "名字"]},
         "value": "Ада"},
        {"kind": "fill", "field": "city_ru", "target": {"role": "textbox", "names": ["Город"]}, "value": "Казань"},
        {"kind": "submit", "target": {"role": "button", "names": ["Отправить"]},
         "expect": {"text": ["Спасибо, данные отправлены."], "urlContains": "sent=ru"}},
    ]
    return [Step.model_validate(r) for r in raw]


async def test_two_pages_in_two_languages(session: BrowserSession, demo_site: DemoSite, workspace: Path) -> None:
    request = PlanRequest(title="Contact details twice", start_url=demo_site.base_url + "/expense/multilang",
                          steps=_multilang_steps(), source=PlanSource(kind="steps", name="multilang"))
    ctx = _ctx(session, workspace)
    prepared = await prepare_plan(ctx, workspace, request)
    assert prepared.unread == [3, 4]  # after the first submit: prepare never submits, so it did not look
    assert prepared.plan.fingerprint is not None
    assert prepared.plan.fingerprint.values == {"first_name_en": None}  # read: empty
    assert prepared.plan.fingerprint.unread == ["first_name_ru", "city_ru"]  # unknown, never compared
    assert set(prepared.not_read) == {3, 4, 5} and "prepare never submits" in prepared.not_read[3]
    result = await run_plan(ctx, workspace, prepared.plan, prepared.bundle, RunOptions(confirm=prepared.phrase))
    assert result.error is None and result.status == "complete", result.error
    assert [(e["lang"], e["first_name"], e["city"]) for e in demo_site.state.multilang] == [
        ("en", "Ada", ""), ("ru", "Ада", "Казань")]
    assert [s.status for s in result.steps] == ["ok"] * 5
    assert verify_bundle(prepared.bundle).ok
    checked = [e for e in events(workspace, prepared.plan.request_id) if e["phase"] == "run" and e["step"] == 3]
    assert checked[0]["target"]["name"] == "Имя"


async def test_run_lists_each_page_once_per_step(session: BrowserSession, demo_site: DemoSite, workspace: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    # Every step resolves its target in a listing taken for it; the first step on a page uses the one its page
    # check (staleness) took just before, since nothing ran in between.
    request = PlanRequest(title="Contact details twice", start_url=demo_site.base_url + "/expense/multilang",
                          steps=_multilang_steps(), source=PlanSource(kind="steps", name="multilang"))
    ctx = _ctx(session, workspace)
    prepared = await prepare_plan(ctx, workspace, request)
    called: list[str] = []

    real_call = ToolRunner.call

    async def spy(runner: ToolRunner, name: str, args: dict[str, Any] | None = None, *,
                  raise_refused: bool = False, **more: Any) -> dict[str, Any]:
        called.append(name)
        return await real_call(runner, name, args, raise_refused=raise_refused, **more)

    monkeypatch.setattr(ToolRunner, "call", spy)
    result = await run_plan(ctx, workspace, prepared.plan, prepared.bundle, RunOptions(confirm=prepared.phrase))
    assert result.error is None and [s.status for s in result.steps] == ["ok"] * 5
    # five steps with a target, two page checks among them
    assert called.count("browser_list_interactives") == 5, called
    assert called.count("browser_overlay_act") == 5


async def test_prepare_waits_for_a_person_to_log_in(session: BrowserSession, demo_site: DemoSite,
                                                    workspace: Path) -> None:
    ctx = _ctx(session, workspace)
    steps = [Step.model_validate({"kind": "payment", "target": {"role": "button", "names": ["Pay now"]}})]
    request = PlanRequest(title="Pay", start_url=demo_site.base_url + "/pay", steps=steps,
                          source=PlanSource(kind="steps", name="pay"))
    lines: list[str] = []
    asked = asyncio.Event()

    def progress(line: str) -> None:
        lines.append(line)
        asked.set()

    async def person() -> None:
        """What someone at the headed window does: sees the login page, types, clicks Log in."""
        await asked.wait()
        listing = listing_items((await call_tool("browser_list_interactives", ctx, {"limit": 50}))["data"])
        by_name = {i["name"]: i["n"] for i in listing}
        await call_tool("browser_overlay_act", ctx, {"index": by_name["Username"], "action": "type", "text": "ada"})
        await call_tool("browser_overlay_act", ctx, {"index": by_name["Password"], "action": "type", "text": "demo"})
        await call_tool("browser_overlay_act", ctx, {"index": by_name["Log in"], "action": "click"})

    helper = asyncio.create_task(person())
    prepared = await prepare_plan(ctx, workspace, request, progress=progress, login_wait_s=30)
    await helper
    assert any("needs a login" in line for line in lines)
    assert prepared.plan.actions[0].matched_name == "Pay now" and demo_site.state.payments == []
    with pytest.raises(BrowserOpsError) as err:  # without waiting: the error says what to do
        await session.context.clear_cookies()
        await prepare_plan(ctx, workspace, request, login_wait_s=0)
    assert err.value.code is ErrorCode.LOGIN_REQUIRED and "--profile DIR --headed" in err.value.message


async def test_unconfirmed_run_skips_what_follows_a_skipped_click(session: BrowserSession, demo_site: DemoSite,
                                                                  workspace: Path) -> None:
    raw: list[dict[str, Any]] = [
        {"kind": "fill", "field": "first", "target": {"role": "textbox", "names": ["First name"]}, "value": "Ada"},
        {"kind": "submit", "target": {"role": "button", "names": ["Send"]}, "expect": {"text": ["Thank you"]}},
        {"kind": "read", "expect": {"text": ["Thank you"]}},  # free, but on the page the skipped submit leads to
        {"kind": "navigate", "url": "/statements"},
        {"kind": "export", "target": {"role": "link", "names": ["2026-01 CSV"]}, "saveAs": "jan.csv"},
    ]
    request = PlanRequest(title="Mixed", start_url=demo_site.base_url + "/expense/multilang",
                          steps=[Step.model_validate(r) for r in raw], source=PlanSource(kind="steps", name="m"))
    ctx = _ctx(session, workspace)
    prepared = await prepare_plan(ctx, workspace, request)
    assert prepared.unread == []  # step 3 has no field to read; it was not checked either
    result = await run_plan(ctx, workspace, prepared.plan, prepared.bundle, RunOptions())
    assert result.error is None and not result.confirmed
    assert [(s.number, s.status) for s in result.steps] == [
        (1, "skipped"), (2, "skipped"), (3, "skipped"), (4, "ok"), (5, "ok")]
    assert result.steps[2].note == "follows step 2, which did not run" and result.skipped == [1, 2, 3]
    assert [e["path"] for e in result.exports] == ["exports/jan.csv"]
    assert demo_site.state.multilang == [] and demo_site.state.downloads == ["statements_2026-01.csv"]


async def test_submit_without_its_confirmation_is_submit_failed(session: BrowserSession, demo_site: DemoSite,
                                                                workspace: Path) -> None:
    raw: list[dict[str, Any]] = [
        {"kind": "fill", "field": "merchant", "target": {"role": "textbox", "names": ["Merchant"]}, "value": "Acme"},
        {"kind": "submit", "target": {"role": "button", "names": ["Submit expense"]},  # no amount: the form refuses
         "expect": {"text": ["Expense submitted"], "timeoutMs": 1500}},
    ]
    request = PlanRequest(title="Incomplete expense", start_url=demo_site.base_url + "/expense",
                          steps=[Step.model_validate(r) for r in raw], source=PlanSource(kind="steps", name="x"))
    ctx = _ctx(session, workspace)
    prepared = await prepare_plan(ctx, workspace, request)
    result = await run_plan(ctx, workspace, prepared.plan, prepared.bundle, RunOptions(confirm=prepared.phrase))
    assert result.error is not None and result.error.code is ErrorCode.SUBMIT_FAILED
    assert "after screenshot" in result.error.message and result.status == "incomplete"
    failed = result.steps[-1]
    assert failed.status == "error" and failed.screenshots == ["screenshots/002_before_submit.png",
                                                               "screenshots/002_after_submit.png"]
    after = prepared.bundle / "screenshots" / "002_after_submit.png"
    info = read_info(prepared.bundle)
    assert info is not None  # the before image may be step 1's after, stored once under that name
    name = "screenshots/002_before_submit.png"
    before = prepared.bundle / info.same_as.get(name, name)
    assert after.read_bytes() != before.read_bytes()
    snapshot = next((prepared.bundle / "snapshots").glob("002_after-submit*.aria.txt")).read_text()
    assert "Amount is required." in snapshot  # the page as it was: the site's own error message
    assert demo_site.state.submissions == []
