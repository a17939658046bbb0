"""Widget zoo benchmark: per library, widgets listed correctly and operated correctly, browserops against
``@playwright/mcp`` (the peer, pinned in ``tests/js/package.json``), same pages, same tasks
(:mod:`browserops.demo_site.zoo_tasks`), in one run, both through a real MCP client session.

- browserops: its MCP server (:mod:`browserops.mcp_server`) in this process, reached through an MCP client
  session over memory streams, so the harness can read the widget's state in the same browser; an agent's
  moves: list, find the item by role + name, act on its number (:mod:`tests.realweb.zoo_driver`).
- the peer: ``@playwright/mcp`` over stdio, started against the same Chromium; an agent's moves with its own
  tools: ``browser_snapshot``, find the ref by role + name, ``browser_click`` / ``browser_type`` /
  ``browser_select_option`` / ``browser_press_key`` (after a click to focus: it has no focus tool). Where
  the exact role + name has no ref (a tab whose name sits on the link inside it, an icon with only a name),
  it may act on a ref with that name and any role, as an agent would; that still counts as operated, not
  as listed. The widget's state is read with its ``browser_evaluate`` by the harness.

"Listed" means the element appears with the task's role and accessible name (and, on browserops' side, the
state the task names: the peer's snapshot shows no state for a collapsed or unchecked control); "operated"
means the widget's own state (read through the library's API or the DOM) shows the task done. Prints JSON.

    uv run --frozen python bench/widgets.py [--only PAGE ...] [--out FILE]

The peer is driven by the minimal client below; ``bench/peer.py`` (branch ``realpages``) is the shared one
and replaces it once it is on main.
"""

from __future__ import annotations

import argparse
import asyncio
import re
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.realweb.zoo_driver: the tests' agent moves

from browserops.browser.launch.discovery import find_chromium, running_as_root
from browserops.config import Settings
from browserops.demo_site.zoo_site import MODULES_DIR, ZooSite
from browserops.demo_site.zoo_tasks import TASKS, Step, Task
from browserops.mcp_server import BrowserOpsMCP, build_server
from tests.realweb.zoo_driver import Outcome, run_task_with

PEER_CLI = MODULES_DIR / "@playwright" / "mcp" / "cli.js"
# A snapshot line: "- role "name" [attr]... [ref=e12]" (refs of later pages carry a frame prefix: f2e12).
_REF_LINE = re.compile(r'^\s*- ([a-z]+)(?: "((?:[^"\\]|\\.)*)")?.*?\[ref=([a-z0-9]+)\]')
APPEAR_S = 5.0  # as the browserops side (zoo_driver.APPEAR_S)
OPTION_ROLES = ("option", "menuitem", "listitem", "link", "treeitem", "generic")


def _unquote(name: str | None) -> str:
    return (name or "").replace('\\"', '"').replace("\\\\", "\\")


class Peer:
    """@playwright/mcp through an MCP client session; targets found in its snapshot by role + name."""

    def __init__(self, client: Client) -> None:
        self.client = client

    async def call(self, name: str, args: dict[str, Any]) -> tuple[bool, str]:
        result = await self.client.call_tool(name, args)
        text = "\n".join(str(getattr(c, "text", "")) for c in result.content)
        return not result.is_error and "### Error" not in text, text

    async def refs(self) -> list[tuple[str, str, str]]:
        """(role, name, ref) of every line of the snapshot that has a ref."""
        _, text = await self.call("browser_snapshot", {})
        return [(m[1], _unquote(m[2]), m[3]) for line in text.splitlines() if (m := _REF_LINE.match(line))]

    async def find(self, role: str | None, name: str, timeout_s: float = APPEAR_S,
                   roles: tuple[str, ...] = ()) -> tuple[str, str] | None:
        """(ref, role) of the element with this role (any role when None, or one of ``roles``) and name."""
        deadline = time.monotonic() + timeout_s
        while True:
            for r, n, ref in await self.refs():
                role_ok = r == role if role is not None else (not roles or r in roles)
                if role_ok and (n == name if role is not None else n.casefold() == name.casefold()):
                    return ref, r
            if time.monotonic() >= deadline:
                return None
            await asyncio.sleep(0.2)

    async def target(self, step: Step) -> tuple[str, str] | None:
        found = await self.find(step.role, step.name)
        return found or await self.find(None, step.name, timeout_s=0.0)  # the name on another role's ref

    async def page_true(self, expression: str, timeout_s: float = 3.0) -> bool:
        deadline = time.monotonic() + timeout_s
        script = f"() => {{ try {{ return !!({expression}); }} catch (e) {{ return false; }} }}"
        while True:
            good, text = await self.call("browser_evaluate", {"function": script})
            if good and re.search(r"^true$", text, re.M):
                return True
            if time.monotonic() >= deadline:
                return False
            await asyncio.sleep(0.1)

    async def step(self, step: Step) -> bool:
        found = await self.target(step)
        if found is None:
            return False
        ref, role = found
        element = f"{role} {step.name}"
        if step.action == "click":
            return (await self.call("browser_click", {"element": element, "target": ref}))[0]
        if step.action == "type":
            return (await self.call("browser_type", {"element": element, "target": ref, "text": step.text or ""}))[0]
        if step.action == "press":
            good, _ = await self.call("browser_click", {"element": element, "target": ref})
            return good and (await self.call("browser_press_key", {"key": step.key or ""}))[0]
        wanted = list(step.options or (step.text or "",))
        good, _ = await self.call("browser_select_option", {"element": element, "target": ref, "values": wanted})
        if good:
            return True
        # A custom widget: open it (or type into an autocomplete field), then click each option in the snapshot.
        for choice in wanted:
            if role in ("textbox", "searchbox"):
                await self.call("browser_type", {"element": element, "target": ref, "text": choice, "slowly": True})
            else:
                await self.call("browser_click", {"element": element, "target": ref})
            option = await self.find(None, choice, timeout_s=2.0, roles=OPTION_ROLES)
            if option is None or not (await self.call("browser_click", {"element": choice, "target": option[0]}))[0]:
                return False
            ref = (await self.find(role, step.name, timeout_s=1.0) or (ref, role))[0]
        return True

    async def run(self, url: str, task: Task) -> dict[str, bool]:
        await self.call("browser_navigate", {"url": url})
        listed = await self.find(task.role, task.name) is not None
        for step in task.steps:
            if not await self.step(step):
                return {"listed": listed, "operated": False}
        return {"listed": listed, "operated": await self.page_true(task.check)}


