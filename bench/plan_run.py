"""Benchmark: a 20-step plan through ``run --confirm`` against a raw Playwright script doing the same steps.

The plan (demo site): on ``/expense`` fill merchant, amount, date, category (select), currency (ARIA combobox),
billable (checkbox), payment method (radio), notes (textarea), receipt (upload) and submit; then open
``/expense/multilang`` and fill + send its English form (first/last name, city, email) and fill + send its
Russian one (Имя, Фамилия, Город). 19 browser-act steps and one navigation.

Variants (like is compared with like: the same screenshot method on both sides of each ratio):

- ``browserops``: the run engine in-process (``browserops.plan.run.attempt.run_plan``, what ``browserops run
  --confirm`` calls): the lane, the bundle attempt, re-resolving each target in a fresh listing, acting by
  number, the banner hook, the staleness pre-check of each page, before/after screenshots into the bundle
  (straight from Chromium: ``Page.captureScreenshot``, browserops' default), events (fsynced), summary, manifest
  and verify;
- ``browserops/pw-shots``: the same run with ``fast_screenshots = false`` (evidence screenshots through
  Playwright's ``page.screenshot``);
- ``raw``: a Playwright script with ``get_by_label``/``get_by_role`` locators doing the same steps and waiting
  for the same confirmations, no screenshots;
- ``raw+cdp-shots``: that script saving the screenshots browserops keeps (one before the first step on a page,
  one after every step) the way browserops takes them by default (``document.fonts.ready``, then
  ``Page.captureScreenshot`` png with ``optimizeForSpeed``): the yardstick of ``browserops``;
- ``raw+pw-shots``: the same screenshots through ``page.screenshot``: the yardstick of ``browserops/pw-shots``;
- ``raw+pw-shots/session`` and ``raw+pw-shots+fence``: ``raw+pw-shots`` on browserops' own browser session,
  without and with origin rules (the fence routes every request through Python): the fence's own cost.

Every variant gets a browser of its own for every round (the raw ones a plain ``chromium.launch`` with the
same executable, flags and viewport; the others a ``BrowserSession``), so no route, cookie or HTTP cache of one
variant reaches another. In each fresh browser one untimed warm-up run comes before the timed run, so every
timed run finds the same warm caches. Chromium start-up and ``prepare`` are not timed (the raw script has no
counterpart). Rounds rotate the order; medians are reported. ``goal_met`` is computed from the medians.

    uv run python bench/plan_run.py [--rounds 3] [--out bench/results/plan_run.json]
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import orjson
from playwright.async_api import Page, async_playwright

from browserops.browser.launch.discovery import find_chromium, launch_args, running_as_root
from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.config import Settings
from browserops.contract import ToolResult
from browserops.demo_site import DemoSite
from browserops.origins import OriginRules
from browserops.packs import BUILTIN_DIR
from browserops.plan.model import PlanSource
from browserops.plan.prepare.prepare import PlanRequest, prepare_plan
from browserops.plan.run.attempt import RunOptions, run_plan
from browserops.plan.steps import Step
from browserops.tools.context import ToolContext
from browserops.tools.runner import ToolRunner

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.machine import machine_end, machine_start

GOAL_RATIO = 1.3
RECEIPT = BUILTIN_DIR / "demo_expense" / "example_receipt.png"


def _fill(field: str, role: str, name: str, value: str, action: str = "type") -> dict[str, Any]:
    return {"kind": "fill", "action": action, "field": field, "target": {"role": role, "names": [name]},
            "value": value}


def plan_steps() -> list[Step]:
    raw: list[dict[str, Any]] = [
        _fill("merchant", "textbox", "Merchant", "Northwind Taxi"),
        _fill("amount", "spinbutton", "Amount", "23.40"),
        _fill("date", "textbox", "Date", "2026-01-05"),
        _fill("category", "combobox", "Category", "Travel", "select"),
        _fill("currency", "combobox", "Currency", "EUR", "select"),
        {"kind": "fill", "action": "check", "field": "billable",
         "target": {"role": "checkbox", "names": ["Billable to client"]}, "value": True},
        {"kind": "fill", "action": "check", "field": "payment", "target": {"role": "radio", "names": ["Card"]},
         "value": True, "display": "Card"},
        _fill("notes", "textbox", "Notes", "Airport transfer"),
        {"kind": "fill", "action": "upload", "field": "receipt", "target": {"role": "button", "names": ["Receipt"]},
         "value": str(RECEIPT)},
        {"kind": "submit", "target": {"role": "button", "names": ["Submit expense"]},
         "expect": {"text": ["Expense submitted"], "urlContains": "/expense/confirmation/"}},
        {"kind": "navigate", "url": "/expense/multilang"},
        _fill("first_en", "textbox", "First name", "Ada"),
        _fill("last_en", "textbox", "Last name", "Lovelace"),
        _fill("city_en", "textbox", "City", "London"),
        _fill("email_en", "textbox", "Email", "ada@example.com"),
        {"kind": "submit", "target": {"role": "button", "names": ["Send"]},
         "expect": {"text": ["Thank you, your details were sent."], "urlContains": "sent=en"}},
        _fill("first_ru", "textbox", "Имя", "Ада"),
        _fill("last_ru", "textbox", "Фамилия", "Лавлейс"),
        _fill("city_ru", "textbox", "Город", "Лондон"),
        {"kind": "submit", "target": {"role": "button", "names": ["Отправить"]},
         "expect": {"text": ["Спасибо, данные отправлены."], "urlContains": "sent=ru"}},
    ]
    return [Step.model_validate(r) for r in raw]


class _Shots:
    """The raw script's evidence screenshots: none, Playwright's ``page.screenshot``, or browserops' default way
    (``Page.captureScreenshot`` after ``document.fonts.ready``, as ``browser/page/reading.py`` takes them)."""

    def __init__(self, folder: Path | None, how: str = "none") -> None:
        self.folder = folder
        self.how = how
        self.n = 0
        self._cdp: Any = None

    async def take(self, page: Page) -> None:
        if self.folder is None or self.how == "none":
            return
        self.n += 1
        path = self.folder / f"{self.n:03d}.png"
        if self.how == "pw":
            await page.screenshot(path=str(path))
            return
        if self._cdp is None:
            self._cdp = await page.context.new_cdp_session(page)
        await self._cdp.send("Runtime.evaluate", {"expression": "document.fonts.ready.then(() => 1)",
                                                   "awaitPromise": True, "returnByValue": True})
        shot = await self._cdp.send("Page.captureScreenshot", {"format": "png", "optimizeForSpeed": True})
        await asyncio.to_thread(path.write_bytes, base64.b64decode(shot["data"]))


async def raw_script(page: Page, base: str, shots: _Shots) -> None:
    """The same 20 steps, written the way one would with Playwright's own locators."""
    await page.goto(base + "/expense", wait_until="domcontentloaded")
    await shots.take(page)
    await page.get_by_label("Merchant").fill("Northwind Taxi")
    await shots.take(page)
    await page.get_by_label("Amount").fill("23.40")
    await shots.take(page)
    await page.get_by_label("Date").fill("2026-01-05")
    await shots.take(page)
    await page.get_by_label("Category").select_option("Travel")
    await shots.take(page)
    await page.get_by_role("combobox", name="Currency").click()
    await page.get_by_role("option", name="EUR").click()
    await shots.take(page)
    await page.get_by_label("Billable to client").check()
    await shots.take(page)
    await page.get_by_label("Card").check()
    await shots.take(page)
    await page.get_by_label("Notes").fill("Airport transfer")
    await shots.take(page)
    await page.get_by_label("Receipt").set_input_files(str(RECEIPT))
    await shots.take(page)
    await page.get_by_role("button", name="Submit expense").click()
    await page.get_by_text("Expense submitted").first.wait_for()
    await shots.take(page)
    await page.goto(base + "/expense/multilang", wait_until="domcontentloaded")
    await shots.take(page)
    en = page.locator("section[lang=en]")
    await en.get_by_label("First name").fill("Ada")
    await shots.take(page)
    await en.get_by_label("Last name").fill("Lovelace")
    await shots.take(page)
    await en.get_by_label("City").fill("London")
    await shots.take(page)
    await en.get_by_label("Email").fill("ada@example.com")
    await shots.take(page)
    await en.get_by_role("button", name="Send").click()
    await page.get_by_text("Thank you, your details were sent.").wait_for()
    await shots.take(page)
    await page.get_by_label("Имя").fill("Ада")
    await shots.take(page)
    await page.get_by_label("Фамилия").fill("Лавлейс")
    await shots.take(page)
    await page.get_by_label("Город").fill("Лондон")
    await shots.take(page)
    await page.get_by_role("button", name="Отправить").click()
    await page.get_by_text("Спасибо, данные отправлены.").wait_for()
    await shots.take(page)


