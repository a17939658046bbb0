"""Cost of the evidence and lane machinery against the bare operations they wrap, measured in the same run.

    uv run python bench/bench_evidence.py            # prints one JSON object

* events: BundleWriter.log_event (validate, mask, append, fsync) vs os.write + fsync of the same line;
* screenshots: add_screenshot (temp file, fsync, rename, fsync dir) vs open/write/fsync in place;
* verify: verify_bundle over the bundle vs hashlib.sha256 over the same files;
* lane: Lane acquire+release vs a bare fcntl.flock on a file.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import orjson

from browserops.evidence import BundleWriter, StepEvent, verify_bundle
from browserops.lane import Lane

EVENTS = 300
SHOTS = 40
SHOT_BYTES = 150_000
LANE_ROUNDS = 500
PNG = b"\x89PNG\r\n\x1a\n" + os.urandom(SHOT_BYTES)


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def main() -> None:
    root = Path(tempfile.mkdtemp(prefix="bench-evidence-"))
    writer = BundleWriter.create(root / "ws", "req-20260105-101500-ab12", phase="run")
    event_args = {"index": 7, "action": "type", "text": "Northwind Taxi"}

    def log_events() -> None:
        for n in range(EVENTS):
            ev = StepEvent.begin(step=n, tool="browser_overlay_act", args=event_args)
            writer.log_event(ev.end({"status": "ok"}, page_url="http://127.0.0.1/expense", page_title="New expense"))

    line = orjson.dumps(writer.log_event(StepEvent.begin(step=0, args=event_args).end({"status": "ok"}))
                        .model_dump(mode="json", by_alias=True)) + b"\n"
    raw_fd = os.open(root / "raw.jsonl", os.O_WRONLY | os.O_CREAT | os.O_APPEND)

    def raw_events() -> None:
        for _ in range(EVENTS):
            os.write(raw_fd, line)
            os.fsync(raw_fd)

    def add_shots() -> None:
        for n in range(SHOTS):
            writer.add_screenshot(n, "before", PNG, "step")

    (root / "raw").mkdir()

    def raw_shots() -> None:
        for n in range(SHOTS):
            with open(root / "raw" / f"{n}.png", "wb") as fh:
                fh.write(PNG)
                fh.flush()
                os.fsync(fh.fileno())

    t_events, t_raw_events = timed(log_events), timed(raw_events)
    t_shots, t_raw_shots = timed(add_shots), timed(raw_shots)
    writer.finish("complete")
    files = [p for p in writer.path.rglob("*") if p.is_file()]

    def raw_hash() -> None:
        for p in files:
            hashlib.sha256(p.read_bytes()).hexdigest()

    t_verify, t_raw_hash = timed(lambda: verify_bundle(writer.path)), timed(raw_hash)
    assert verify_bundle(writer.path).ok

    lane_ws = root / "lane"
    lane_ws.mkdir()

    def lanes() -> None:
        for _ in range(LANE_ROUNDS):
            with Lane(lane_ws):
                pass

    flock_path = root / "bare.lock"

    def bare_flock() -> None:
        for _ in range(LANE_ROUNDS):
            fd = os.open(flock_path, os.O_RDWR | os.O_CREAT)
            fcntl.flock(fd, fcntl.LOCK_EX)
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)

    t_lane, t_flock = timed(lanes), timed(bare_flock)
    result = {
        "events": {"n": EVENTS, "us_per_event": round(t_events / EVENTS * 1e6, 1),
                   "baseline_us_per_event": round(t_raw_events / EVENTS * 1e6, 1),
                   "ratio": round(t_events / t_raw_events, 2)},
        "screenshots": {"n": SHOTS, "bytes": SHOT_BYTES, "ms_per_shot": round(t_shots / SHOTS * 1e3, 2),
                        "baseline_ms_per_shot": round(t_raw_shots / SHOTS * 1e3, 2),
                        "ratio": round(t_shots / t_raw_shots, 2)},
        "verify": {"files": len(files), "ms": round(t_verify * 1e3, 1), "baseline_ms": round(t_raw_hash * 1e3, 1),
                   "ratio": round(t_verify / t_raw_hash, 2)},
        "lane": {"rounds": LANE_ROUNDS, "us_per_round": round(t_lane / LANE_ROUNDS * 1e6, 1),
                 "baseline_us_per_round": round(t_flock / LANE_ROUNDS * 1e6, 1),
                 "ratio": round(t_lane / t_flock, 2)},
    }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