async def browserops_side(zoo: ZooSite, tasks: list[Task]) -> dict[str, dict[str, bool]]:
    out: dict[str, dict[str, bool]] = {}
    workspace = Path(tempfile.mkdtemp(prefix="bench-widgets-"))
    app = BrowserOpsMCP(Settings(), workspace)
    try:
        async with Client(build_server(app)) as client:
            async def call(name: str, args: dict[str, Any]) -> dict[str, Any]:
                result = await client.call_tool(name, args)
                return dict(result.structured_content or {})

            def page() -> Any:
                assert app.session is not None, "the server has not started its browser"
                return app.session.page

            for task in tasks:
                outcome: Outcome = await run_task_with(call, page, zoo.url(task.page), task)
                out[task.id] = {"listed": outcome.listed, "operated": outcome.operated}
    finally:
        await app.close()
        shutil.rmtree(workspace, ignore_errors=True)
    return out


async def peer_side(zoo: ZooSite, tasks: list[Task]) -> dict[str, dict[str, bool]]:
    out_dir = Path(tempfile.mkdtemp(prefix="bench-widgets-peer-"))
    args = [str(PEER_CLI), "--headless", "--isolated", f"--executable-path={find_chromium().path}",
            "--viewport-size=1280x800", "--image-responses=omit", f"--output-dir={out_dir}"]
    if running_as_root():
        args.append("--no-sandbox")
    node = shutil.which("node")
    if node is None or not PEER_CLI.is_file():
        raise SystemExit("@playwright/mcp is not installed: npm ci --prefix tests/js --no-audit --no-fund")
    out: dict[str, dict[str, bool]] = {}
    try:
        with (out_dir / "stderr.log").open("w") as errlog:
            async with Client(stdio_client(StdioServerParameters(command=node, args=args), errlog=errlog),
                              read_timeout_seconds=180) as client:
                peer = Peer(client)
                for task in tasks:
                    out[task.id] = await peer.run(zoo.url(task.page), task)
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)
    return out


def summarise(tasks: list[Task], ours: dict[str, dict[str, bool]],
              theirs: dict[str, dict[str, bool]]) -> dict[str, Any]:
    libraries: dict[str, Any] = {}
    for task in tasks:
        lib = libraries.setdefault(task.page, {"widgets": 0, "browserops": {"listed": 0, "operated": 0},
                                               "playwright_mcp": {"listed": 0, "operated": 0}})
        lib["widgets"] += 1
        for side, results in (("browserops", ours), ("playwright_mcp", theirs)):
            for key in ("listed", "operated"):
                lib[side][key] += int(results[task.id][key])
    total = {side: {key: sum(lib[side][key] for lib in libraries.values()) for key in ("listed", "operated")}
             for side in ("browserops", "playwright_mcp")}
    behind = [page for page, lib in libraries.items()
              if lib["browserops"]["operated"] < lib["playwright_mcp"]["operated"]]
    return {"benchmark": "widget zoo", "libraries": libraries, "total": {"widgets": len(tasks), **total},
            "browserops_behind_in": behind,
            "per_widget": {t.id: {"browserops": ours[t.id], "playwright_mcp": theirs[t.id]} for t in tasks}}


async def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="zoo pages to run (default: all)")
    parser.add_argument("--out", type=Path, default=None, help="also write the JSON to this file")
    args = parser.parse_args()
    tasks = [t for t in TASKS if not args.only or t.page in args.only]
    with ZooSite() as zoo:
        ours = await browserops_side(zoo, tasks)
        theirs = await peer_side(zoo, tasks)
    text = orjson.dumps(summarise(tasks, ours, theirs), option=orjson.OPT_INDENT_2).decode() + "\n"
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    sys.stdout.write(text)


if __name__ == "__main__":
    asyncio.run(main())