def _check_site(site: DemoSite) -> None:
    state = site.state.snapshot()
    assert len(state["submissions"]) == 1 and state["submissions"][0]["currency"] == "EUR", state["submissions"]
    assert [m["lang"] for m in state["multilang"]] == ["en", "ru"], state["multilang"]


VARIANTS = ("browserops", "browserops/pw-shots", "raw", "raw+cdp-shots", "raw+pw-shots", "raw+pw-shots/session",
            "raw+pw-shots+fence")
# One timed run in a fresh browser: returns its milliseconds (the warm-up run before it is not timed).
TimedRun = Callable[[int], Awaitable[float]]


@contextlib.asynccontextmanager
async def _plain_page() -> AsyncIterator[Page]:
    """A plain Playwright browser (no browserops code in it): the same executable, flags and viewport."""
    async with async_playwright() as pw:
        browser = await pw.chromium.launch(executable_path=find_chromium().path, headless=True, args=launch_args(),
                                           chromium_sandbox=not running_as_root())
        try:
            context = await browser.new_context(viewport={"width": 1280, "height": 800}, accept_downloads=True)
            yield await context.new_page()
        finally:
            await browser.close()


async def _raw_round(who: str, site: DemoSite, folder: Path, runs: int) -> list[float]:
    """``runs`` runs of the raw script in a browser of its own (the first is the warm-up)."""
    how = "cdp" if "cdp-shots" in who else "pw" if "pw-shots" in who else "none"
    out: list[float] = []
    async with contextlib.AsyncExitStack() as stack:
        if who.startswith("raw+pw-shots/") or who.endswith("+fence"):
            session = await stack.enter_async_context(BrowserSession(SessionOptions()))
            if who.endswith("+fence"):
                # What ``run`` does: narrow the origin rules to the plan's origins (a route on every request).
                await session.set_origin_rules(OriginRules.of([site.base_url]))
            page = session.page
        else:
            page = await stack.enter_async_context(_plain_page())
        for i in range(runs):
            site.reset()
            await page.context.clear_cookies()
            shots_dir = folder / f"run{i}"
            shots_dir.mkdir(parents=True)
            started = time.perf_counter()
            await raw_script(page, site.base_url, _Shots(shots_dir, how))
            out.append((time.perf_counter() - started) * 1000)
            _check_site(site)
    return out


