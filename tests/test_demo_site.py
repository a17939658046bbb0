"""Tests of the bundled demo site: real HTTP against a started DemoSite, and real Chromium for the JS."""

from __future__ import annotations

import dataclasses
import hashlib
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
import pytest_asyncio
from playwright.async_api import Browser, BrowserContext, Page, async_playwright, expect
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from browserops.demo_site import DemoSite, DemoState

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--disable-background-networking", "--disable-component-update", "--disable-sync"]

PAGES: list[tuple[str, str]] = [
    ("/", "Browserops demo site"),
    ("/search?q=stapler", "Search results"),
    ("/banners/iframe", "Banner in an iframe"),
    ("/banners/shadow", "Banner in a shadow root"),
    ("/banners/subscribe", "Newsletter modal"),
    ("/banners/ru", "Russian banner"),
    ("/banners/zh", "Chinese banner"),
    ("/login", "Log in"),
    ("/expense", "New expense"),
    ("/expense/multilang", "Multilingual form"),
    ("/expenses", "Expenses"),
    ("/statements", "Statements"),
    ("/frames", "Frames"),
    ("/frames/inner", "Inner frame"),
    ("/frames/cross", "Cross-origin frame"),
    ("/shadow", "Shadow DOM"),
    ("/spa", "Mailbox"),
    ("/spa/settings", "Mailbox"),
    ("/popup", "Popups"),
    ("/popup/target", "Report"),
    ("/slow?ms=50", "Slow page"),
    ("/slow-content", "Slow content"),
    ("/large?n=100", "Large page"),
    ("/scroll", "Scroll"),
    ("/dialogs", "Dialogs"),
    ("/dialogs/beforeunload", "Unsaved changes"),
    ("/upload", "Upload"),
    ("/injection", "Office tips"),
    ("/focus", "Focus and navigation"),
    ("/mutating", "Mutating page"),
]


# --------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def site() -> Iterator[DemoSite]:
    with DemoSite() as s:
        yield s


@pytest.fixture(autouse=True)
def _fresh_state(site: DemoSite) -> None:
    site.reset()


@pytest.fixture
def client(site: DemoSite) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=site.base_url, timeout=10) as c:
        yield c


@pytest_asyncio.fixture(scope="module")
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as p:
        b = await p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, chromium_sandbox=False)
        try:
            yield b
        finally:
            await b.close()


@pytest_asyncio.fixture
async def context(browser: Browser, site: DemoSite) -> AsyncIterator[BrowserContext]:
    ctx = await browser.new_context(base_url=site.base_url)
    ctx.set_default_timeout(5000)
    try:
        yield ctx
    finally:
        await ctx.close()


@pytest_asyncio.fixture
async def page(context: BrowserContext) -> Page:
    return await context.new_page()


def _login(client: httpx.Client, user: str = "alice") -> None:
    r = client.post("/login", data={"username": user, "password": "demo", "next": "/account"})
    assert r.status_code == 303


# --------------------------------------------------------------------------- plain HTTP


@pytest.mark.parametrize(("path", "title"), PAGES)
def test_every_page_has_its_title(client: httpx.Client, path: str, title: str) -> None:
    r = client.get(path)
    assert r.status_code == 200
    assert f"<title>{title}</title>" in r.text
    assert r.text.count("<h1") <= 1
    if not path.startswith("/frames/"):
        assert r.text.count("<h1") == 1
        assert re.search(r'<html lang="\w+">', r.text)


def test_login_required_pages_have_titles(client: httpx.Client) -> None:
    _login(client)
    for path, title in [("/account", "Account"), ("/pay", "Pay invoice")]:
        r = client.get(path)
        assert r.status_code == 200
        assert f"<title>{title}</title>" in r.text


def test_unknown_page_is_404(client: httpx.Client) -> None:
    r = client.get("/no/such/page")
    assert r.status_code == 404
    assert "Page not found" in r.text


def test_search_records_query(site: DemoSite, client: httpx.Client) -> None:
    r = client.get("/search", params={"q": "Stapler"})
    assert "Results for “Stapler”" in r.text
    assert "Red stapler" in r.text and "Mini stapler" in r.text
    assert "Desk calculator" not in r.text
    assert site.state.searches == ["Stapler"]
    assert "No results" in client.get("/search", params={"q": "zzz"}).text
    assert site.state.searches == ["Stapler", "zzz"]


