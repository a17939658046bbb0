"""The Redis lane backend against a real redis-server, with separate processes standing in for runner
machines: one workspace strictly serial, different workspaces in parallel, a SIGKILLed holder frees the lane
after its lease, a frozen holder that comes back cannot act (BROWSER_LANE_LOST)."""

from __future__ import annotations

import asyncio
import itertools
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
import redis

from browserops.config import Settings
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.lane import Lane, open_lane
from browserops.lane.redis_lane import KEY_PREFIX, RedisLane, public_url
from tests.redis_server import RedisServer, free_port

ROOT = Path(__file__).resolve().parents[1]

# argv: workspace, log, hold seconds (-1: until <log>.release exists, then check the lease), mode, url, lease s
WORKER = textwrap.dedent("""
    import asyncio, os, sys, time
    from pathlib import Path
    from browserops.contract import BrowserOpsError
    from browserops.lane.redis_lane import RedisLane

    ws, log, hold, mode, url, lease = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3]), sys.argv[4], \\
        sys.argv[5], float(sys.argv[6])
    def waiting(message):
        print("WAIT " + message, file=sys.stderr, flush=True)

    async def main():
        lane = RedisLane(ws, url, lease_s=lease, no_wait=(mode == "no-wait"), on_wait=waiting,
                         holder={"requestId": "req-x"})
        async with lane:
            start = time.time()
            print(f"held {lane.token}", flush=True)
            if hold >= 0:
                await asyncio.sleep(hold)
            else:
                while not Path(log + ".release").exists():
                    await asyncio.sleep(0.02)
                await lane.check()  # what a run does before its next acting step
            end = time.time()
        fd = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        os.write(fd, f"{lane.token} {start} {end}\\n".encode())
        os.close(fd)

    try:
        asyncio.run(main())
    except BrowserOpsError as exc:
        print(exc.code.value + " " + exc.message, file=sys.stderr, flush=True)
        sys.exit(3)
""")


@pytest.fixture
def redis_url(tmp_path: Path) -> Iterator[str]:
    with RedisServer(tmp_path / "redis") as server:
        yield server.url


def spawn(ws: Path, log: Path, hold: float, url: str, *, mode: str = "wait",
          lease_s: float = 5.0) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-c", WORKER, str(ws), str(log), str(hold), mode, url, str(lease_s)],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def held(proc: subprocess.Popen[str]) -> int:
    """Wait for the worker to say it holds the lane; its fencing token."""
    assert proc.stdout is not None
    line = proc.stdout.readline().split()
    assert line[:1] == ["held"], (line, proc.stderr.read() if proc.stderr else "")
    return int(line[1])


def spans(log: Path) -> list[tuple[int, float, float]]:
    rows = [line.split() for line in log.read_text().splitlines()]
    return sorted((int(token), float(start), float(end)) for token, start, end in rows)


def test_one_workspace_is_strictly_serial_across_processes(tmp_path: Path, redis_url: str) -> None:
    ws, log = tmp_path / "ws", tmp_path / "log"
    first = spawn(ws, log, -1, redis_url)
    assert held(first) == 1
    waiters = [spawn(ws, log, 0.2, redis_url) for _ in range(3)]
    try:
        for p in waiters:  # all three queue behind the first, and say whom they wait for
            assert p.stderr is not None
            line = p.stderr.readline()
            assert line.startswith("WAIT") and f"is busy (pid {first.pid}" in line and "running req-x" in line
    finally:
        (tmp_path / "log.release").touch()
    outputs = [p.communicate(timeout=60) for p in (first, *waiters)]
    assert [p.returncode for p in (first, *waiters)] == [0, 0, 0, 0], outputs
    rows = spans(log)
    assert [token for token, _, _ in rows] == [1, 2, 3, 4]  # each holding got the next fencing token
    by_start = sorted(rows, key=lambda row: row[1])
    for (_, _, end), (_, start, _) in itertools.pairwise(by_start):
        assert start >= end, by_start  # no overlap: strictly one after another


def test_different_workspaces_hold_their_lanes_at_once(tmp_path: Path, redis_url: str) -> None:
    log = tmp_path / "log"
    procs = [spawn(tmp_path / f"ws{i}", log, -1, redis_url) for i in range(2)]
    try:
        for p in procs:
            held(p)  # both hold before either may let go
    finally:
        (tmp_path / "log.release").touch()
    for p in procs:
        _, err = p.communicate(timeout=60)
        assert p.returncode == 0, err
    (_, a_start, a_end), (_, b_start, b_end) = spans(log)
    assert b_start < a_end and a_start < b_end


def test_no_wait_names_the_holder(tmp_path: Path, redis_url: str) -> None:
    ws, log = tmp_path / "ws", tmp_path / "log"
    holder = spawn(ws, log, 30, redis_url)
    try:
        held(holder)
        second = spawn(ws, log, 0, redis_url, mode="no-wait")
        _, err = second.communicate(timeout=30)
        assert second.returncode == 3 and "BROWSER_LANE_BUSY" in err
        assert f"pid {holder.pid}" in err and "running req-x" in err and "without --no-wait" in err
    finally:
        holder.kill()
        holder.wait(timeout=10)


