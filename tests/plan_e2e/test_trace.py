"""`run --trace`: a real Playwright trace of the run in the bundle, sealed in the manifest, every typed value
masked — checked by searching every file of the zip for the values the run typed."""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote_plus

import orjson
import pytest

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.demo_site import DemoSite
from browserops.evidence import verify_bundle
from browserops.evidence.trace import MASK, mask_trace
from tests.plan_e2e.helpers import cli_json, prepare_expense, server_state

TYPED = ["Northwind Taxi", "Airport transfer", "23.40", "2026-01-05"]  # demo_expense's example: what it types


def test_run_trace_is_in_the_bundle_with_typed_values_masked(demo_site: DemoSite, workspace: Path) -> None:
    demo_site.reset()
    prepared = prepare_expense(workspace, demo_site.base_url)
    code, data, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"],
                               "--trace")
    assert code == 0, (data, err)
    assert server_state(demo_site.base_url)["submissions"][0]["merchant"] == "Northwind Taxi"
    bundle = Path(data["bundle"])
    trace = bundle / "trace.zip"
    assert "  trace.zip\n" in (bundle / "manifest-sha256.txt").read_text() and verify_bundle(bundle).ok
    with zipfile.ZipFile(trace) as archive:
        names = archive.namelist()
        contents = {name: archive.read(name) for name in names}
    assert "trace.trace" in names and "trace.network" in names
    events = [orjson.loads(line) for line in contents["trace.trace"].splitlines() if line.strip()]
    kinds = {e.get("type") for e in events}
    assert {"context-options", "before", "after", "frame-snapshot"} <= kinds  # actions and DOM snapshots
    assert "screencast-frame" not in kinds  # no pictures of typed text
    assert any(e.get("type") == "before" and e.get("method") == "goto" for e in events)
    masked = sum(blob.count(MASK.encode()) for blob in contents.values())
    assert masked > 0
    # Typed text can only travel as text: in the JSON-lines files every string is searched (a number such as
    # a timing of 23.401 ms holds "23.40" by chance, and is no leak); every other file is searched whole.
    texts = {name: (_strings(blob) if name.endswith((".trace", ".network", ".stacks")) else [blob.decode("latin-1")])
             for name, blob in contents.items()}
    for value in TYPED:
        forms = {value, json.dumps(value)[1:-1], quote_plus(value)}
        leaks = sorted({name for name, found in texts.items() for text in found for form in forms if form in text})
        assert leaks == [], f"{value!r} is in {leaks}"


def _strings(blob: bytes) -> list[str]:
    """Every string of a JSON-lines blob (keys and values; a line that is not JSON, whole). Written apart from the
    product's own walker (evidence/trace.py) on purpose: the yardstick of a leak must not share its blind spots."""
    def walk(node: Any) -> Iterator[str]:
        if isinstance(node, str):
            yield node
        elif isinstance(node, dict):
            for key, value in node.items():
                yield key
                yield from walk(value)
        elif isinstance(node, list):
            for item in node:
                yield from walk(item)

    out: list[str] = []
    for line in filter(bytes.strip, blob.splitlines()):
        try:
            out.extend(walk(json.loads(line)))
        except ValueError:
            out.append(line.decode("utf-8", "replace"))
    return out


def test_mask_trace_keeps_structure_and_refuses_a_leak() -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as z:
        z.writestr("trace.trace", orjson.dumps({"type": "before", "method": "fill", "params": {
            "selector": "input", "value": "Secret Value 42", "arg": '{"text": "Secret \\"Value\\" 42"}'}}) + b"\n"
            + orjson.dumps({"type": "frame-snapshot", "snapshot": {"html": ["INPUT", {"value": "Secret Value 42"}],
                                                                   "resourceOverrides": [{"sha1": "a" * 40}]}}))
        z.writestr("resources/" + "a" * 40, b"name=Secret+Value+42&x=1")
        z.writestr("resources/img.jpeg", b"\xff\xd8\xff\xe0binary")
    out = mask_trace(buffer.getvalue(), ["Secret Value 42", 'Secret "Value" 42'])
    with zipfile.ZipFile(io.BytesIO(out)) as z:
        lines = [orjson.loads(x) for x in z.read("trace.trace").splitlines()]
        body = z.read("resources/" + "a" * 40)
        assert z.read("resources/img.jpeg") == b"\xff\xd8\xff\xe0binary"
    assert lines[0]["params"]["value"] == MASK and "Secret" not in lines[0]["params"]["arg"]
    assert lines[1]["snapshot"]["html"] == ["INPUT", {"value": MASK}]
    assert lines[1]["snapshot"]["resourceOverrides"][0]["sha1"] == "a" * 40
    assert body == f"name={MASK}&x=1".encode()
    # A value inside a binary resource cannot be masked: the trace is refused rather than kept with it.
    with zipfile.ZipFile(buffer, "a") as z:
        z.writestr("resources/blob.bin", b"\xff\xfe Secret Value 42 \xff")
    with pytest.raises(BrowserOpsError) as caught:
        mask_trace(buffer.getvalue(), ["Secret Value 42"])
    assert caught.value.code is ErrorCode.INTERNAL and "not kept" in caught.value.message