def test_home_has_search_and_links_to_every_page(client: httpx.Client) -> None:
    html = client.get("/").text
    assert '<label for="search-q">Search</label>' in html
    assert 'id="cookie-consent"' in html
    for path, _ in PAGES:
        if path not in (
            "/",
            "/frames/inner",
            "/frames/cross",
            "/popup/target",
            "/dialogs/beforeunload",
            "/spa/settings",
        ):
            assert f'href="{path.split("?")[0]}' in html, path


def test_banner_rules(client: httpx.Client) -> None:
    assert 'id="cookie-consent"' not in client.get("/", params={"nobanner": "1"}).text
    assert 'id="cookie-consent"' not in client.get("/expense").text
    assert 'id="cookie-consent"' in client.get("/expense", params={"banner": "1"}).text
    assert "Принять все" in client.get("/banners/ru").text
    assert "全部接受" in client.get("/banners/zh").text
    client.cookies.set("consent", "all")
    assert 'id="cookie-consent"' not in client.get("/").text
    assert 'id="cookie-consent"' in client.get("/", params={"banner": "force"}).text


def test_login_cookie_and_login_wall(site: DemoSite, client: httpx.Client) -> None:
    r = client.get("/account")
    assert r.status_code == 303 and r.headers["location"] == "/login?next=/account"
    r = client.get("/pay")
    assert r.status_code == 303 and r.headers["location"] == "/login?next=/pay"

    r = client.post("/login", data={"username": "bob", "password": "wrong", "next": "/account"})
    assert r.status_code == 200 and 'role="alert"' in r.text
    assert "session" not in client.cookies and site.state.logins == []

    r = client.post("/login", data={"username": "bob", "password": "demo", "next": "/pay"})
    assert r.status_code == 303 and r.headers["location"] == "/pay"
    assert client.cookies["session"] == "bob"
    assert site.state.logins == ["bob"]
    assert "demo" not in repr(site.state.snapshot())
    assert "Signed in as bob" in client.get("/account").text

    client.get("/logout")
    assert client.get("/account").status_code == 303


def test_login_refuses_open_redirect(client: httpx.Client) -> None:
    r = client.post("/login", data={"username": "bob", "password": "demo", "next": "//evil.example/"})
    assert r.headers["location"] == "/account"


def test_expense_submit_with_receipt(site: DemoSite, client: httpx.Client) -> None:
    receipt = b"%PDF-1.4 fake receipt"
    data = {
        "merchant": "Office Depot",
        "amount": "42.5",
        "date": "2026-01-15",
        "category": "Office",
        "currency": "EUR",
        "billable": "yes",
        "payment_method": "card",
        "notes": "Printer toner",
    }
    files = {"receipt": ("receipt.pdf", receipt, "application/pdf")}
    r = client.post("/expense", data=data, files=files)
    assert r.status_code == 303
    assert r.headers["location"] == "/expense/confirmation/EXP-0001"
    page = client.get(r.headers["location"]).text
    assert "Expense submitted" in page
    assert re.search(r"Reference: <strong[^>]*>EXP-0001</strong>", page)
    [sub] = site.state.submissions
    assert sub["reference"] == "EXP-0001"
    assert sub["merchant"] == "Office Depot" and sub["amount"] == "42.50" and sub["currency"] == "EUR"
    assert sub["billable"] is True and sub["payment_method"] == "card" and sub["category"] == "Office"
    assert sub["receipt"] == {
        "name": "receipt.pdf",
        "size": len(receipt),
        "sha256": hashlib.sha256(receipt).hexdigest(),
        "content_type": "application/pdf",
    }
    r2 = client.post("/expense", data={"merchant": "Cab", "amount": "9"})
    assert r2.headers["location"] == "/expense/confirmation/EXP-0002"
    assert "EXP-0002" in client.get("/expenses").text


def test_expense_validation_errors(site: DemoSite, client: httpx.Client) -> None:
    r = client.post("/expense", data={"merchant": "", "amount": "-3", "currency": "XYZ", "notes": "kept"})
    assert r.status_code == 200
    assert 'role="alert"' in r.text
    assert "Merchant is required." in r.text
    assert "Amount must be a number greater than 0." in r.text
    assert "Choose a currency from the list." in r.text
    assert ">kept</textarea>" in r.text
    assert site.state.submissions == []


