"""Shared pieces of the MCP tests: reading results, finding listed items, killing a server's Chromium."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
from pathlib import Path
from typing import Any

import orjson
from mcp.client import Client
from mcp_types import CallToolResult

from browserops.listing_rows import listing_items
from tests.procs import chromium_processes

# The server's tools beside the catalogue: the agent, and the two phases.
FRONT_DOOR_TOOLS = {"browser_task", "browser_prepare", "browser_run", "browser_evidence"}


def contract(result: CallToolResult) -> dict[str, Any]:
    """The tool contract, read back from the structured content; the text content must say the same."""
    assert result.structured_content is not None
    text = result.content[0]
    assert text.type == "text"
    assert orjson.loads(text.text) == result.structured_content
    assert result.is_error == (result.structured_content["status"] == "error")
    return dict(result.structured_content)


async def call(client: Client, name: str, **args: Any) -> dict[str, Any]:
    return contract(await client.call_tool(name, args))


def listed_items(data: Any) -> list[dict[str, Any]]:
    """The numbered items of a listing result in the object form, wherever the listing puts its list and
    whichever form (rows or objects) it answered in."""
    if isinstance(data, dict):
        for key in ("items", "matches"):
            found = listing_items(data, key)
            if found:
                return found
        for value in data.values():
            found = listed_items(value)
            if found:
                return found
    return []


def item_named(items: list[dict[str, Any]], name: str, role: str | None = None) -> dict[str, Any]:
    for item in items:
        if item["name"].strip().lower() == name.lower() and (role is None or item["role"] == role):
            return item
    raise AssertionError(f"no listed item named {name!r} (role {role}) among {[i['name'] for i in items]}")


def _ppid(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat[stat.rindex(")") + 2 :].split()[1])


def kill_browser_with_marker(marker: str) -> int:
    """SIGKILL the browser main process launched with ``marker`` among its arguments (a crash)."""
    killed = 0
    for pid in chromium_processes():
        try:
            cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if marker.encode() in cmdline and not any(b"--type=" in a for a in cmdline):
            os.kill(pid, signal.SIGKILL)
            killed += 1
    return killed


def _cmdline(pid: int) -> list[bytes]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
    except OSError:
        return []


def browser_of_server(marker: str, *, main_only: bool = True) -> set[int]:
    """Browser processes whose ancestor's command line contains ``marker`` (e.g. a server's workspace);
    only the main browser process unless ``main_only`` is False."""
    out = set()
    for pid in chromium_processes():
        if main_only and any(b"--type=" in a for a in _cmdline(pid)):
            continue  # a renderer/GPU/utility child, not the browser
        p: int | None = pid
        for _ in range(20):
            p = _ppid(p) if p else None
            if p is None or p <= 1:
                break
            if any(marker.encode() in a for a in _cmdline(p)):
                out.add(pid)
                break
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def wait_listening(port: int, proc: asyncio.subprocess.Process) -> None:
    """Until a server process listens on ``port`` (it must not exit meanwhile)."""
    for _ in range(400):
        assert proc.returncode is None, "the server exited early"
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.05)
            continue
        writer.close()
        await writer.wait_closed()
        return
    raise AssertionError("the server never listened")
