"""Domain packs: the interface, the import guard, discovery, and the demo packs against the real demo site."""

from __future__ import annotations

import datetime as dt
import re
import textwrap
from pathlib import Path

import httpx
import pytest
import yaml

from browserops.browser.launch.session import BrowserSession
from browserops.contract import BrowserOpsError, ErrorCode, SideEffect
from browserops.demo_site import DemoSite
from browserops.packs import BUILTIN_DIR, PackContext, get_pack, list_packs, load_pack_dir, validate_pack_dir
from browserops.plan import PlanDraft, PlanSource, build_plan, render_diff
from browserops.plan.steps import Kind, Step

CYRILLIC = re.compile(r"[\u0400-\u04ff]")
CJK = re.compile(r"[\u4e00-\u9fff]")

GOOD_PACK = '''
from pydantic import BaseModel
from browserops.packs import PackContext
from browserops.plan.steps import SemanticTarget, Step

NAME = "{name}"
DESCRIPTION = "Test pack"
START_URL = "/"
EXPORTS: list[str] = []

class Input(BaseModel):
    q: str

EXAMPLE = {{"q": "x"}}

def validate(inp, ctx):
    return []

def build_steps(inp, ctx):
    {body}
'''
GOOD_BODY = 'return [Step(kind="navigate", url="/"), Step(kind="fill", field="q", value=inp.q, ' \
            'target=SemanticTarget(role="searchbox", names=["Search"]))]'


def write_pack(root: Path, name: str, source: str) -> Path:
    folder = root / "domain_packs" / name
    folder.mkdir(parents=True)
    (folder / "pack.py").write_text(textwrap.dedent(source), encoding="utf-8")
    return folder


# --------------------------------------------------------------------------- the demo packs


def test_demo_expense_builds_multilingual_semantic_steps() -> None:
    pack = validate_pack_dir(BUILTIN_DIR / "demo_expense")
    steps = pack.build(pack.example_input()).steps
    assert [s.kind for s in steps] == [Kind.NAVIGATE] + [Kind.FILL] * 9 + [Kind.SUBMIT]
    fields = [s.field for s in steps if s.kind is Kind.FILL]
    assert fields == ["merchant", "amount", "date", "category", "currency", "billable", "payment_method", "notes",
                      "receipt"]
    for s in steps[1:]:
        assert s.target is not None
        names = " ".join(s.target.names)
        assert CYRILLIC.search(names) and CJK.search(names), s.field
    upload = steps[9]
    assert upload.action == "upload" and Path(str(upload.value)).is_file() and upload.display == "example_receipt.png"
    submit = steps[-1]
    assert submit.side_effect is SideEffect.BROWSER_ACT and submit.expect is not None
    assert "Expense submitted" in submit.expect.text


def test_demo_expense_example_file_matches_example() -> None:
    pack = get_pack(None, "demo_expense")
    from_file = pack.load_input(BUILTIN_DIR / "demo_expense" / "example_input.yaml")
    assert from_file.data == pack.example_input().data and from_file.digest is not None


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        ({"amount": "-5"}, "amount: Input should be greater than 0"),
        ({"amount": "1.234"}, "amount"),
        ({"currency": "XYZ"}, "currency"),
        ({"colour": "red"}, "colour: Extra inputs are not permitted"),
        ({"receipt": "nope.png"}, "receipt: no file at"),
        ({"receipt": "pack.py"}, "is not an image or PDF"),
        ({"date": "2999-01-01"}, "date: 2999-01-01 is in the future"),
    ],
)
def test_demo_expense_input_errors_name_the_field(change: dict[str, str], fragment: str) -> None:
    pack = get_pack(None, "demo_expense")
    with pytest.raises(BrowserOpsError) as info:
        pack.parse_input({**pack.example, **change}, PackContext(base_dir=pack.path), source="in.yaml")
    assert info.value.code is ErrorCode.INPUT_INVALID
    assert info.value.message.startswith("in.yaml: ") and fragment in info.value.message


