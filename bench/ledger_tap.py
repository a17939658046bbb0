"""Benchmark: what the side-effect ledger's DevTools tap (browserops/browser/launch/wire.py) costs a page's requests.

The tap pauses every document, fetch/XHR, beacon and "other" request in the browser and continues it from Python
(an unsafe one twice: to read its answer's status). This times a page making sequential ``fetch`` calls to the demo
site — GETs, then POSTs — in a browserops session (tapped) and, in the same run and the same browser, in a second
context with no tap: the baseline. Prints JSON: per-request milliseconds (median of rounds) and the ratio.

    uv run python bench/ledger_tap.py [--requests 100] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

import orjson
from playwright.async_api import Page

from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.demo_site import DemoSite

LOOP = """async ([url, method, n]) => {
  for (let i = 0; i < n; i++) {
    const r = await fetch(url, {method, headers: {"Content-Type": "application/json"},
                                body: method === "GET" ? undefined : JSON.stringify({title: "t" + i})});
    await r.text();
  }
}"""


async def _per_request_ms(page: Page, url: str, method: str, n: int) -> float:
    started = time.perf_counter()
    await page.evaluate(LOOP, [url, method, n])
    return (time.perf_counter() - started) * 1000 / n


async def main(requests: int, rounds: int) -> dict[str, Any]:
    with DemoSite() as site:
        async with BrowserSession(SessionOptions()) as session:
            tapped = session.page
            await tapped.goto(site.base_url + "/save/plain")
            session.requests.start_tapping()  # as a run does
            await session.requests.tapped()
            assert session.requests.blind is None, session.requests.blind
            assert session.browser is not None
            plain_context = await session.browser.new_context()  # the same browser, no tap: the baseline
            plain = await plain_context.new_page()
            await plain.goto(site.base_url + "/save/plain")
            out: dict[str, Any] = {"requests": requests, "rounds": rounds}
            for method, path in (("GET", "/save/plain"), ("POST", "/save/api")):
                times: dict[str, list[float]] = {"tapped": [], "baseline": []}
                for _ in range(rounds):
                    times["baseline"].append(await _per_request_ms(plain, site.base_url + path, method, requests))
                    times["tapped"].append(await _per_request_ms(tapped, site.base_url + path, method, requests))
                base, tap = statistics.median(times["baseline"]), statistics.median(times["tapped"])
                out[method] = {"baselineMsPerRequest": round(base, 3), "tappedMsPerRequest": round(tap, 3),
                               "ratio": round(tap / base, 2), "addedMsPerRequest": round(tap - base, 3)}
            out["ledgerEntries"] = len(session.requests.entries)
            await plain_context.close()
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    print(orjson.dumps(asyncio.run(main(args.requests, args.rounds)), option=orjson.OPT_INDENT_2).decode())
