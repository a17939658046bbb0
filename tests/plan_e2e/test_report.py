"""`evidence report` on real runs of the demo expense pack: a finished (signed), a failed and an interrupted run,
opened in a real Chromium, checked with axe-core and against the element's real position on the page."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from browserops.browser.launch.discovery import find_chromium, launch_args
from browserops.demo_site import DemoSite
from browserops.evidence import BundleWriter, StepEvent, StepTarget, verify_bundle
from browserops.evidence.layout import MANIFEST_FILE, REPORT_FILE
from tests.chat.test_page import AXE
from tests.plan_e2e.helpers import bundle_of, cli_json, cli_run, post, prepare_expense

PNG_1x1 = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f0005"
    "0001ff89993d1d0000000049454e44ae426082")


@pytest.fixture
def site(demo_site: DemoSite) -> DemoSite:
    demo_site.reset()
    return demo_site


@contextlib.contextmanager
def reviewer() -> Iterator[Browser]:
    """The reviewer's own browser, opened once the CLI work is done (both run an event loop in this thread)."""
    with sync_playwright() as pw:
        chromium = find_chromium(playwright_path=pw.chromium.executable_path)
        browser = pw.chromium.launch(executable_path=chromium.path, args=launch_args(), headless=True)
        yield browser
        browser.close()