async def _browserops_round(who: str, site: DemoSite, folder: Path, runs: int,
                            tool_ms: dict[str, list[float]]) -> tuple[list[float], dict[str, list[float]]]:
    """``runs`` prepared-then-run plans in a browser session of its own (the first is the warm-up); also the
    per-tool time of the last run."""
    out: list[float] = []
    last: dict[str, list[float]] = {}
    async with BrowserSession(SessionOptions()) as session:
        for i in range(runs):
            site.reset()
            await session.context.clear_cookies()
            workspace = folder / f"run{i}"
            workspace.mkdir(parents=True)
            settings = Settings(fast_screenshots=who == "browserops")
            ctx = ToolContext(session=session, settings=settings, workspace=workspace)
            request = PlanRequest(title="Bench: 20 steps", start_url=site.base_url + "/expense",
                                  steps=plan_steps(), source=PlanSource(kind="steps", name="bench"))
            prepared = await prepare_plan(ctx, workspace, request)
            before = {k: list(v) for k, v in tool_ms.items()}
            started = time.perf_counter()
            result = await run_plan(ctx, workspace, prepared.plan, prepared.bundle,
                                    RunOptions(confirm=prepared.phrase))
            out.append((time.perf_counter() - started) * 1000)
            if result.error is not None or not (result.verify and result.verify.ok):
                raise RuntimeError(f"the run failed: {result.error}")
            _check_site(site)
            last = {k: [v[0] - before.get(k, [0, 0.0])[0], v[1] - before.get(k, [0, 0.0])[1]]
                    for k, v in tool_ms.items()}
    return out, last


