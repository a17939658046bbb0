from __future__ import annotations

from pathlib import Path

from browserops.contract import ErrorCode

CONTRACT = Path(__file__).resolve().parents[1] / "cli_contract.md"


def test_every_error_code_is_documented() -> None:
    text = CONTRACT.read_text(encoding="utf-8")
    missing = [code.value for code in ErrorCode if f"`{code.value}`" not in text]
    assert missing == []
