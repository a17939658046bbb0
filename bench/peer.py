"""Both sides of the side-by-side benchmarks as MCP servers over stdio, driven by the Python MCP client.

:class:`PlaywrightMCP` is the peer (``@playwright/mcp``); :class:`BrowserOpsStdio` is ``browserops mcp`` as a
process of its own, reached exactly the same way (the same client, the same transport), so a timing of one is
a timing of the other.

``@playwright/mcp`` is pinned in ``tests/js/package.json`` (``npm ci --prefix tests/js``). It is started with
the same Chromium browserops finds (``--executable-path``), headless, with an in-memory profile
(``--isolated``), the same viewport as browserops' default, and ``--no-sandbox`` when running as root (as
browserops' own session does). Its browser starts on the first tool call.

    async with PlaywrightMCP() as peer:
        await peer.navigate(url)
        text = await peer.snapshot()          # browser_snapshot's text, refs included
        result = await peer.call("browser_click", {"ref": "e12", "element": "Submit button"})

Each client session lives in one task of its own (anyio requires a task group to be left in the task that
entered it), as in ``browserops/agent/mcp_host.py``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, Self

from mcp.client import Client
from mcp.client.stdio import StdioServerParameters, stdio_client

from browserops.browser.launch.discovery import find_chromium, running_as_root

ROOT = Path(__file__).resolve().parents[1]
PACKAGE_BIN = ROOT / "tests" / "js" / "node_modules" / "@playwright" / "mcp" / "cli.js"
VIEWPORT = (1280, 800)
READ_TIMEOUT_S = 180.0


class PeerUnavailable(RuntimeError):
    """``@playwright/mcp`` or node is not installed; the message says how to install it."""


@dataclass(frozen=True)
class PeerResult:
    """One tool call's answer: its text parts joined, and whether the server flagged it as an error."""

    text: str
    is_error: bool
    structured: dict[str, Any] | None = None  # browserops' tool contract (status, data); the peer sends none


def peer_command(output_dir: Path, *, chromium: str | None = None,
                 extra_args: Sequence[str] = ()) -> StdioServerParameters:
    """The stdio command line for ``@playwright/mcp`` against browserops' Chromium; files it names itself
    go to ``output_dir`` (one per peer, so parallel runs do not collide)."""
    node = shutil.which("node")
    if node is None or not PACKAGE_BIN.is_file():
        raise PeerUnavailable(
            "@playwright/mcp is not installed: run `npm ci --prefix tests/js --no-audit --no-fund` (needs node)."
        )
    executable = chromium or find_chromium().path
    args = [
        str(PACKAGE_BIN),
        "--headless",
        "--isolated",
        f"--executable-path={executable}",
        f"--viewport-size={VIEWPORT[0]}x{VIEWPORT[1]}",
        "--image-responses=omit",
        f"--output-dir={output_dir}",
    ]
    if running_as_root():
        args.append("--no-sandbox")
    args.extend(extra_args)
    return StdioServerParameters(command=node, args=args)


def _text(content: Sequence[Any]) -> str:
    return "\n".join(str(getattr(part, "text", "")) for part in content if getattr(part, "text", None))


