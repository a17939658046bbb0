"""Benchmark: numbering + overlay (what an agent does to see a page) against Playwright's AI snapshot.

On the demo site's ``/large?n=1000`` and ``/large?n=5000`` (n interactive elements) it measures, in one run
and one browser:

- ``browserops``: ``browser_list_interactives`` (default limit) + ``browser_overlay_show``, called through
  the tool registry like every front door does; characters = the two JSON results an LLM would receive;
- ``browserops_whole``: the whole listing, paged (``limit=500``, ``offset=…`` until every item is listed);
  characters = all those JSON results. This is the honest comparison with the snapshot, which describes the
  whole page: the default listing shows only its first items (and says how many more there are);
- ``baseline``: ``page.aria_snapshot(mode="ai")``; characters = the snapshot text.

Each is timed on a freshly loaded page ("cold": the first look after a navigation, what an agent does
most) and once more on the same page ("warm"); medians over ``--runs`` rounds. Prints JSON; the results file
(``--out bench/results/observe.json``) is the record, with the machine's load during the run.

    uv run python bench/observe.py [--runs 3] [--sizes 1000,5000] [--out FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.machine import machine_end, machine_start
from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.browser.numbering.listing import MAX_LIMIT
from browserops.config import Settings
from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from browserops.tools.runner import BARE, ToolRunner


async def call_tool(name: str, ctx: ToolContext, args: dict[str, Any] | None = None) -> dict[str, Any]:
    """One tool alone (the BARE profile: no hooks), as the measurement wants it."""
    return (await ToolRunner(ctx, BARE).call(name, args)).to_wire()

GOAL = {"time": 0.5, "chars": 0.3}
CALL_TIMEOUT_MS = 120_000  # one call on either side: a navigation, a snapshot, a page of the listing


async def _ours(ctx: ToolContext) -> tuple[float, int, dict[str, Any]]:
    started = time.perf_counter()
    listed = await call_tool("browser_list_interactives", ctx, {})
    shown = await call_tool("browser_overlay_show", ctx, {})
    elapsed = (time.perf_counter() - started) * 1000
    if listed["status"] != "ok" or shown["status"] != "ok":
        raise RuntimeError(f"tool failed: {listed} {shown}")
    chars = len(orjson.dumps(listed).decode()) + len(orjson.dumps(shown).decode())
    return elapsed, chars, listed["data"]


async def _whole(ctx: ToolContext) -> tuple[float, int]:
    """Every item, page by page of MAX_LIMIT: time and characters summed over the calls."""
    elapsed = 0.0
    chars = 0
    offset = 0
    while True:
        started = time.perf_counter()
        listed = await call_tool("browser_list_interactives", ctx, {"limit": MAX_LIMIT, "offset": offset})
        elapsed += (time.perf_counter() - started) * 1000
        if listed["status"] != "ok":
            raise RuntimeError(f"tool failed: {listed}")
        chars += len(orjson.dumps(listed).decode())
        items = listed["data"]["items"]
        offset += len(items)
        if offset >= int(listed["data"]["total"]) or not items:
            return elapsed, chars


async def _baseline(session: BrowserSession) -> tuple[float, int]:
    started = time.perf_counter()
    snapshot = await session.page.aria_snapshot(mode="ai", timeout=CALL_TIMEOUT_MS)
    return (time.perf_counter() - started) * 1000, len(snapshot)


async def _load(session: BrowserSession, url: str) -> None:
    await session.page.goto(url, wait_until="load", timeout=CALL_TIMEOUT_MS)


def _median(values: list[float]) -> float:
    return round(statistics.median(values), 1)


async def run(sizes: list[int], runs: int) -> dict[str, Any]:
    out: dict[str, Any] = {"bench": "observe", "runs": runs, "goal": GOAL, "call_timeout_ms": CALL_TIMEOUT_MS,
                           "machine": machine_start(), "pages": {}}
    with DemoSite() as site, tempfile.TemporaryDirectory() as tmp:
        async with BrowserSession(SessionOptions()) as session:
            out["browser_version"] = session.context.browser.version if session.context.browser else None
            # The same bound for a tool call as for the snapshot (the default 15 s cap would fail a listing
            # call the snapshot, allowed 120 s, would not).
            ctx = ToolContext(session=session, settings=Settings(tool_timeout_ms=CALL_TIMEOUT_MS),
                              workspace=Path(tmp))
            for n in sizes:
                url = f"{site.base_url}/large?n={n}"
                ours_cold, ours_warm, base_cold, base_warm, whole_cold = [], [], [], [], []
                ours_chars = base_chars = whole_chars = 0
                data: dict[str, Any] = {}
                whole_failed: list[str] = []  # a page of the listing that failed (timed out) fails its round
                for _ in range(runs):
                    await _load(session, url)
                    ms, ours_chars, data = await _ours(ctx)
                    ours_cold.append(ms)
                    ours_warm.append((await _ours(ctx))[0])
                    await _load(session, url)
                    try:
                        ms, whole_chars = await _whole(ctx)
                        whole_cold.append(ms)
                    except RuntimeError as exc:
                        whole_failed.append(str(exc)[:300])
                    await _load(session, url)
                    ms, base_chars = await _baseline(session)
                    base_cold.append(ms)
                    base_warm.append((await _baseline(session))[0])
                page: dict[str, Any] = {
                    "browserops": {
                        "cold_ms": _median(ours_cold),
                        "warm_ms": _median(ours_warm),
                        "chars": ours_chars,
                        "items_shown": len(data.get("items", [])),
                        "total": data.get("total"),
                    },
                    "browserops_whole": {"cold_ms": _median(whole_cold) if whole_cold else None,
                                         "chars": whole_chars, "rounds_failed": whole_failed},
                    "aria_snapshot_ai": {
                        "cold_ms": _median(base_cold),
                        "warm_ms": _median(base_warm),
                        "chars": base_chars,
                    },
                }
                ratio = {
                    "time_cold": round(page["browserops"]["cold_ms"] / page["aria_snapshot_ai"]["cold_ms"], 3),
                    "time_warm": round(page["browserops"]["warm_ms"] / page["aria_snapshot_ai"]["warm_ms"], 3),
                    "chars": round(ours_chars / base_chars, 4),
                    "whole_time_cold": round(_median(whole_cold) / page["aria_snapshot_ai"]["cold_ms"], 3)
                    if whole_cold else None,
                    "whole_chars": round(whole_chars / base_chars, 4) if whole_cold else None,
                }
                page["ratio"] = ratio
                page["goal_met"] = max(ratio["time_cold"], ratio["time_warm"]) <= GOAL["time"] and (
                    ratio["chars"] <= GOAL["chars"]
                )
                out["pages"][str(n)] = page
    out["machine"] = machine_end(out["machine"])
    out["goal_met"] = all(p["goal_met"] for p in out["pages"].values())
    out["note"] = (
        "browserops returns the first page of the numbered listing (default limit) plus the count of the rest; "
        "the ARIA snapshot describes the whole page. browserops_whole lists every item (paged), so "
        "ratio.whole_* compares like with like; goal_met judges the default listing. Both include every frame."
    )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=3, help="rounds per page size (median reported)")
    parser.add_argument("--sizes", default="1000,5000", help="comma-separated n for /large?n=")
    parser.add_argument("--out", type=Path, default=None, help="also write the JSON to this file")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    result = asyncio.run(run(sizes, max(1, args.runs)))
    text = orjson.dumps(result, option=orjson.OPT_INDENT_2).decode() + "\n"
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