def _count_tool_time(tool_ms: dict[str, list[float]]) -> None:
    real_call = ToolRunner.call

    async def timed_call(runner: ToolRunner, name: str, args: Any = None, **options: Any) -> ToolResult:
        started = time.perf_counter()
        try:
            return await real_call(runner, name, args, **options)
        finally:
            tool_ms[name][0] += 1
            tool_ms[name][1] += (time.perf_counter() - started) * 1000

    ToolRunner.call = timed_call  # type: ignore[method-assign]  # count per tool, for the breakdown only


async def run(rounds: int, warmups: int = 1) -> dict[str, Any]:
    timings: dict[str, list[float]] = {who: [] for who in VARIANTS}
    tool_ms: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    last: dict[str, list[float]] = {}
    _count_tool_time(tool_ms)
    machine = machine_start()
    version = None
    with DemoSite() as site, tempfile.TemporaryDirectory() as tmp:
        for r in range(rounds):
            order = list(VARIANTS[r % len(VARIANTS):] + VARIANTS[:r % len(VARIANTS)])  # rotate
            if r % 2:
                order.reverse()
            for who in order:
                folder = Path(tmp) / f"round{r}-{who.replace('+', '_').replace('/', '_')}"
                if who.startswith("browserops"):
                    runs, tools = await _browserops_round(who, site, folder, warmups + 1, tool_ms)
                    if who == "browserops":
                        last = tools
                else:
                    runs = await _raw_round(who, site, folder, warmups + 1)
                timings[who].append(runs[-1])
                print(f"round {r + 1}/{rounds} {who}: {runs[-1]:.0f} ms", file=sys.stderr, flush=True)
        async with BrowserSession(SessionOptions()) as session:
            version = session.context.browser.version if session.context.browser else None
    return summarise(timings, last, rounds, version, machine_end(machine))


def summarise(timings: dict[str, list[float]], last: dict[str, list[float]], rounds: int, version: str | None,
              machine: dict[str, Any]) -> dict[str, Any]:
    med = {k: round(statistics.median(v), 1) for k, v in timings.items()}
    ratio = med["browserops"] / med["raw+cdp-shots"]
    ratio_pw = med["browserops/pw-shots"] / med["raw+pw-shots"]
    breakdown = {k: {"calls": int(v[0]), "ms": round(v[1], 1)}
                 for k, v in sorted(last.items(), key=lambda kv: -kv[1][1]) if v[0]}
    return {
        "bench": "plan_run", "steps": 20, "rounds": rounds, "browser_version": version, "machine": machine,
        "isolation": "a fresh browser per variant and round (raw: plain chromium.launch; browserops and the fence "
                     "runs: a BrowserSession), one untimed warm-up run in it before the timed run",
        "chromium_startup": "excluded on both sides",
        "median_ms": med,
        "ratio": round(ratio, 3),
        "ratio_means": "browserops (its default, Page.captureScreenshot evidence) / raw+cdp-shots (the same "
                       "screenshots taken the same way)",
        "ratio_with_playwright_screenshots": round(ratio_pw, 3),
        "ratio_with_playwright_screenshots_means": "browserops/pw-shots / raw+pw-shots (page.screenshot both)",
        "ratio_vs_raw_without_screenshots": round(med["browserops"] / med["raw"], 3),
        "origin_fence_cost_ratio": round(med["raw+pw-shots+fence"] / med["raw+pw-shots/session"], 3),
        "origin_fence_cost_means": "raw+pw-shots on a BrowserSession with origin rules / the same without",
        "goal_ratio": GOAL_RATIO,
        "goal_met": ratio <= GOAL_RATIO,
        "goal_met_with_playwright_screenshots": ratio_pw <= GOAL_RATIO,
        "all_ms": {k: [round(x, 1) for x in v] for k, v in timings.items()},
        "browserops_tool_time_last_round": breakdown,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--warmups", type=int, default=1, help="untimed runs in each fresh browser first")
    parser.add_argument("--out", type=Path, default=None, help="also write the JSON to this file")
    args = parser.parse_args()
    report = asyncio.run(run(max(1, args.rounds), max(0, args.warmups)))
    text = orjson.dumps(report, option=orjson.OPT_INDENT_2).decode() + "\n"
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
