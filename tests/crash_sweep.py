"""Killing a command's Chromium at a fixed delay after the Chromium process appears, and what the command did then.

Shared by the start-up crash tests (tests/plan_e2e/test_startup_crash.py) and ``bench/crash_sweep.py``. The
delay is a kill *schedule*, not synchronisation: /proc is polled until a Chromium process exists under the
command, then the kill happens at that moment + the delay, whatever the command is doing (that is the point: the
moments no log line announces). Every Chromium process under the command is SIGKILLed at once; nothing else.

Four commands: ``run --confirm`` of a prepared plan, ``prepare`` of the demo expense pack, ``browserops mcp`` (its
first tool call starts the browser) and ``record``. Each worker uses a workspace of its own (one lane each), so
several kills can run side by side.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from tests.procs import child_env, descendants

ROOT = Path(__file__).resolve().parents[1]
EXIT_WITHIN_S = 10.0
APPEAR_WITHIN_S = 60.0


@dataclass
class Outcome:
    """What one kill led to. ``seconds``: from the kill to the answer (the process's exit; for mcp the call's
    answer). ``hung``: no answer within ``EXIT_WITHIN_S``."""

    command: str
    delay_s: float
    killed: int = 0
    code: str | None = None
    status: str | None = None
    exit_code: int | None = None
    seconds: float | None = None
    hung: bool = False
    traceback: bool = False
    answer: dict[str, Any] = field(default_factory=dict)
    stderr_tail: str = ""

    @property
    def crashed(self) -> bool:
        return not self.hung and self.code == "BROWSER_CRASHED"

    def brief(self) -> str:
        return (f"{self.command}@{self.delay_s:.3f}s: killed={self.killed} code={self.code} status={self.status} "
                f"exit={self.exit_code} seconds={self.seconds} hung={self.hung} traceback={self.traceback} "
                f"answer={str(self.answer)[:300]} stderr=...{self.stderr_tail[-1500:]}")


def _is_chromium(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    name = stat[stat.index("(") + 1 : stat.rindex(")")].lower()
    return "chrom" in name or "headless_shell" in name


def chromium_under(pid: int) -> set[int]:
    return {p for p in descendants(pid) if _is_chromium(p)}


def kill_at(pid: int, delay_s: float) -> tuple[int, float] | None:
    """Wait for a Chromium process under ``pid``, then SIGKILL every one ``delay_s`` later. Returns (how many
    were killed, monotonic time of the kill), or None when no Chromium appeared (or the command ended first)."""
    deadline = time.monotonic() + APPEAR_WITHIN_S
    while not chromium_under(pid):
        if time.monotonic() > deadline or not Path(f"/proc/{pid}").exists():
            return None
        time.sleep(0.01)  # polling /proc (the command's own process tree: tests/procs.py); the schedule starts then
    appeared = time.monotonic()
    left = appeared + delay_s - time.monotonic()
    if left > 0:
        time.sleep(left)  # the kill schedule: "delay_s after the process appeared"
    ours = chromium_under(pid)
    for chromium in ours:
        with contextlib.suppress(ProcessLookupError):
            os.kill(chromium, signal.SIGKILL)
    return len(ours), time.monotonic()


def env() -> dict[str, str]:
    out = child_env()
    out["PYTHONUNBUFFERED"] = "1"
    return out


def _cmd(workspace: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "browserops", "--workspace", str(workspace), *args]


def _reap(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def _cli_outcome(command: str, delay_s: float, args: list[str]) -> Outcome:
    """A CLI command that ends on its own: kill, then wait for its exit."""
    out = Outcome(command, delay_s)
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            cwd=ROOT, env=env(), start_new_session=True)
    try:
        # communicate() on a thread so the pipes never fill while the kill is scheduled.
        result: dict[str, bytes] = {}
        reader = threading.Thread(target=lambda: result.update(zip(("out", "err"), proc.communicate(),
                                                                   strict=True)), daemon=True)
        reader.start()
        kill = kill_at(proc.pid, delay_s)
        if kill is None:
            reader.join(EXIT_WITHIN_S)
            out.stderr_tail = "no Chromium appeared (or the command ended first)"
            return out
        out.killed, killed_at = kill
        reader.join(EXIT_WITHIN_S)
        if reader.is_alive():
            out.hung = True
            _reap(proc)
            reader.join(5)
        else:
            out.seconds = round(time.monotonic() - killed_at, 3)
        out.exit_code = proc.returncode
    finally:
        _reap(proc)
    err = result.get("err", b"").decode(errors="replace")
    out.traceback = "Traceback" in err
    out.stderr_tail = err[-3000:]
    with contextlib.suppress(orjson.JSONDecodeError, ValueError):
        out.answer = orjson.loads(result.get("out", b"") or b"{}")
    out.code, out.status = out.answer.get("code"), out.answer.get("status")
    return out


def run_outcome(workspace: Path, plan: dict[str, Any], delay_s: float) -> Outcome:
    args = _cmd(workspace, "--json", "run", plan["requestId"], "--confirm", plan["confirmPhrase"])
    return _cli_outcome("run", delay_s, args)


def prepare_outcome(workspace: Path, input_file: Path, base_url: str, delay_s: float) -> Outcome:
    args = _cmd(workspace, "--json", "prepare", "--pack", "demo_expense", "--input", str(input_file),
                "--base-url", base_url)
    return _cli_outcome("prepare", delay_s, args)


def record_outcome(workspace: Path, base_url: str, delay_s: float) -> Outcome:
    out = workspace / f"rec-{int(delay_s * 1000)}.yaml"
    # A page slower than the sweep's latest kill, as for mcp_outcome: a record with nothing to watch is over (stdin
    # closed) in well under 0.55 s on a quick start, and the kill then met a command already done.
    args = _cmd(workspace, "--json", "record", "--url", base_url + "/slow?ms=2000", "--out", str(out), "--headless")
    return _cli_outcome("record", delay_s, args)


def _rpc(proc: subprocess.Popen[bytes], message: dict[str, Any]) -> None:
    assert proc.stdin is not None
    proc.stdin.write(orjson.dumps({"jsonrpc": "2.0", **message}) + b"\n")
    proc.stdin.flush()


def _answers(proc: subprocess.Popen[bytes], found: dict[int, dict[str, Any]], ready: threading.Condition) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        with contextlib.suppress(orjson.JSONDecodeError):
            message = orjson.loads(line)
            if isinstance(message, dict) and isinstance(message.get("id"), int):
                with ready:
                    found[message["id"]] = message
                    ready.notify_all()


def _wait_answer(found: dict[int, dict[str, Any]], ready: threading.Condition, key: int,
                 timeout_s: float) -> dict[str, Any] | None:
    with ready:
        ready.wait_for(lambda: key in found, timeout_s)
        return found.get(key)


def mcp_outcome(workspace: Path, base_url: str, delay_s: float) -> Outcome:
    """``browserops mcp`` over stdio: initialize, then the first call (browser_navigate) starts the browser; the
    kill lands during it. The call must answer BROWSER_CRASHED; closing stdin must then end the server."""
    out = Outcome("mcp", delay_s)
    proc = subprocess.Popen(_cmd(workspace, "mcp"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, cwd=ROOT, env=env(), start_new_session=True)
    found: dict[int, dict[str, Any]] = {}
    ready = threading.Condition()
    err: list[bytes] = []
    threading.Thread(target=_answers, args=(proc, found, ready), daemon=True).start()
    err_reader = threading.Thread(target=lambda: err.append(proc.stderr.read() if proc.stderr else b""),
                                  daemon=True)
    err_reader.start()
    try:
        _rpc(proc, {"id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "sweep", "version": "0"}}})
        if _wait_answer(found, ready, 1, APPEAR_WITHIN_S) is None:
            out.stderr_tail = "the server never answered initialize"
            return out
        _rpc(proc, {"method": "notifications/initialized"})
        _rpc(proc, {"id": 2, "method": "tools/call",
                    # A page that takes longer to answer than the latest kill of the sweep: on a quick start the
                    # browser is up before the kill and the call must still be running when it lands (a call done
                    # before it would answer ok, and the sweep would test nothing).
                    "params": {"name": "browser_navigate", "arguments": {"url": base_url + "/slow?ms=2000"}}})
        kill = kill_at(proc.pid, delay_s)
        if kill is None:
            out.stderr_tail = "no Chromium appeared"
            return out
        out.killed, killed_at = kill
        answer = _wait_answer(found, ready, 2, EXIT_WITHIN_S)
        if answer is None:
            out.hung = True
        else:
            out.seconds = round(time.monotonic() - killed_at, 3)
            out.answer = dict(answer.get("result", {}).get("structuredContent") or answer)
            out.code, out.status = out.answer.get("code"), out.answer.get("status")
        assert proc.stdin is not None
        proc.stdin.close()
        try:
            out.exit_code = proc.wait(EXIT_WITHIN_S)
        except subprocess.TimeoutExpired:
            out.hung = True
    finally:
        _reap(proc)
        err_reader.join(5)
    text = b"".join(err).decode(errors="replace")
    out.traceback = "Traceback" in text
    out.stderr_tail = text[-3000:]
    return out