def open_report(viewer: Browser, path: Path) -> Page:
    # bypass_csp only so the test can inject axe-core; the report forbids every script.
    context = viewer.new_context(bypass_csp=True, viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.goto(path.as_uri())
    return page


def run_axe(page: Page) -> list[dict[str, Any]]:
    """As tests/chat/test_page.py: WCAG A/AA/AAA and best practices, contrast at 7:1."""
    page.add_script_tag(content=AXE.read_text(encoding="utf-8"))
    result = page.evaluate("""() => axe.run(document, {
        runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag2aaa', 'wcag21a', 'wcag21aa', 'wcag22aa',
                                        'best-practice']},
        rules: {'color-contrast-enhanced': {enabled: true}}
    }).then(r => r.violations.map(v => ({id: v.id, help: v.help, nodes: v.nodes.map(n => n.target)})))""")
    return list(result)


def report(workspace: Path, request_id: str) -> dict[str, Any]:
    code, data, err = cli_json(workspace, "evidence", "report", request_id)
    assert code == 0, err
    return data


def check_finished_report(viewer: Browser, path: Path, base_url: str) -> tuple[list[float], Any]:
    """axe, the keyboard path, and step 2's drawn box in screenshot pixels; plus the field's real box."""
    page = open_report(viewer, path)
    try:
        assert run_axe(page) == []
        # Keyboard: the skip link is the first stop and moves focus to the verification result.
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.textContent") == "Skip to the verification result"
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "verify"
        # Step 2 (merchant): its "before" shows the Merchant field outlined and numbered.
        shot = page.locator(".shot:has(.box[data-step='2'])")
        label = shot.get_attribute("aria-label")
        assert label == 'Before step 2, with textbox "Merchant" outlined as number 2'
        assert shot.locator(".badge").inner_text() == "2"
        outer = shot.bounding_box()
        inner = shot.locator(".box").bounding_box()
        assert outer is not None and inner is not None
        scale = 1280 / outer["width"]  # the screenshot is the run's 1280-pixel-wide viewport
        drawn = [(inner["x"] - outer["x"]) * scale, (inner["y"] - outer["y"]) * scale,
                 inner["width"] * scale, inner["height"] * scale]
    finally:
        page.context.close()
    # Where the field really is on that page, measured independently in the same viewport.
    context = viewer.new_context(viewport={"width": 1280, "height": 800})
    try:
        live = context.new_page()
        live.goto(base_url + "/expense")
        real = live.get_by_role("textbox", name="Merchant").bounding_box()
    finally:
        context.close()
    return drawn, real


def test_finished_signed_run(site: DemoSite, workspace: Path) -> None:
    assert cli_run(workspace, "evidence", "keygen").exit_code == 0
    prepared = prepare_expense(workspace, site.base_url)
    code, run, _ = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert code == 0, run
    data = report(workspace, prepared["requestId"])
    bundle = bundle_of(workspace, prepared["requestId"])
    assert data["sealed"] and data["report"] == str(bundle / REPORT_FILE) and data["verify"]["ok"]
    assert f"  {REPORT_FILE}\n" in (bundle / MANIFEST_FILE).read_text()
    after = verify_bundle(bundle)
    assert after.ok and after.signature == "valid"  # re-sealed and re-signed with the same key
    html = (bundle / REPORT_FILE).read_text()
    assert "Northwind Taxi" in html  # the reviewed diff's value (not a secret) is shown
    assert "<script" not in html and "url(http" not in html and 'src="' not in html  # offline: nothing to fetch
    assert prepared["confirmPhrase"] in html and "Run by" in html

    with reviewer() as viewer:
        drawn, real = check_finished_report(viewer, bundle / REPORT_FILE, site.base_url)
    assert real is not None
    expected = [real["x"], real["y"], real["width"], real["height"]]
    assert all(abs(d - e) <= 2 for d, e in zip(drawn, expected, strict=True)), (drawn, expected)
    # A second report replaces the first inside the seal.
    assert report(workspace, prepared["requestId"])["sealed"] and verify_bundle(bundle).ok


def test_failed_run(site: DemoSite, workspace: Path) -> None:
    prepared = prepare_expense(workspace, site.base_url)
    post(site.base_url, "/__variant", {"name": "submit_label", "value": "File this claim"})
    code, run, _ = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert code == 1 and run["code"] == "BROWSER_SITE_CHANGED"
    data = report(workspace, prepared["requestId"])
    bundle = bundle_of(workspace, prepared["requestId"])
    # A failed run is intact: its report is sealed in, and verify still says the run is incomplete.
    assert data["sealed"] and not data["verify"]["ok"] and data["verify"]["intact"]
    after = verify_bundle(bundle)
    assert after.intact and after.status == "incomplete"
    with reviewer() as viewer:
        page = open_report(viewer, bundle / REPORT_FILE)
        assert run_axe(page) == []
        text = page.locator("main").inner_text()
        assert "BROWSER_SITE_CHANGED" in text and "File this claim" in text
        assert page.locator("figcaption", has_text="Error: screenshots/002_error_merchant.png").count() == 1
        assert page.locator("#verify ~ p .bad").inner_text() == "FAILED"


def test_interrupted_run(site: DemoSite, workspace: Path) -> None:
    prepared = prepare_expense(workspace, site.base_url)
    # A run whose process dies after one step: status "open", no manifest (as SIGKILL leaves it).
    writer = BundleWriter.open(workspace, prepared["requestId"], confirmed_with=prepared["confirmPhrase"])
    shot = writer.add_screenshot(2, "before", PNG_1x1, "merchant")
    writer.log_event(StepEvent.begin(step=2, kind="fill", target=StepTarget(
        role="textbox", name="Merchant", number=2, box=[0, 0, 1, 1], viewport=[1, 1])).end(
        {"status": "ok"}, screenshots=[shot]))
    bundle = writer.path
    code, data, err = cli_json(workspace, "evidence", "report", prepared["requestId"])
    assert code == 0, err
    # Never written into (or sealed into) a bundle without a manifest.
    assert not data["sealed"] and "no manifest" in data["whyOutside"] and not (bundle / REPORT_FILE).exists()
    path = Path(data["report"])
    assert path == workspace.resolve() / "artifacts/browser/reports" / f"{prepared['requestId']}.html"
    with reviewer() as viewer:
        page = open_report(viewer, path)
        assert run_axe(page) == []
        text = page.locator("main").inner_text()
        assert "interrupted (the writer stopped before finishing)" in text and "never (interrupted)" in text
        box = page.locator(".box[data-step='2']").bounding_box()
        frame = page.locator(".shot:has(.box[data-step='2'])").bounding_box()
        assert box is not None and frame is not None and abs(box["width"] - frame["width"]) <= 1
    code, listed, _ = cli_json(workspace, "evidence", "list")
    assert [b["requestId"] for b in listed["bundles"]] == [prepared["requestId"]]  # reports/ is not a bundle
    assert orjson.loads((bundle / "bundle.json").read_bytes())["status"] == "open"