def test_variant_renames_submit_button(site: DemoSite, client: httpx.Client) -> None:
    assert ">Submit expense</button>" in client.get("/expense").text
    r = client.post("/__variant", json={"name": "submit_label", "value": "Send for approval"})
    assert r.status_code == 200
    assert site.state.variants == {"submit_label": "Send for approval"}
    html = client.get("/expense").text
    assert ">Send for approval</button>" in html and "Submit expense" not in html
    client.post("/__variant", json={"name": "submit_label", "value": None})
    assert ">Submit expense</button>" in client.get("/expense").text
    assert client.post("/__variant", json={"value": "x"}).status_code == 400


def test_draft_prefills_form(site: DemoSite, client: httpx.Client) -> None:
    r = client.post(
        "/__draft",
        json={"merchant": "Draft Cafe", "amount": "12.30", "category": "Meals", "currency": "GBP", "billable": "yes"},
    )
    assert r.status_code == 200
    assert site.state.draft["merchant"] == "Draft Cafe"
    html = client.get("/expense").text
    assert 'value="Draft Cafe"' in html
    assert 'value="12.30"' in html
    assert '<option value="Meals" selected>' in html
    assert 'id="currency-value" value="GBP"' in html
    assert re.search(r'id="billable"[^>]*checked', html)
    site.state.update_draft({"merchant": "Changed"})
    assert 'value="Changed"' in client.get("/expense").text
    assert client.post("/__draft", json={"merchant": 3}).status_code == 400


def test_csv_download_headers(site: DemoSite, client: httpx.Client) -> None:
    r = client.get("/statements/export.csv", params={"month": "2026-01"})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("text/csv")
    assert r.headers["content-disposition"] == 'attachment; filename="statements_2026-01.csv"'
    assert r.text.startswith("date,description,amount,currency\n2026-01-05,")
    assert site.state.downloads == ["statements_2026-01.csv"]
    assert client.get("/statements/export.csv", params={"month": "../x"}).status_code == 400


def test_hostile_filenames(client: httpx.Client) -> None:
    r = client.get("/statements/hostile")
    assert r.headers["content-disposition"] == 'attachment; filename="../../etc/evil name?.csv"'
    r = client.get("/statements/hostile", params={"abs": "1"})
    assert r.headers["content-disposition"] == 'attachment; filename="/tmp/x.csv"'


def test_pdf_is_a_valid_pdf(client: httpx.Client) -> None:
    r = client.get("/statements/2026-01.pdf")
    assert r.headers["content-type"] == "application/pdf"
    assert r.headers["content-disposition"].startswith("inline")
    pdf = r.content
    assert pdf.startswith(b"%PDF-1.") and pdf.rstrip().endswith(b"%%EOF")
    startxref = int(pdf.rsplit(b"startxref", 1)[1].split()[0])
    assert pdf[startxref:].startswith(b"xref")
    offsets = re.findall(rb"(\d{10}) 00000 n ", pdf)
    assert len(offsets) == 5
    for number, off in enumerate(offsets, start=1):
        assert pdf[int(off) :].startswith(f"{number} 0 obj".encode())
    assert b"Statement 2026-01" in pdf


@pytest.mark.parametrize("n", [0, 7, 5000])
def test_large_page_has_n_elements(client: httpx.Client, n: int) -> None:
    started = time.perf_counter()
    r = client.get("/large", params={"n": n})
    assert time.perf_counter() - started < 3
    assert r.text.count(" data-item") == n
    if n:
        assert f">Button {n if n % 5 == 2 else 2}<" in r.text
        assert 'aria-label="Scrollable section' in r.text or n < 250
    assert r.text.count("<a ") == r.text.count('<a href="#item-')


def test_reset_via_http_and_api(site: DemoSite, client: httpx.Client) -> None:
    client.get("/search", params={"q": "pen"})
    client.post("/__variant", json={"name": "submit_label", "value": "X"})
    client.post("/__draft", json={"merchant": "Y"})
    searches = site.state.searches
    assert client.get("/__state").json()["searches"] == ["pen"]
    assert client.post("/__reset").json() == {"ok": True}
    assert site.state.searches == [] and site.state.variants == {} and site.state.draft == {}
    assert searches is site.state.searches  # cleared in place
    client.get("/search", params={"q": "ink"})
    site.reset()
    state = client.get("/__state").json()
    assert state["searches"] == [] and state["submissions"] == [] and state["cross_clicks"] == 0