def test_sigkilled_holder_frees_the_lane_after_its_lease(tmp_path: Path, redis_url: str) -> None:
    ws, log = tmp_path / "ws", tmp_path / "log"
    lease_s = 3.0
    holder = spawn(ws, log, 600, redis_url, lease_s=lease_s)
    try:
        first = held(holder)
        # A waiter queues behind the live holder first (however slowly this machine starts a process)...
        waiter = spawn(ws, log, 0, redis_url, lease_s=lease_s)
        assert waiter.stderr is not None
        line = waiter.stderr.readline()
        assert line.startswith("WAIT") and f"pid {holder.pid}" in line, line
    finally:
        os.kill(holder.pid, signal.SIGKILL)  # ...then the holder dies without releasing
        holder.wait(timeout=10)
    killed = time.monotonic()
    key = KEY_PREFIX + str(ws.resolve())
    assert redis.Redis.from_url(redis_url).pttl(key) > 0  # the dead holder's lease still runs: nobody freed it
    second = held(waiter)  # it waits for that key to expire, then takes the lane
    freed_after = time.monotonic() - killed
    _, err = waiter.communicate(timeout=30)
    assert waiter.returncode == 0, err
    assert second == first + 1
    assert freed_after < lease_s + 10  # freed by the lease, not by anyone cleaning up


def test_a_frozen_holder_cannot_act_after_its_lease_ended(tmp_path: Path, redis_url: str) -> None:
    ws, log = tmp_path / "ws", tmp_path / "log"
    lease_s = 1.0
    frozen = spawn(ws, log, -1, redis_url, lease_s=lease_s)
    try:
        first = held(frozen)
        os.kill(frozen.pid, signal.SIGSTOP)  # the runner freezes (a paused VM, a stuck process)
        other = spawn(ws, tmp_path / "other", 0, redis_url, lease_s=lease_s)
        assert held(other) == first + 1  # the lease ran out: another runner took over
        _, other_err = other.communicate(timeout=30)
        assert other.returncode == 0, other_err
        (tmp_path / "log.release").touch()
        os.kill(frozen.pid, signal.SIGCONT)  # it comes back and reaches its next acting step
        _, err = frozen.communicate(timeout=30)
    finally:
        frozen.kill()
        frozen.wait(timeout=10)
    assert frozen.returncode == 3, err
    assert "BROWSER_LANE_LOST" in err and f"fencing token {first}" in err
    assert not log.exists()  # the frozen runner never got past its check


async def test_a_lease_is_renewed_while_the_run_lives(tmp_path: Path, redis_url: str) -> None:
    async with RedisLane(tmp_path, redis_url, lease_s=0.6) as lane:
        for _ in range(6):  # 1.8 s: three leases long, held throughout by renewal
            await lane.check()
            await asyncio.sleep(0.3)
        await lane.check()
        assert lane.record() == {"backend": redis_url, "token": 1, "leaseS": 0.6}
    async with RedisLane(tmp_path, redis_url, no_wait=True) as again:  # released on exit
        assert again.token == 2


async def test_release_is_bounded_when_redis_stops_answering(tmp_path: Path) -> None:
    with RedisServer(tmp_path / "redis") as server:
        assert server.proc is not None
        lane = await RedisLane(tmp_path, server.url, lease_s=0.6).acquire_async()
        os.kill(server.proc.pid, signal.SIGSTOP)  # frozen: every command now waits for its socket timeout
        try:
            await asyncio.sleep(0.3)  # a renewal is in flight
            started = time.monotonic()
            await lane.release_async()
            took = time.monotonic() - started
        finally:
            os.kill(server.proc.pid, signal.SIGCONT)
        assert took < 8, took  # a run that ended is not held by its lane; the key expires within the lease


async def test_unreachable_redis_is_a_clear_error(tmp_path: Path) -> None:
    url = f"redis://:secret@127.0.0.1:{free_port()}/0"
    with pytest.raises(BrowserOpsError) as info:
        await RedisLane(tmp_path, url, lease_s=1).acquire_async()
    assert info.value.code is ErrorCode.LANE_UNAVAILABLE
    assert "secret" not in info.value.message and public_url(url) in info.value.message
    assert 'lane_backend = "file"' in info.value.message


def test_the_setting_picks_the_backend(tmp_path: Path, redis_url: str) -> None:
    assert isinstance(open_lane(tmp_path, Settings()), Lane)
    chosen = open_lane(tmp_path, Settings(lane_backend=redis_url, lane_lease_s=2))
    assert isinstance(chosen, RedisLane) and chosen.lease_s == 2
    with pytest.raises(ValueError, match="lane_backend"):
        Settings(lane_backend="memcached://x")


def test_file_lane_hands_out_fencing_tokens_too(tmp_path: Path) -> None:
    with Lane(tmp_path) as lane:
        assert lane.record() == {"backend": "file", "token": 1}
    with Lane(tmp_path) as lane:
        assert lane.token == 2
        holder = orjson.loads((tmp_path / ".browserops" / "lane.holder.json").read_bytes())
        assert holder["token"] == 2 and holder["pid"] == os.getpid()
