from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from browserops.privacy import describe_text, mask_args, mask_pii


def test_typed_text_becomes_length_and_digest() -> None:
    masked = mask_args({"index": 3, "action": "type", "text": "hunter2"})
    assert masked["index"] == 3 and masked["action"] == "type"
    assert masked["text"] == {"textLength": 7, "textDigest": describe_text("hunter2")["textDigest"]}
    assert "hunter2" not in repr(masked)


def test_pii_in_free_text_is_masked() -> None:
    out = mask_pii("mail jane.doe@example.com or call +1 (555) 123-4567, card 4111 1111 1111 1111")
    assert "jane.doe" not in out and "555" not in out and "4111" not in out
    assert "[email]" in out and "[phone]" in out and "[card]" in out


def test_short_numbers_survive() -> None:
    assert mask_pii("step 12 of 20, amount 42.50") == "step 12 of 20, amount 42.50"


@given(st.text())
def test_digest_never_contains_the_text(text: str) -> None:
    described = describe_text(text)
    assert described["textLength"] == len(text)
    if len(text) > 16:  # longer than the hex digest itself, so it cannot hide inside it
        assert text not in str(described["textDigest"])
