from __future__ import annotations

import hashlib
import hmac
import stat
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from browserops.browser.launch.requests import redacted_url
from browserops.evidence.events import SentRequest
from browserops.privacy import (
    SECRET,
    EnteredValues,
    describe_text,
    digest_key_path,
    mask_args,
    mask_pii,
    text_digest,
    use_workspace,
)


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


def test_digests_are_keyed_never_a_plain_hash(tmp_path: Path) -> None:
    """Issue 36.1: a digest is an HMAC under the workspace's secret, so whoever holds only a bundle cannot test a
    guess; within the workspace the same text gives the same digest; another workspace's differs."""
    use_workspace(tmp_path / "a")
    one = text_digest("admin")
    assert one.startswith("hmac-sha256:") and len(one) == len("hmac-sha256:") + 16
    assert hashlib.sha256(b"admin").hexdigest()[:16] not in one
    assert text_digest("admin") == one
    key = digest_key_path(tmp_path / "a")
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_bytes()) == 32
    assert one == "hmac-sha256:" + hmac.new(key.read_bytes(), b"admin", hashlib.sha256).hexdigest()[:16]
    use_workspace(tmp_path / "b")
    assert text_digest("admin") != one
    use_workspace(tmp_path / "a")
    assert text_digest("admin") == one  # the key file is read back, not made again


def test_a_secret_gets_no_digest_and_masking_twice_changes_nothing() -> None:
    masked = mask_args({"index": 3, "action": "type", "text": "hunter2"}, secret=True)
    assert masked["text"] == SECRET and "textLength" not in repr(masked)
    assert mask_args(masked) == masked
    # Events written before keyed digests are read back as they are.
    old = {"text": {"textLength": 5, "textDigest": "sha256:" + hashlib.sha256(b"admin").hexdigest()[:16]}}
    assert mask_args(old) == old


def test_old_ledger_entries_still_read() -> None:
    """A bundle written before keyed digests (bodySha256) still parses, so its evidence still shows and verifies."""
    entry = {"id": 1, "method": "POST", "url": "http://x/save", "kind": "fetch", "started": "2026-01-05T10:15:00Z",
             "bodyBytes": 3, "bodySha256": hashlib.sha256(b"abc").hexdigest()}
    assert SentRequest.model_validate(entry).body_sha256 == entry["bodySha256"]


def test_path_segments_holding_an_input_value_are_masked() -> None:
    hidden = EnteredValues(["Q4 plan", "ada@example.com"]).forms()
    assert redacted_url("http://h/save/api/Q4%20plan?x=1#f", hidden) == "http://h/save/api/…?x=…"
    assert redacted_url("http://h/users/ada%40example.com/notes/7", hidden) == "http://h/users/…/notes/7"
    assert redacted_url("http://h/save/api/other", hidden) == "http://h/save/api/other"