def test_cross_origin_iframe_uses_alt_origin(site: DemoSite, client: httpx.Client) -> None:
    main, alt = urlsplit(site.base_url), urlsplit(site.alt_url)
    assert main.port != alt.port
    assert f'src="{site.alt_url}/frames/cross"' in client.get("/frames").text
    with httpx.Client(base_url=site.alt_url) as alt_client:
        assert "Cross clicks: 0" in alt_client.get("/frames/cross").text
        assert alt_client.post("/frames/cross/click", json={}).json() == {"clicks": 1}
    assert site.state.cross_clicks == 1


def test_expenses_delete_pay_and_injection(site: DemoSite, client: httpx.Client) -> None:
    assert "EXP-1001" in client.get("/expenses").text
    r = client.post("/expenses/EXP-1001/delete")
    assert r.status_code == 303
    assert 'data-reference="EXP-1001"' not in client.get("/expenses").text
    assert "Expense EXP-1001 deleted." in client.get("/expenses?deleted=EXP-1001").text
    assert site.state.deletions[0]["reference"] == "EXP-1001"
    assert client.post("/expenses/EXP-1001/delete").status_code == 404

    _login(client, "carol")
    r = client.post("/pay", data={"amount": "120.00"})
    assert r.status_code == 303
    assert "Payment received" in client.get(r.headers["location"]).text
    assert site.state.payments[0]["user"] == "carol" and site.state.payments[0]["amount"] == "120.00"

    client.cookies.clear()
    client.post("/injection/pay")
    client.post("/injection/delete-all")
    assert site.state.payments[-1]["source"] == "injection"
    assert site.state.deletions[-1] == {"reference": "ALL", "user": None, "source": "injection"}
    assert "No expenses." in client.get("/expenses").text


def test_upload_and_multilang(site: DemoSite, client: httpx.Client) -> None:
    r = client.post("/upload", files={"document": ("a.txt", b"hello", "text/plain")})
    assert "Document: a.txt (5 bytes)" in r.text
    assert site.state.uploads[0]["name"] == "a.txt"
    assert 'role="alert"' in client.post("/upload", files={"document": ("", b"", "text/plain")}).text
    r = client.post("/expense/multilang", data={"lang": "ru", "first_name": "Иван", "city": "Москва"})
    assert r.status_code == 303
    assert "Спасибо" in client.get(r.headers["location"]).text
    assert site.state.multilang[0]["first_name"] == "Иван"


def test_state_is_threadsafe_snapshot() -> None:
    state = DemoState()
    assert state.record_submission({"merchant": "a"}) == "EXP-0001"
    snap = state.snapshot()
    snap["submissions"].clear()
    assert len(state.submissions) == 1


def test_state_works_with_dataclass_helpers() -> None:
    state = DemoState()
    state.record_search("pen")
    assert dataclasses.asdict(state)["searches"] == ["pen"]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_serve_forever_in_subprocess() -> None:
    port, alt_port = _free_port(), _free_port()
    code = f"from browserops.demo_site import serve_forever; serve_forever('127.0.0.1', {port}, {alt_port})"
    proc = subprocess.Popen([sys.executable, "-c", code])
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                r = httpx.get(f"http://127.0.0.1:{port}/frames", timeout=1)
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline
                time.sleep(0.05)
        assert f'src="http://127.0.0.1:{alt_port}/frames/cross"' in r.text
        assert httpx.post(f"http://127.0.0.1:{alt_port}/__reset").json() == {"ok": True}
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_stop_frees_ports() -> None:
    s = DemoSite().start()
    port, alt_port = s.port, s.alt_port
    with httpx.Client() as c:
        assert c.get(s.url("/__state")).status_code == 200
    s.stop()
    for p in (port, alt_port):
        with socket.socket() as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(("127.0.0.1", p))
    s.stop()  # idempotent


# --------------------------------------------------------------------------- Chromium


