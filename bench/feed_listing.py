"""Benchmark: what an agent reads of a feed of plain ``div`` posts — browserops' whole listing against
``@playwright/mcp``'s snapshot — on MiniWoB++'s own social-media tasks (the ``miniwob`` package from PyPI, a test
dependency; its HTML served unchanged on loopback), issue 34 item 4's "the whole-listing character ratio stays
≤ 0.2× the peer's".

Both sides see the same episodes: each is seeded and started as MiniWoB's own environment does
(``Math.seedrandom(seed)`` then ``core.startEpisodeReal()``), by this harness; the utterances the two pages show
are compared to prove it. browserops cannot be handed JavaScript (no tool takes it), so its side runs in this
process through the tool registry (the BARE profile) on a browser of its own, the harness seeding the page through
Playwright; what is counted is the text its MCP door would send for each call (``orjson`` of the wire result, as
``browserops/mcp_server/wire.py`` sends it). The peer is an ``@playwright/mcp`` server process reached by a real
MCP client (:mod:`bench.peer`); it is seeded through its own ``browser_evaluate`` and read with
``browser_snapshot``; what is counted is the snapshot's text.

Per task and episode: browserops' default listing (the first call), its whole listing (paged at the maximum
limit until every item is listed; its characters summed) and the peer's snapshot, characters only (times are
``bench/real_pages.py``'s). The ratios: whole / peer per episode, and summed over a task's episodes. Prints JSON;
``--out`` writes it too.

``--saved-pages``: instead, the whole listing's characters on each saved real page (``tests/realweb/pages``, served
as ``bench/real_pages.py`` serves them; loaded, its network quiet at most 5 s), in this process as above, against
the peer's snapshot characters that ``bench/real_pages.py`` recorded for the same page (``--peer-from``, by
default ``bench/results/real_pages.json``: the snapshot is the peer's and does not change with browserops' code).
Run it from two checkouts at the same time to compare two versions of the listing (``--label`` names each).

    uv run --frozen python bench/feed_listing.py [--episodes 5] [--out bench/results/feed_listing.json]
    uv run --frozen python bench/feed_listing.py --saved-pages [--label NAME] [--out FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import orjson

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.machine import machine_end, machine_start
from bench.peer import PlaywrightMCP
from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.browser.numbering.listing import MAX_LIMIT
from browserops.config import Settings
from browserops.demo_site.zoo_site import ZooSite
from browserops.tools.context import ToolContext
from browserops.tools.runner import BARE, ToolRunner

TASKS = ("social-media", "social-media-all", "social-media-some")
GOAL_RATIO = 0.2  # issue 34 item 4
# Seeds and starts an episode as miniwob/selenium_instance.py begin_task does; the utterance says which one it is.
START = "(seed) => { Math.seedrandom(seed); core.startEpisodeReal(); return core.getUtterance(); }"
READY = "() => !!(window.core && core.cover_div)"  # the page's load handler has shown its START cover


def miniwob_html() -> Path:
    spec = find_spec("miniwob")  # located, not imported (importing registers gymnasium environments)
    if spec is None or not spec.submodule_search_locations:
        raise SystemExit("the miniwob package is not installed: uv sync (it is a dev dependency)")
    return Path(next(iter(spec.submodule_search_locations))) / "html"


async def _call(ctx: ToolContext, name: str, args: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """One tool alone; the result and the characters of the text the MCP door sends for it."""
    wire = (await ToolRunner(ctx, BARE).call(name, args)).to_wire()
    if wire["status"] != "ok":
        raise RuntimeError(f"{name} failed: {wire}")
    return wire, len(orjson.dumps(wire).decode())


async def _whole_listing(ctx: ToolContext) -> tuple[int, int, int]:
    """The whole listing, page by page as an agent reads it: (characters sent, items, items with an ``in``)."""
    whole_chars, offset, with_in = 0, 0, 0
    while True:
        wire, chars = await _call(ctx, "browser_list_interactives", {"limit": MAX_LIMIT, "offset": offset})
        whole_chars += chars
        items = wire["data"]["items"]
        with_in += sum(" | in=" in str(row) for row in items)
        offset += len(items)
        if offset >= int(wire["data"]["total"]) or not items:
            return whole_chars, offset, with_in


async def ours(ctx: ToolContext, url: str, seed: str) -> dict[str, Any]:
    await _call(ctx, "browser_navigate", {"url": url})
    page = ctx.session.page
    await page.wait_for_function(READY)
    utterance = await page.evaluate(START, seed)
    await _call(ctx, "browser_wait", {"network_idle": True})  # the icons are pictures: boxless until loaded
    _, default_chars = await _call(ctx, "browser_list_interactives", {})
    whole_chars, offset, with_in = await _whole_listing(ctx)
    return {"utterance": utterance, "default_chars": default_chars, "whole_chars": whole_chars, "items": offset,
            "items_with_in": with_in}


async def theirs(peer: PlaywrightMCP, url: str, seed: str) -> dict[str, Any]:
    opened = await peer.navigate(url)
    if opened.is_error:
        raise RuntimeError(f"peer navigate failed: {opened.text[:300]}")
    ready = f"async () => {{ while (!({READY})()) {{ await new Promise((r) => setTimeout(r, 20)); }} " \
            f"return ({START})({json.dumps(seed)}); }}"
    started = await peer.call("browser_evaluate", {"function": ready})
    if started.is_error:
        raise RuntimeError(f"peer evaluate failed: {started.text[:300]}")
    return {"utterance_shown": started.text, "peer_chars": len(await peer.snapshot())}


async def run(episodes: int) -> dict[str, Any]:
    out: dict[str, Any] = {"bench": "feed_listing", "episodes": episodes, "goal_whole_vs_peer_chars": GOAL_RATIO,
                           "miniwob": _version("miniwob"), "machine": machine_start(), "tasks": {}}
    with ZooSite(miniwob_html()) as site, tempfile.TemporaryDirectory() as tmp:
        async with BrowserSession(SessionOptions()) as session, PlaywrightMCP() as peer:
            ctx = ToolContext(session=session, settings=Settings(), workspace=Path(tmp))
            for task in TASKS:
                url = site.url(f"miniwob/{task}")
                rows = []
                for episode in range(episodes):
                    seed = f"{task}-{episode}"
                    row = {"seed": seed, **await ours(ctx, url, seed), **await theirs(peer, url, seed)}
                    same = json.dumps(row["utterance"]) in row.pop("utterance_shown")
                    row["same_episode"] = same
                    row["whole_vs_peer_chars"] = round(row["whole_chars"] / max(1, row["peer_chars"]), 3)
                    rows.append(row)
                whole = sum(r["whole_chars"] for r in rows)
                theirs_total = sum(r["peer_chars"] for r in rows)
                out["tasks"][task] = {
                    "episodes": rows, "whole_chars": whole, "peer_chars": theirs_total,
                    "whole_vs_peer_chars": round(whole / max(1, theirs_total), 3),
                    "max_episode_ratio": max(r["whole_vs_peer_chars"] for r in rows),
                    "all_same_episode": all(r["same_episode"] for r in rows),
                }
    whole = sum(t["whole_chars"] for t in out["tasks"].values())
    theirs_total = sum(t["peer_chars"] for t in out["tasks"].values())
    out["whole_vs_peer_chars"] = round(whole / max(1, theirs_total), 3)
    out["goal_met"] = all(t["max_episode_ratio"] <= GOAL_RATIO for t in out["tasks"].values())
    out["machine"] = machine_end(out["machine"])
    return out


async def saved_pages(recorded: dict[str, Any], label: str) -> dict[str, Any]:
    """The whole listing's characters on every saved page, against the peer's recorded snapshot characters
    (``recorded``: bench/real_pages.py's rows by page)."""
    from bench.real_pages import corpus_dir, percentiles
    from browserops.demo_site.real_pages import RealPagesSite

    out: dict[str, Any] = {"bench": "feed_listing --saved-pages", "label": label,
                           "machine": machine_start(), "pages": {}}
    with RealPagesSite(corpus_dir()) as site, tempfile.TemporaryDirectory() as tmp:
        async with BrowserSession(SessionOptions()) as session:
            ctx = ToolContext(session=session, settings=Settings(tool_timeout_ms=120_000), workspace=Path(tmp))
            for name in site.names():
                peer_chars = (recorded.get(name) or {}).get("peer_chars")
                if not peer_chars or recorded[name].get("navigated_away"):
                    continue
                try:
                    await _call(ctx, "browser_navigate", {"url": site.url(name)})
                    await ToolRunner(ctx, BARE).call("browser_wait", {"state": "networkidle", "timeout_ms": 5000})
                    whole, offset, with_in = await _whole_listing(ctx)
                except RuntimeError as exc:
                    out["pages"][name] = {"failed": str(exc)[:200]}
                    continue
                out["pages"][name] = {"whole_chars": whole, "items": offset, "items_with_in": with_in,
                                      "peer_chars": peer_chars, "whole_vs_peer_chars": round(whole / peer_chars, 3)}
    ratios = [r["whole_vs_peer_chars"] for r in out["pages"].values() if "whole_vs_peer_chars" in r]
    out["summary"] = {"whole_vs_peer_chars": percentiles(ratios),
                      "whole_chars": sum(r.get("whole_chars", 0) for r in out["pages"].values()),
                      "items_with_in": sum(r.get("items_with_in", 0) for r in out["pages"].values())}
    out["machine"] = machine_end(out["machine"])
    return out


def _version(package: str) -> str | None:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version(package)
    except PackageNotFoundError:
        return None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=5)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--saved-pages", action="store_true", help="the saved real pages instead (see above)")
    parser.add_argument("--peer-from", type=Path, default=Path(__file__).parent / "results" / "real_pages.json")
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    if args.saved_pages:
        result = asyncio.run(saved_pages(json.loads(args.peer_from.read_text())["pages"], args.label))
        result["peer_from"] = str(args.peer_from)
    else:
        result = asyncio.run(run(args.episodes))
    text = json.dumps(result, indent=2, ensure_ascii=False)
    print(text)
    if args.out:
        args.out.write_text(text + "\n")


if __name__ == "__main__":
    main()
