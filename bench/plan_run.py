"""Benchmark: a 20-step plan through ``run --confirm`` against a raw Playwright script doing the same steps.

The plan (demo site): on ``/expense`` fill merchant, amount, date, category (select), currency (ARIA combobox),
billable (checkbox), payment method (radio), notes (textarea), receipt (upload) and submit; then open
``/expense/multilang`` and fill + send its English form (first/last name, city, email) and fill + send its
Russian one (Имя, Фамилия, Город). 19 browser-act steps and one navigation.

- ``browserops``: the run engine in-process (``browserops.plan.attempt.run_plan``, what ``browserops run
  --confirm`` calls): the lane, the bundle attempt, re-resolving each target in a fresh listing, acting by
  number through ``browser_overlay_act``/``browser_upload``, the banner hook, the staleness pre-check of each
  page, before/after screenshots into the bundle, events (fsynced), summary, manifest and verify;
- ``browserops/pw-shots``: the same run with ``fast_screenshots = false``, i.e. evidence screenshots through
  Playwright's ``page.screenshot`` like the raw script's, to show how much of the gap the screenshots make;
- ``raw``: a Playwright script with ``get_by_label``/``get_by_role`` locators doing the same steps and waiting
  for the same confirmations; ``raw+shots`` also saves the screenshots browserops keeps (one before the first
  step on a page, one after every step), which is the evidence the two-phase commit owes;
  ``raw+shots+fence`` is that script behind browserops' origin fence (a Python route every request of a run
  passes through, since ``run`` narrows the origin rules to the plan's origins): the fence's own cost.

Chromium start-up is excluded on both sides: one browser is started before any timing and both use it.
``prepare`` is not timed (the raw script has no counterpart). Rounds alternate the order; medians are reported.

    uv run python bench/plan_run.py [--rounds 3]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import orjson

from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.config import Settings
from browserops.contract import ToolResult
from browserops.demo_site import DemoSite
from browserops.origins import OriginRules
from browserops.packs import BUILTIN_DIR
from browserops.plan.attempt import RunOptions, run_plan
from browserops.plan.model import PlanSource
from browserops.plan.prepare import PlanRequest, prepare_plan
from browserops.plan.steps import Step
from browserops.tools.context import ToolContext
from browserops.tools.runner import ToolRunner

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
    def __init__(self, folder: Path | None) -> None:
        self.folder = folder
        self.n = 0

    async def take(self, page: Any) -> None:
        if self.folder is not None:
            self.n += 1
            await page.screenshot(path=str(self.folder / f"{self.n:03d}.png"))


async def raw_script(page: Any, base: str, shots: _Shots) -> None:
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


async def run(rounds: int) -> dict[str, Any]:
    timings: dict[str, list[float]] = {"browserops": [], "browserops/pw-shots": [], "raw": [], "raw+shots": [],
                                       "raw+shots+fence": []}
    tool_ms: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])

    real_call = ToolRunner.call

    async def timed_call(runner: ToolRunner, name: str, args: Any = None, *, raise_refused: bool = False) -> ToolResult:
        started = time.perf_counter()
        try:
            return await real_call(runner, name, args, raise_refused=raise_refused)
        finally:
            tool_ms[name][0] += 1
            tool_ms[name][1] += (time.perf_counter() - started) * 1000

    ToolRunner.call = timed_call  # type: ignore[method-assign]  # count per tool, for the breakdown only
    with DemoSite() as site, tempfile.TemporaryDirectory() as tmp:
        async with BrowserSession(SessionOptions()) as session:
            version = session.context.browser.version if session.context.browser else None
            for r in range(rounds):
                order = ["browserops", "browserops/pw-shots", "raw", "raw+shots", "raw+shots+fence"]
                if r % 2:
                    order.reverse()
                for who in order:
                    site.reset()
                    await session.context.clear_cookies()
                    folder = Path(tmp) / f"round{r}-{who.replace('+', '_').replace('/', '_')}"
                    folder.mkdir()
                    if who.startswith("browserops"):
                        settings = Settings(fast_screenshots=who == "browserops")
                        ctx = ToolContext(session=session, settings=settings, workspace=folder)
                        request = PlanRequest(title="Bench: 20 steps", start_url=site.base_url + "/expense",
                                              steps=plan_steps(), source=PlanSource(kind="steps", name="bench"))
                        prepared = await prepare_plan(ctx, folder, request)
                        before = {k: list(v) for k, v in tool_ms.items()}
                        started = time.perf_counter()
                        result = await run_plan(ctx, folder, prepared.plan, prepared.bundle,
                                                RunOptions(confirm=prepared.phrase))
                        elapsed = (time.perf_counter() - started) * 1000
                        if result.error is not None or not (result.verify and result.verify.ok):
                            raise RuntimeError(f"the run failed: {result.error}")
                        if r == rounds - 1 and who == "browserops":
                            last = {k: [v[0] - before.get(k, [0, 0.0])[0], v[1] - before.get(k, [0, 0.0])[1]]
                                    for k, v in tool_ms.items()}
                    else:
                        # +fence: the raw script behind browserops' origin fence (the route every request of a
                        # run passes through, run narrowing the rules to the plan's origins): what it costs.
                        fenced = who.endswith("+fence")
                        if fenced:
                            await session.set_origin_rules(OriginRules.of([site.base_url]))
                        started = time.perf_counter()
                        await raw_script(session.page, site.base_url,
                                         _Shots(folder if "+shots" in who else None))
                        elapsed = (time.perf_counter() - started) * 1000
                        if fenced:
                            await session.set_origin_rules(OriginRules())
                    _check_site(site)
                    timings[who].append(elapsed)
    med = {k: round(statistics.median(v), 1) for k, v in timings.items()}
    breakdown = {k: {"calls": int(v[0]), "ms": round(v[1], 1)}
                 for k, v in sorted(last.items(), key=lambda kv: -kv[1][1]) if v[0]}
    return {
        "bench": "plan_run", "steps": 20, "rounds": rounds, "browser_version": version,
        "chromium_startup": "excluded on both sides (one browser, started before timing)",
        "browserops_run_ms": med["browserops"], "raw_playwright_ms": med["raw"],
        "raw_playwright_with_screenshots_ms": med["raw+shots"],
        "browserops_with_playwright_screenshots_ms": med["browserops/pw-shots"],
        "ratio": round(med["browserops"] / med["raw+shots"], 2),
        "ratio_with_playwright_screenshots": round(med["browserops/pw-shots"] / med["raw+shots"], 2),
        "ratio_vs_raw_without_screenshots": round(med["browserops"] / med["raw"], 2),
        "raw_playwright_with_screenshots_behind_origin_fence_ms": med["raw+shots+fence"],
        "origin_fence_cost_ratio": round(med["raw+shots+fence"] / med["raw+shots"], 2),
        "goal_ratio": GOAL_RATIO, "goal_met": med["browserops"] / med["raw+shots"] <= GOAL_RATIO,
        "all_ms": {k: [round(x, 1) for x in v] for k, v in timings.items()},
        "browserops_tool_time_last_round": breakdown,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    report = asyncio.run(run(args.rounds))
    sys.stdout.write(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode() + "\n")


if __name__ == "__main__":
    main()