def browserops_command(workspace: Path, settings: Mapping[str, str] | None = None) -> StdioServerParameters:
    """``python -m browserops --workspace <workspace> mcp`` with this interpreter; no BROWSEROPS_* settings
    from the caller's environment, so it runs with its defaults (as the peer runs with its own) but for
    ``settings`` (``BROWSEROPS_*`` names: what the benchmark sets on both sides alike, such as timeouts)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("BROWSEROPS_")}
    env.update(settings or {})
    return StdioServerParameters(command=sys.executable, args=["-m", "browserops", "--workspace", str(workspace),
                                                               "mcp"], env=env, cwd=str(ROOT))


class StdioMCP:
    """One MCP server process over stdio and one MCP client session to it."""

    def __init__(self, params_for: Callable[[Path], StdioServerParameters], *, prefix: str,
                 read_timeout_s: float = READ_TIMEOUT_S) -> None:
        self._dir = Path(tempfile.mkdtemp(prefix=prefix))
        self.params = params_for(self._dir)
        self._errlog = (self._dir / "stderr.log").open("w")  # node's warnings, kept out of the benchmark's output
        self.read_timeout_s = read_timeout_s
        self.tool_names: list[str] = []
        self._client: Client | None = None
        self._stop: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        ready: asyncio.Future[Client] = asyncio.get_running_loop().create_future()
        stop = asyncio.Event()
        task = asyncio.create_task(self._connection(ready, stop), name="playwright-mcp-client")
        try:
            client = await ready
            listed = await client.list_tools()
        except BaseException:
            stop.set()
            with contextlib.suppress(BaseException):
                await task
            raise
        self._client, self._stop, self._task = client, stop, task
        self.tool_names = [tool.name for tool in listed.tools]

    async def _connection(self, ready: asyncio.Future[Client], stop: asyncio.Event) -> None:
        try:
            async with Client(stdio_client(self.params, errlog=self._errlog),
                              read_timeout_seconds=self.read_timeout_s) as client:
                ready.set_result(client)
                await stop.wait()
        except Exception as exc:
            if not ready.done():
                ready.set_exception(exc)

    async def close(self) -> None:
        stop, task = self._stop, self._task
        self._client, self._stop, self._task = None, None, None
        if stop is not None:
            stop.set()
        if task is not None:
            with contextlib.suppress(Exception):
                await task
        self._errlog.close()
        shutil.rmtree(self._dir, ignore_errors=True)

    async def __aenter__(self) -> Self:
        await self.start()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.close()

    async def call(self, tool: str, args: Mapping[str, Any] | None = None) -> PeerResult:
        """Call one of the peer's tools; its text answer (snapshot included, when the tool returns one)."""
        if self._client is None:
            raise RuntimeError("the peer is not started")
        result = await self._client.call_tool(tool, dict(args or {}))
        return PeerResult(text=_text(result.content), is_error=bool(result.is_error),
                          structured=dict(result.structured_content) if result.structured_content else None)

    async def navigate(self, url: str) -> PeerResult:
        return await self.call("browser_navigate", {"url": url})

    def log_size(self) -> int:
        """How many bytes the server has written to its stderr so far (a mark for :meth:`log_since`)."""
        path = self._dir / "stderr.log"
        return path.stat().st_size if path.exists() else 0

    def log_since(self, mark: int) -> str:
        """What the server wrote to its stderr after ``mark`` (its log, when it logs there)."""
        path = self._dir / "stderr.log"
        if not path.exists():
            return ""
        with path.open("rb") as f:
            f.seek(mark)
            return f.read().decode("utf-8", "replace")


class BrowserOpsStdio(StdioMCP):
    """``browserops mcp`` over stdio, its workspace a temporary folder of its own."""

    def __init__(self, *, settings: Mapping[str, str] | None = None, read_timeout_s: float = READ_TIMEOUT_S) -> None:
        super().__init__(lambda folder: browserops_command(folder, settings), prefix="browserops-mcp-",
                         read_timeout_s=read_timeout_s)


class PlaywrightMCP(StdioMCP):
    """One ``@playwright/mcp`` server process and one MCP client session to it."""

    def __init__(self, *, chromium: str | None = None, extra_args: Sequence[str] = (),
                 read_timeout_s: float = READ_TIMEOUT_S) -> None:
        super().__init__(lambda folder: peer_command(folder, chromium=chromium, extra_args=extra_args),
                         prefix="playwright-mcp-", read_timeout_s=read_timeout_s)

    async def snapshot(self) -> str:
        """``browser_snapshot``'s text: what an agent using the peer reads to see the page."""
        result = await self.call("browser_snapshot", {})
        if result.is_error:
            raise RuntimeError(f"browser_snapshot failed: {result.text[:300]}")
        return result.text


async def _demo(url: str) -> None:
    async with PlaywrightMCP() as peer:
        print(sorted(peer.tool_names))
        print((await peer.navigate(url)).text[:400])
        print((await peer.snapshot())[:2000])


if __name__ == "__main__":
    asyncio.run(_demo(sys.argv[1] if len(sys.argv) > 1 else "data:text/html,<button>Hello</button>"))
