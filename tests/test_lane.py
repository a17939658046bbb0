"""The workspace lane with real processes: serial per workspace, parallel across, free after SIGKILL."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.lane import Lane

ROOT = Path(__file__).resolve().parents[1]

WORKER = textwrap.dedent("""
    import os, sys, time
    from pathlib import Path
    from browserops.contract import BrowserOpsError
    from browserops.lane import Lane

    ws, log, hold, mode = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4]
    def waiting(message):
        print("WAIT " + message, file=sys.stderr, flush=True)
    try:
        with Lane(ws, no_wait=(mode == "no-wait"), on_wait=waiting, holder={"requestId": "req-x"}):
            start = time.time()
            print("held", flush=True)
            if hold >= 0:
                time.sleep(hold)
            else:  # hold until the test says so (at most 30 s)
                deadline = time.time() + 30
                while not Path(log + ".release").exists() and time.time() < deadline:
                    time.sleep(0.02)
            end = time.time()
    except BrowserOpsError as exc:
        print(exc.code.value, file=sys.stderr, flush=True)
        sys.exit(3)
    fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
    os.write(fd, f"{os.getpid()} {start} {end}\\n".encode())
    os.close(fd)
""")


def spawn(ws: Path, log: Path, hold: float, mode: str = "wait") -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", WORKER, str(ws), str(log), str(hold), mode], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def intervals(log: Path) -> list[tuple[float, float]]:
    rows = [line.split() for line in log.read_text().splitlines()]
    return sorted((float(start), float(end)) for _, start, end in rows)


def test_one_workspace_runs_one_process_at_a_time(tmp_path: Path) -> None:
    ws, log = tmp_path / "ws", tmp_path / "log"
    procs = [spawn(ws, log, 0.4) for _ in range(4)]
    outputs = [p.communicate(timeout=60) for p in procs]
    assert [p.returncode for p in procs] == [0, 0, 0, 0], outputs
    spans = intervals(log)
    assert len(spans) == 4
    for (_, end), (next_start, _) in itertools.pairwise(spans):
        assert next_start >= end, spans  # no overlap: each started after the previous one ended
    waited = [err for _, err in outputs if "WAIT" in err]
    assert len(waited) >= 2  # most had to queue, and said so
    assert any("is busy (pid" in err and "running req-x" in err for err in waited)


def test_different_workspaces_run_in_parallel(tmp_path: Path) -> None:
    log = tmp_path / "log"
    procs = [spawn(tmp_path / f"ws{i}", log, -1) for i in range(2)]
    try:
        # Both report holding their lane before either is allowed to let go: they hold at the same time.
        for p in procs:
            assert p.stdout is not None and p.stdout.readline().strip() == "held"
    finally:
        (tmp_path / "log.release").touch()
    for p in procs:
        p.communicate(timeout=60)
        assert p.returncode == 0
    (a_start, a_end), (b_start, b_end) = intervals(log)
    assert b_start < a_end and a_start < b_end  # the two holds overlap in time


def test_no_wait_fails_fast_with_lane_busy(tmp_path: Path) -> None:
    ws, log = tmp_path / "ws", tmp_path / "log"
    holder = spawn(ws, log, 3.0)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        started = time.monotonic()
        second = spawn(ws, log, 0.0, mode="no-wait")
        _, err = second.communicate(timeout=30)
        assert second.returncode == 3 and "BROWSER_LANE_BUSY" in err
        assert time.monotonic() - started < 2.5  # did not wait for the holder
        with pytest.raises(BrowserOpsError) as info:
            Lane(ws, no_wait=True).acquire()
        assert info.value.code is ErrorCode.LANE_BUSY and "without --no-wait" in info.value.message
        assert info.value.details["holder"]["pid"] == holder.pid
    finally:
        holder.kill()
        holder.wait(timeout=10)


def test_sigkilled_holder_leaves_the_lane_free(tmp_path: Path) -> None:
    ws, log = tmp_path / "ws", tmp_path / "log"
    holder = spawn(ws, log, 600.0)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        assert not Lane(ws).is_free()
    finally:
        os.kill(holder.pid, signal.SIGKILL)
        holder.wait(timeout=10)
    assert holder.returncode == -signal.SIGKILL
    with Lane(ws, no_wait=True) as lane:  # immediately free: the kernel dropped the dead holder's lock
        assert lane.waited_s == 0.0
        assert lane.current_holder() is not None and lane.current_holder()["pid"] == os.getpid()  # type: ignore[index]


def test_timeout_gives_up_with_lane_busy(tmp_path: Path) -> None:
    with Lane(tmp_path):
        started = time.monotonic()
        with pytest.raises(BrowserOpsError) as info:
            Lane(tmp_path, timeout_s=0.3).acquire()
        assert info.value.code is ErrorCode.LANE_BUSY and "gave up after 0.3 s" in info.value.message
        assert 0.25 < time.monotonic() - started < 2


async def test_async_lane_waits_without_blocking_the_loop(tmp_path: Path) -> None:
    messages: list[str] = []
    first = await Lane(tmp_path).acquire_async()
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.02)
            ticks += 1

    async def second() -> float:
        async with Lane(tmp_path, on_wait=messages.append) as lane:
            return lane.waited_s

    tick_task = asyncio.create_task(ticker())
    waiter = asyncio.create_task(second())
    await asyncio.sleep(0.3)
    assert not waiter.done()
    first.release()
    waited = await asyncio.wait_for(waiter, 5)
    tick_task.cancel()
    assert waited >= 0.25 and ticks >= 8  # the loop kept running while the second lane waited
    assert len(messages) == 1 and "waiting" in messages[0]