def test_demo_statements_is_read_only_and_exports() -> None:
    pack = validate_pack_dir(BUILTIN_DIR / "demo_statements")
    sf = pack.build(pack.example_input())
    plan = build_plan(PlanDraft(
        title=sf.title, start_url="http://127.0.0.1:1/statements", steps=sf.steps, workspace="/ws",
        source=PlanSource(kind="pack", name=pack.name)))
    assert not plan.side_effects.requires_confirm
    assert [a.save_as for a in plan.actions if a.kind is Kind.EXPORT] == ["statements_2026-01.csv",
                                                                          "statements_2026-02.csv"]
    assert render_diff(plan).endswith("Plan: 0 fills, 0 submits, 2 exports; side effects: export")
    latest = pack.build(pack.parse_input({}, PackContext(base_dir=pack.path))).steps[-1]
    assert latest.target is not None and latest.target.names[0] == "Export CSV"
    with pytest.raises(BrowserOpsError) as info:
        pack.parse_input({"months": ["2026-01", "2026-01", "2026-13"]}, PackContext(base_dir=pack.path))
    assert "months" in info.value.message
    with pytest.raises(BrowserOpsError) as info:
        pack.parse_input({"months": ["2026-01", "2026-01"]}, PackContext(base_dir=pack.path, today=dt.date(2026, 5, 1)))
    assert "each month only once" in info.value.message


async def _resolves(session: BrowserSession, step: Step) -> str:
    """The candidate name that finds exactly one element with the step's role on the current page."""
    assert step.target is not None
    for name in step.target.names:
        if await session.page.get_by_role(step.target.role, name=name, exact=True).count() == 1:  # type: ignore[arg-type]
            return name
    raise AssertionError(f"no candidate of {step.target.describe()} matches on {session.page.url}")


async def test_demo_pack_targets_exist_on_the_real_site(session: BrowserSession, demo_site: DemoSite) -> None:
    expense = get_pack(None, "demo_expense")
    steps = expense.build(expense.example_input()).steps
    await session.page.goto(demo_site.base_url + expense.start_url)
    matched = [await _resolves(session, s) for s in steps if s.target is not None]
    assert matched == ["Merchant", "Amount", "Date", "Category", "Currency", "Billable to client", "Card", "Notes",
                       "Receipt", "Submit expense"]

    statements = get_pack(None, "demo_statements")
    await session.page.goto(demo_site.base_url + statements.start_url)
    for data in ({}, {"months": ["2025-10", "2026-03"]}):
        for s in statements.build(statements.parse_input(data, PackContext(base_dir=statements.path))).steps:
            if s.target is not None:
                await _resolves(session, s)
            if s.expect is not None:
                content = await session.page.content()
                assert any(t in content for t in s.expect.text)


def test_demo_expense_expectation_matches_the_confirmation_page(demo_site: DemoSite) -> None:
    pack = get_pack(None, "demo_expense")
    submit = pack.build(pack.example_input()).steps[-1]
    assert submit.expect is not None and submit.expect.url_contains is not None
    demo_site.reset()
    response = httpx.post(demo_site.base_url + "/expense", data={"merchant": "Northwind Taxi", "amount": "23.40"},
                          follow_redirects=True)
    assert submit.expect.url_contains in str(response.url)
    assert any(text in response.text for text in submit.expect.text)


# --------------------------------------------------------------------------- the interface and the guard


@pytest.mark.parametrize(
    ("line", "fragment"),
    [
        ("from browserops.tools.registry import call_tool", "imports browserops.tools.registry"),
        ("import browserops.browser.launch.session", "imports browserops.browser.launch.session"),
        ("from browserops import lane", "imports browserops.lane"),
        ("from playwright.async_api import Page", "imports playwright.async_api"),
        ("import subprocess", "imports subprocess"),
        ("import importlib", "imports importlib"),
        ("x = __import__('socket')", "calls __import__()"),
    ],
)
def test_packs_that_could_drive_a_browser_are_refused(tmp_path: Path, line: str, fragment: str) -> None:
    folder = write_pack(tmp_path, "sneaky", line + "\n" + GOOD_PACK.format(name="sneaky", body=GOOD_BODY))
    with pytest.raises(BrowserOpsError) as info:
        load_pack_dir(folder)
    assert info.value.code is ErrorCode.PACK_INVALID
    assert f"pack.py:1: {fragment}" in info.value.message


