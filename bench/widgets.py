"""Widget zoo benchmark: per library, widgets listed and tasks done, browserops against ``@playwright/mcp`` (the
peer, pinned in ``tests/js/package.json``), same pages, same tasks (:mod:`browserops.demo_site.zoo_tasks`:
phrased as a person would, "move the Volume slider to 70", "report the post by @cierra"), in one run, both
through a real MCP client session, each side with its own natural means.

- browserops: its MCP server (:mod:`browserops.mcp_server`) in this process, reached through an MCP client
  session over memory streams so the harness can read the widget's state in the same browser; an agent's moves
  (:mod:`tests.realweb.zoo_driver`): list, find the control by what the page shows, act on its number
  (``browser_overlay_act`` click/type/select; ``browser_press`` on the element for keys, which focuses it
  without a click); a repeated control by the listing's ``in``, else a listing scoped to the container.
- the peer: ``@playwright/mcp`` over stdio (:class:`bench.peer.PlaywrightMCP`) against the same Chromium; an
  agent's moves with its own tools: ``browser_snapshot``, find the ref by what the page shows, ``browser_click``
  / ``browser_type`` / ``browser_select_option`` (a custom select: open it, click the option) /
  ``browser_press_key`` (after a click to focus: it has no other way to focus). A slider is set by typing its
  value (Playwright's fill sets a range input), so no click moves it first; one that cannot be typed into is
  clicked, then sent Home and stepped with arrow keys, so where the click put it does not matter. A repeated
  control is the one inside the smallest part of the snapshot tree that holds the container's text.

Both sides match a control the same way (:func:`tests.realweb.zoo_driver.rank`): its role and name, else its
name under another role, else a name holding the label as a word; several equally good matches and nothing to
tell them apart is a failure, never a guess. "Listed" (:func:`tests.realweb.zoo_driver.is_listed`): shown with
its role and name, or for a control the page gives no role, with a name holding what the page shows.
"Operated": the widget's own state (read with the library's API or the DOM, by the harness; the peer's page
through its ``browser_evaluate``) shows the task done. Prints JSON.

    uv run --frozen python bench/widgets.py [--only PAGE ...] [--out bench/results/widgets.json]
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.realweb.zoo_driver: the tests' agent moves

from bench.machine import machine_end, machine_start
from bench.peer import PlaywrightMCP
from browserops.config import Settings
from browserops.demo_site.zoo_site import ZooSite
from browserops.demo_site.zoo_tasks import TASKS, Step, Task
from browserops.mcp_server import BrowserOpsMCP, build_server
from tests.realweb.zoo_driver import Outcome, best, is_listed, norm, rank, run_task_with

# A snapshot line: "- role "name" [attr]... [ref=e12]: text" (refs of frames carry a prefix: f1e12).
_LINE = re.compile(r'^(\s*)- ([a-z/]+)(?: "((?:[^"\\]|\\.)*)")?(.*)$')
_REF = re.compile(r"\[ref=([a-z0-9]+)\]")
APPEAR_S = 5.0  # as the browserops side (zoo_driver.APPEAR_S)
OPTION_ROLES = ("option", "menuitem", "listitem", "link", "treeitem", "generic")


def _unquote(name: str | None) -> str:
    return (name or "").replace('\\"', '"').replace("\\\\", "\\")


class Node:
    """One line of the peer's snapshot: its depth, role, name, ref (if any), the text after its colon
    ("- generic [ref=e55]: JavaScript") and the whole line."""

    def __init__(self, depth: int, role: str, name: str, ref: str | None, text: str, line: str) -> None:
        self.depth, self.role, self.name, self.ref, self.text, self.line = depth, role, name, ref, text, line


def parse(snapshot: str) -> list[Node]:
    nodes = []
    for line in snapshot.splitlines():
        m = _LINE.match(line)
        if m:
            ref = _REF.search(m[4])
            tail = m[4][m[4].rfind("]") + 1:]
            text = _unquote(tail[1:].strip().strip('"')) if tail.startswith(":") else ""
            nodes.append(Node(len(m[1]) // 2, m[2], _unquote(m[3]), ref[1] if ref else None, text, line))
    return nodes


def _container_size(nodes: list[Node], at: int, text: str) -> int:
    """Lines in the smallest part of the tree around node ``at`` (an ancestor's subtree) that holds ``text``,
    or a huge number when none does."""
    want = norm(text)
    depth = nodes[at].depth
    for up in range(at - 1, -1, -1):
        if nodes[up].depth >= depth:
            continue  # not an ancestor: a node of an earlier sibling's subtree
        depth = nodes[up].depth
        end = next((j for j in range(up + 1, len(nodes)) if nodes[j].depth <= depth), len(nodes))
        if any(want in norm(nodes[j].line) for j in range(up, end)):
            return end - up
    return 1 << 30


def _with_ref(nodes: list[Node], at: int) -> tuple[int, Node] | None:
    """Node ``at`` if it has a ref, else its nearest ancestor that has one (what an agent would click for a
    control the snapshot shows without a ref, e.g. a visually hidden input inside its label)."""
    depth = nodes[at].depth + 1
    for up in range(at, -1, -1):
        if nodes[up].depth < depth:
            depth = nodes[up].depth
            if nodes[up].ref:
                return up, nodes[up]
    return None


def pick(nodes: list[Node], step: Step) -> tuple[Node | None, str]:
    """The ref node the step means, as an agent reading the snapshot would pick it, or None and why."""
    matched = best([(rank(n.role, n.name, step), i) for i, n in enumerate(nodes)])
    found = list({f[0]: f for f in (_with_ref(nodes, i) for i in matched) if f is not None}.values())
    why = f"{len(found)} refs match" if found else "no ref matches"
    if step.within and len(found) > 1:
        sizes = [_container_size(nodes, i, step.within) for i, _ in found]
        smallest = min(sizes)
        found = [f for f, size in zip(found, sizes, strict=True) if size == smallest]
        why += f" and {len(found)} of them sit in the smallest part holding {step.within!r}"
    if len(found) == 1:
        return found[0][1], ""
    return None, f"{step.role or 'control'} {step.label!r}: {why}"


class PeerDriver:
    """Zoo tasks through @playwright/mcp's own tools."""

    def __init__(self, peer: PlaywrightMCP) -> None:
        self.peer = peer

    async def call(self, name: str, args: dict[str, Any]) -> tuple[bool, str]:
        result = await self.peer.call(name, args)
        return not result.is_error and "### Error" not in result.text, result.text

    async def nodes(self) -> list[Node]:
        return parse((await self.call("browser_snapshot", {}))[1])

    async def locate(self, step: Step, timeout_s: float = APPEAR_S) -> tuple[Node | None, str]:
        deadline = time.monotonic() + timeout_s
        while True:
            node, why = pick(await self.nodes(), step)
            if node is not None or time.monotonic() >= deadline:
                return node, why
            await asyncio.sleep(0.2)

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

    async def _keys(self, node: Node, step: Step) -> bool:
        """Focus by a click (its only way), then Home and arrow steps: where the click put it does not matter."""
        assert step.value is not None
        element = f"{node.role} {step.label}"
        if not (await self.call("browser_click", {"element": element, "target": node.ref}))[0]:
            return False
        for key in ["Home"] + ["ArrowRight"] * step.value:
            if not (await self.call("browser_press_key", {"key": key}))[0]:
                return False
        return True

    async def _option(self, after: str | None, choice: str) -> Node | None:
        """The option ``choice`` shown after the control (the list it opened; a hidden native select's options
        come before it), else the last one shown."""
        nodes = await self.nodes()
        start = next((i for i, n in enumerate(nodes) if after is not None and n.ref == after), 0)
        matches = [n for n in nodes[start:] if n.ref and n.role in OPTION_ROLES
                   and norm(n.name or n.text) == norm(choice)]
        return matches[0] if matches else None

    async def _choose(self, node: Node, step: Step) -> bool:
        element = f"{node.role} {step.label}"
        good, _ = await self.call("browser_select_option", {"element": element, "target": node.ref,
                                                            "values": list(step.options)})
        if good:
            return True
        # A custom widget: open it (or type into an autocomplete field) unless its list is open already, then
        # click each option in the snapshot.
        for choice in step.options:
            option = await self._option(node.ref, choice)
            if option is None:
                if node.role in ("textbox", "searchbox"):
                    await self.call("browser_type", {"element": element, "target": node.ref, "text": choice,
                                                     "slowly": True})
                else:
                    await self.call("browser_click", {"element": element, "target": node.ref})
                deadline = time.monotonic() + 2.0
                while option is None and time.monotonic() < deadline:
                    option = await self._option(node.ref, choice)
            if option is None or not (await self.call("browser_click", {"element": choice, "target": option.ref}))[0]:
                return False
            again, _ = await self.locate(step, timeout_s=1.0)
            node = again or node
        return True

    async def step(self, step: Step) -> tuple[bool, str]:
        node, why = await self.locate(step)
        if node is None:
            return False, why
        element = f"{node.role} {step.label}"
        if step.action == "click":
            return await self.call("browser_click", {"element": element, "target": node.ref})
        if step.action == "type":
            return await self.call("browser_type", {"element": element, "target": node.ref, "text": step.text or ""})
        if step.action == "press":
            good, text = await self.call("browser_click", {"element": element, "target": node.ref})
            return (await self.call("browser_press_key", {"key": step.key or ""})) if good else (good, text)
        if step.action == "set":
            if node.role == "slider" and (await self.call("browser_type", {"element": element, "target": node.ref,
                                                                           "text": str(step.value)}))[0]:
                return True, ""
            return await self._keys(node, step), ""
        return await self._choose(node, step), ""

    async def run(self, url: str, task: Task) -> dict[str, Any]:
        await self.call("browser_navigate", {"url": url})
        deadline = time.monotonic() + APPEAR_S
        listed = False
        while not listed:
            listed = any(is_listed(n.role, n.name, task.target) for n in await self.nodes())
            if time.monotonic() >= deadline:
                break
            if not listed:
                await asyncio.sleep(0.2)
        for step in task.steps:
            good, why = await self.step(step)
            if not good:
                return {"listed": listed, "operated": False, "error": f"{step.action} {step.label!r}: {why[:300]}"}
        return {"listed": listed, "operated": await self.page_true(task.check)}


def _result(outcome: Outcome) -> dict[str, Any]:
    out: dict[str, Any] = {"listed": outcome.listed, "operated": outcome.operated}
    if outcome.errors:
        out["error"] = "; ".join(outcome.errors)[:300]
    return out


async def browserops_side(zoo: ZooSite, tasks: list[Task]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
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
                out[task.id] = _result(await run_task_with(call, page, zoo.url(task.page), task))
                print(f"browserops {task.id}: {out[task.id]}", file=sys.stderr, flush=True)
    finally:
        await app.close()
        shutil.rmtree(workspace, ignore_errors=True)
    return out


async def peer_side(zoo: ZooSite, tasks: list[Task]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    async with PlaywrightMCP() as peer:
        driver = PeerDriver(peer)
        for task in tasks:
            out[task.id] = await driver.run(zoo.url(task.page), task)
            print(f"peer {task.id}: {out[task.id]}", file=sys.stderr, flush=True)
    return out


def summarise(tasks: list[Task], ours: dict[str, dict[str, Any]],
              theirs: dict[str, dict[str, Any]]) -> dict[str, Any]:
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
    return {"benchmark": "widget zoo", "libraries": libraries, "total": {"tasks": len(tasks), **total},
            "browserops_behind_in": behind,
            "per_task": {t.id: {"goal": t.goal, "browserops": ours[t.id], "playwright_mcp": theirs[t.id]}
                         for t in tasks}}


async def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--only", nargs="*", default=None, help="zoo pages to run (default: all)")
    parser.add_argument("--out", type=Path, default=None, help="also write the JSON to this file")
    args = parser.parse_args()
    tasks = [t for t in TASKS if not args.only or t.page in args.only]
    machine = machine_start()
    with ZooSite() as zoo:
        ours = await browserops_side(zoo, tasks)
        theirs = await peer_side(zoo, tasks)
    report = {"machine": machine_end(machine), **summarise(tasks, ours, theirs)}
    text = orjson.dumps(report, option=orjson.OPT_INDENT_2).decode() + "\n"
    if args.out is not None:
        args.out.write_text(text, encoding="utf-8")
    sys.stdout.write(text)


if __name__ == "__main__":
    asyncio.run(main())