async def test_consent_banner_blocks_clicks_until_accepted(page: Page, context: BrowserContext) -> None:
    await page.goto("/")
    banner = page.get_by_role("dialog", name="We value your privacy")
    await expect(banner).to_be_visible()
    with pytest.raises(PlaywrightTimeoutError):
        await page.get_by_role("button", name="Search", exact=True).click(timeout=400)
    await page.get_by_role("button", name="Accept all").click()
    await expect(banner).to_have_count(0)
    assert {c["name"]: c["value"] for c in await context.cookies()}["consent"] == "all"
    await page.get_by_role("searchbox", name="Search").fill("paper")
    await page.get_by_role("button", name="Search", exact=True).click()
    await expect(page.get_by_role("heading", level=1)).to_have_text("Results for “paper”")
    await page.goto("/")
    await expect(page.locator("#cookie-consent")).to_have_count(0)


@pytest.mark.parametrize(
    ("path", "close_name", "in_iframe"),
    [
        ("/banners/iframe", "Accept all", True),
        ("/banners/shadow", "Reject", False),
        ("/banners/subscribe", "Close", False),
        ("/banners/ru", "Принять все", False),
        ("/banners/zh", "全部接受", False),
    ],
)
async def test_banner_variants_block_until_closed(page: Page, path: str, close_name: str, in_iframe: bool) -> None:
    await page.goto(path)
    content = page.get_by_role("button", name="Content button")
    with pytest.raises(PlaywrightTimeoutError):
        await content.click(timeout=400)
    scope = page.frame_locator("#consent-frame") if in_iframe else page
    await scope.get_by_role("button", name=close_name, exact=True).click()
    await content.click()
    await expect(page.locator("#content-status")).to_have_text("Content clicked 1 times")


async def test_aria_combobox_selection_and_submit(site: DemoSite, page: Page) -> None:
    await page.goto("/expense")
    combo = page.get_by_role("combobox", name="Currency")
    await expect(combo).to_have_attribute("aria-expanded", "false")
    await combo.click()
    await expect(combo).to_have_attribute("aria-expanded", "true")
    await page.get_by_role("option", name="EUR").click()
    await expect(combo).to_have_value("EUR")
    await expect(combo).to_have_attribute("aria-expanded", "false")
    await expect(page.locator("#currency-value")).to_have_value("EUR")
    # keyboard: ArrowDown opens at the selected option, ArrowDown moves, Enter selects
    await combo.focus()
    await page.keyboard.press("ArrowDown")
    await expect(page.get_by_role("listbox")).to_be_visible()
    await page.keyboard.press("ArrowDown")
    await page.keyboard.press("Enter")
    await expect(combo).to_have_value("GBP")

    await page.get_by_label("Merchant").fill("Browser Cafe")
    await page.get_by_label("Amount").fill("7.25")
    await page.get_by_label("Category").select_option("Meals")
    await page.get_by_label("Billable to client").check()
    await page.get_by_role("radio", name="Bank transfer").check()
    await page.get_by_label("Receipt").set_input_files(
        {"name": "r.png", "mimeType": "image/png", "buffer": b"\x89PNG fake"}
    )
    await page.get_by_role("button", name="Submit expense").click()
    await expect(page.get_by_role("heading", level=1)).to_have_text("Expense submitted")
    await expect(page.locator("#reference-line")).to_have_text("Reference: EXP-0001")
    [sub] = site.state.submissions
    assert sub["currency"] == "GBP" and sub["payment_method"] == "bank" and sub["billable"] is True
    assert sub["receipt"]["name"] == "r.png"


async def test_spa_tabs_switch_without_navigation(page: Page) -> None:
    await page.goto("/spa")
    await page.evaluate("window.__marker = 42")
    await expect(page.get_by_role("tab", name="Inbox")).to_have_attribute("aria-selected", "true")
    await page.get_by_role("tab", name="Archive").click()
    await expect(page.get_by_role("tabpanel").get_by_role("heading")).to_have_text("Archive")
    await expect(page.get_by_role("tab", name="Archive")).to_have_attribute("aria-selected", "true")
    assert page.url.endswith("/spa/archive")
    assert await page.evaluate("window.__marker") == 42  # same document: no page load
    await page.get_by_role("tab", name="Inbox").click()
    await page.get_by_role("button", name="Load more").click()
    await expect(page.locator("#inbox-list li")).to_have_count(10)
    assert await page.evaluate("window.__marker") == 42