def test_the_guard_runs_before_any_pack_code(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    source = f"import subprocess\nopen({str(marker)!r}, 'w').write('x')\n"
    folder = write_pack(tmp_path, "evil", source + GOOD_PACK.format(name="evil", body=GOOD_BODY))
    with pytest.raises(BrowserOpsError):
        load_pack_dir(folder)
    assert not marker.exists()


def test_pack_tests_may_import_anything(tmp_path: Path) -> None:
    folder = write_pack(tmp_path, "tested", GOOD_PACK.format(name="tested", body=GOOD_BODY))
    (folder / "test_pack.py").write_text("import subprocess\nfrom browserops.tools.base import SideEffect\n")
    assert validate_pack_dir(folder).name == "tested"


@pytest.mark.parametrize(
    ("source", "fragment"),
    [
        ("NAME = 'x'\n", "pack.py does not define DESCRIPTION"),
        (GOOD_PACK.format(name="other", body=GOOD_BODY), "NAME must be a string equal to the folder name"),
        (GOOD_PACK.format(name="broken", body="return [{'kind': 'navigate'}]"), "non-empty list of Step"),
        (GOOD_PACK.format(name="broken", body="raise KeyError('q')"), "build_steps() raised KeyError"),
        (GOOD_PACK.format(name="broken", body="return [Step(kind='submit', side_effect='read-only', "
                                               "target=SemanticTarget(role='button', names=['Pay']))]"),
         "lower than 'browser-act'"),
        (GOOD_PACK.format(name="broken", body=GOOD_BODY).replace('EXAMPLE = {"q": "x"}', "EXAMPLE = {}"),
         "EXAMPLE is not valid input"),
        ("def (:\n", "pack.py:1: cannot be parsed: invalid syntax"),
        ("raise RuntimeError('boom')\n", "importing pack.py failed: RuntimeError: boom"),
    ],
)
def test_broken_packs_say_what_is_wrong(tmp_path: Path, source: str, fragment: str) -> None:
    folder = write_pack(tmp_path, "broken", source)
    with pytest.raises(BrowserOpsError) as info:
        validate_pack_dir(folder)
    assert info.value.code is ErrorCode.PACK_INVALID and fragment in info.value.message


def test_discovery_workspace_packs_and_problems(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    write_pack(ws, "mine", GOOD_PACK.format(name="mine", body=GOOD_BODY))
    write_pack(ws, "demo_statements", GOOD_PACK.format(name="demo_statements", body=GOOD_BODY))
    write_pack(ws, "bad", "import subprocess\n")
    entries = {e.name: e for e in list_packs(ws)}
    assert {"demo_expense", "demo_statements", "mine", "bad"} <= set(entries)
    assert entries["demo_expense"].origin == "entry-point" and entries["mine"].origin == "workspace"
    assert entries["demo_statements"].origin == "workspace"  # the workspace's own pack wins
    assert entries["bad"].pack is None and "imports subprocess" in entries["bad"].problems[0]
    assert get_pack(ws, "demo_statements").description == "Test pack"
    with pytest.raises(BrowserOpsError) as info:
        get_pack(ws, "nope")
    assert info.value.code is ErrorCode.PACK_NOT_FOUND
    with pytest.raises(BrowserOpsError) as info:
        get_pack(ws, "../etc")
    assert info.value.code is ErrorCode.PACK_NOT_FOUND


def test_input_files(tmp_path: Path) -> None:
    pack = get_pack(None, "demo_expense")
    receipt = tmp_path / "r.pdf"
    receipt.write_bytes(b"%PDF-1.4\n")
    good = tmp_path / "in.yaml"
    good.write_text(yaml.safe_dump({**pack.example, "receipt": "r.pdf"}))
    inp = pack.load_input(good)
    assert pack.build(inp).steps[9].value == str(receipt)  # resolved next to the input file
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(BrowserOpsError) as info:
        pack.load_input(bad)
    assert info.value.code is ErrorCode.INPUT_INVALID and "not valid JSON" in info.value.message
