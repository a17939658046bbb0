"""Tests of the demo_expense pack (browserops/packs/builtin/demo_expense)."""

from __future__ import annotations

import pytest

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.packs import BUILTIN_DIR, PackContext, validate_pack_dir
from browserops.plan.steps import Kind

PACK_DIR = BUILTIN_DIR / "demo_expense"


def test_example_fills_nine_fields_then_submits() -> None:
    pack = validate_pack_dir(PACK_DIR)
    steps = pack.build(pack.load_input(PACK_DIR / "example_input.yaml")).steps
    assert steps[0].url == "/expense" and steps[-1].kind is Kind.SUBMIT
    values = {s.field: s.value for s in steps if s.kind is Kind.FILL}
    assert values["amount"] == "23.40" and values["billable"] is True and values["currency"] == "EUR"
    assert all(s.needs_confirm for s in steps[1:])


def test_minimal_input_skips_optional_fields() -> None:
    pack = validate_pack_dir(PACK_DIR)
    inp = pack.parse_input({"merchant": "Paper & Co", "amount": "7"}, PackContext(base_dir=PACK_DIR))
    fields = [s.field for s in pack.build(inp).steps if s.kind is Kind.FILL]
    assert fields == ["merchant", "amount", "billable"]


def test_receipt_must_exist() -> None:
    pack = validate_pack_dir(PACK_DIR)
    with pytest.raises(BrowserOpsError) as info:
        pack.parse_input({"merchant": "M", "amount": "1", "receipt": "missing.pdf"}, PackContext(base_dir=PACK_DIR))
    assert info.value.code is ErrorCode.INPUT_INVALID and "receipt" in info.value.message