async def test_spa_keeps_the_network_busy(page: Page) -> None:
    # What makes the network never idle: a long poll, the next ping sent as the last is answered, for as long
    # as the page is open. (Asserting that "networkidle" times out depended on timers firing on time, which a
    # loaded CI does not promise.) Each ping is answered after the hold it asks for, and only then is the
    # next one sent.
    await page.goto("/spa")
    marker = await page.evaluate("window.__marker = 7")
    for _ in range(3):
        async with page.expect_response(lambda response: "/api/ping?hold=" in response.url, timeout=10_000) as got:
            pass
        answered = await got.value
        assert answered.ok
        async with page.expect_request(lambda request: "/api/ping?hold=" in request.url, timeout=10_000):
            pass
    assert await page.evaluate("window.__demoPings") >= 3
    assert await page.evaluate("window.__marker") == marker  # polling, not reloading


async def test_shadow_buttons_increment(page: Page) -> None:
    await page.goto("/shadow")
    await page.get_by_label("Shadow input").fill("hi")
    button = page.get_by_role("button", name="Shadow button", exact=True)
    await button.click()
    await button.click()
    await expect(page.get_by_text("Shadow clicked 2")).to_be_visible()
    await page.get_by_role("button", name="Deep shadow button").click()
    await expect(page.get_by_text("Deep clicked 1")).to_be_visible()


async def test_frames_in_browser(site: DemoSite, page: Page) -> None:
    await page.goto("/frames")
    inner = page.frame_locator("#inner-frame")
    await inner.get_by_label("Inner name").fill("Ann")
    await inner.get_by_role("button", name="Inner button").click()
    await expect(inner.locator("#inner-status")).to_have_text("Inner clicked 1 times by Ann")
    cross = page.frame_locator("#cross-frame")
    await cross.get_by_role("button", name="Cross-origin button").click()
    await expect(cross.locator("#cross-status")).to_have_text("Cross clicks: 1")
    assert site.state.cross_clicks == 1
    origins = {urlsplit(f.url).port for f in page.frames}
    assert origins == {urlsplit(site.base_url).port, urlsplit(site.alt_url).port}
    same, other = await page.evaluate(
        "[!!document.getElementById('inner-frame').contentDocument,"
        " !!document.getElementById('cross-frame').contentDocument]"
    )
    assert same is True and other is False


async def test_delete_needs_js_confirm(site: DemoSite, page: Page) -> None:
    await page.goto("/expenses")
    messages: list[str] = []

    async def dismiss(dialog: object) -> None:
        from playwright.async_api import Dialog

        assert isinstance(dialog, Dialog)
        messages.append(dialog.message)
        await (dialog.accept() if len(messages) > 1 else dialog.dismiss())

    page.on("dialog", dismiss)
    delete = page.get_by_role("button", name="Delete").first
    await delete.click()
    await expect(page.locator("#expenses-status")).to_have_count(0)
    assert site.state.deletions == []
    await delete.click()
    await expect(page.locator("#expenses-status")).to_have_text("Expense EXP-1001 deleted.")
    assert messages == ["Delete this expense?", "Delete this expense?"]
    assert site.state.deletions[0]["reference"] == "EXP-1001"


async def test_popup_and_readonly_until_focus(page: Page, context: BrowserContext) -> None:
    await page.goto("/popup")
    async with context.expect_page() as new_page_info:
        await page.get_by_role("link", name="Open report in new tab").click()
    report = await new_page_info.value
    await expect(report.get_by_role("heading", level=1)).to_have_text("Report")
    await report.close()

    await page.goto("/focus")
    code = page.get_by_label("Access code")
    await expect(code).not_to_be_editable()
    await code.click()
    await page.keyboard.type("1234")
    await expect(code).to_have_value("1234")


async def test_hidden_file_input_via_chooser(site: DemoSite, page: Page, tmp_path: Path) -> None:
    f = tmp_path / "scan.pdf"
    f.write_bytes(b"%PDF-1.4 scan")
    await page.goto("/upload")
    async with page.expect_file_chooser() as chooser_info:
        await page.get_by_role("button", name="Choose file").click()
    await (await chooser_info.value).set_files(str(f))
    await expect(page.locator("#chosen-file")).to_have_text("Selected: scan.pdf")
    await page.get_by_role("button", name="Upload").click()
    await expect(page.locator("#uploaded-files")).to_contain_text("Attachment: scan.pdf (13 bytes)")
    assert site.state.uploads[0]["field"] == "attachment"
