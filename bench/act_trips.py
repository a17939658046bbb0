"""Benchmark: browser round trips per tool call in the 20-step ``run --confirm`` of ``bench/plan_run.py``.

Time in a run goes mostly to messages between Python and the browser (each a round trip through Playwright's
driver), so this counts them: for every catalogue tool the run called, how many calls, how many messages to
the browser and which protocol methods, and the time those messages took. It hooks Playwright's client
connection (``Connection.send_message_to_server``, an internal of the Playwright client), so it is a
diagnostic, not a timing benchmark: see ``plan_run.py`` for the ratio against raw Playwright.

    uv run python bench/act_trips.py
"""

from __future__ import annotations

import asyncio
import contextvars
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import orjson
from playwright._impl import connection as pw_connection

from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.config import Settings
from browserops.contract import ToolResult
from browserops.demo_site import DemoSite
from browserops.plan.model import PlanSource
from browserops.plan.prepare.prepare import PlanRequest, prepare_plan
from browserops.plan.run.attempt import RunOptions, run_plan
from browserops.tools.context import ToolContext
from browserops.tools.runner import ToolRunner

sys.path.insert(0, str(Path(__file__).resolve().parent))
from plan_run import plan_steps  # the same plan as the timing benchmark

_tool: contextvars.ContextVar[str] = contextvars.ContextVar("tool", default="(runner)")


class _Counter:
    def __init__(self) -> None:
        self.active = False
        self.trips: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(lambda: [0, 0.0]))
        self.calls: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])

    def install(self) -> None:
        original = pw_connection.Connection.send_message_to_server
        counter = self

        def counting(conn: Any, obj: Any, method: str, params: Any, options: dict[str, Any]) -> Any:
            future = original(conn, obj, method, params, options)
            if counter.active and method != "__waitInfo__":
                key, started = f"{obj._type}.{method}", time.perf_counter()
                slot = counter.trips[_tool.get()][key]

                def done(_: Any) -> None:
                    slot[0] += 1
                    slot[1] += (time.perf_counter() - started) * 1000

                future.add_done_callback(done)
            return future

        pw_connection.Connection.send_message_to_server = counting  # type: ignore[method-assign,assignment]

        real_call = ToolRunner.call

        async def timed_call(runner: ToolRunner, name: str, args: Any = None, *,
                             raise_refused: bool = False) -> ToolResult:
            token, started = _tool.set(name), time.perf_counter()
            try:
                return await real_call(runner, name, args, raise_refused=raise_refused)
            finally:
                _tool.reset(token)
                if counter.active:
                    counter.calls[name][0] += 1
                    counter.calls[name][1] += (time.perf_counter() - started) * 1000

        ToolRunner.call = timed_call  # type: ignore[method-assign]


async def run() -> dict[str, Any]:
    counter = _Counter()
    counter.install()
    with DemoSite() as site, tempfile.TemporaryDirectory() as tmp:
        async with BrowserSession(SessionOptions()) as session:
            for r in range(2):  # the first run warms the browser up; the second is counted
                site.reset()
                await session.context.clear_cookies()
                folder = Path(tmp) / f"round{r}"
                folder.mkdir()
                ctx = ToolContext(session=session, settings=Settings(), workspace=folder)
                request = PlanRequest(title="Bench: 20 steps", start_url=site.base_url + "/expense",
                                      steps=plan_steps(), source=PlanSource(kind="steps", name="bench"))
                prepared = await prepare_plan(ctx, folder, request)
                counter.active = r == 1
                result = await run_plan(ctx, folder, prepared.plan, prepared.bundle,
                                        RunOptions(confirm=prepared.phrase))
                counter.active = False
                if result.error is not None:
                    raise RuntimeError(f"the run failed: {result.error}")
    tools: dict[str, Any] = {}
    for name, (calls, ms) in sorted(counter.calls.items(), key=lambda kv: -kv[1][1]):
        methods = counter.trips.get(name, {})
        trips = int(sum(v[0] for v in methods.values()))
        tools[name] = {
            "calls": int(calls), "ms": round(ms, 1), "round_trips": trips,
            "round_trips_per_call": round(trips / calls, 1) if calls else 0,
            "methods": {m: {"n": int(v[0]), "ms": round(v[1], 1)}
                        for m, v in sorted(methods.items(), key=lambda kv: -kv[1][1])},
        }
    outside = {m: {"n": int(v[0]), "ms": round(v[1], 1)} for m, v in counter.trips.get("(runner)", {}).items()}
    return {"bench": "act_trips", "steps": 20, "tools": tools, "outside_tools": outside}


def main() -> None:
    report = asyncio.run(run())
    sys.stdout.write(orjson.dumps(report, option=orjson.OPT_INDENT_2).decode() + "\n")


if __name__ == "__main__":
    main()
