"""Tests of the demo_statements pack (browserops/packs/builtin/demo_statements)."""

from __future__ import annotations

import datetime as dt

import pytest

from browserops.contract import BrowserOpsError
from browserops.packs import BUILTIN_DIR, PackContext, validate_pack_dir
from browserops.plan.steps import Kind

PACK_DIR = BUILTIN_DIR / "demo_statements"


def test_exports_run_without_confirmation() -> None:
    pack = validate_pack_dir(PACK_DIR)
    steps = pack.build(pack.example_input()).steps
    assert [s.kind for s in steps] == [Kind.NAVIGATE, Kind.READ, Kind.EXPORT, Kind.EXPORT]
    assert not any(s.needs_confirm for s in steps)
    assert [s.save_as for s in steps[2:]] == ["statements_2026-01.csv", "statements_2026-02.csv"]


def test_no_months_means_the_export_csv_link() -> None:
    pack = validate_pack_dir(PACK_DIR)
    last = pack.build(pack.parse_input({}, PackContext(base_dir=PACK_DIR))).steps[-1]
    assert last.target is not None and last.target.role == "link" and "Export CSV" in last.target.names


def test_future_months_are_refused() -> None:
    pack = validate_pack_dir(PACK_DIR)
    ctx = PackContext(base_dir=PACK_DIR, today=dt.date(2026, 2, 10))
    with pytest.raises(BrowserOpsError) as info:
        pack.parse_input({"months": ["2026-03"]}, ctx)
    assert "2026-03 is in the future" in info.value.message
