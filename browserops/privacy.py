"""What may be recorded about user text: its length and a digest, never the text itself.

Used by logs, step events and evidence bundles. Free text that must be shown (an error message, a
question) goes through :func:`mask_pii` first, which hides emails, phone and card numbers.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from typing import Any

# Argument names whose values are user-typed or secret: recorded as length + digest only.
SENSITIVE_KEYS = frozenset({"text", "value", "password", "otp", "code", "question", "answer", "reply", "files"})

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_CARD = re.compile(r"\b(?:\d[ -]?){13,19}\b")
_PHONE = re.compile(r"(?<![\w])\+?\d[\d ()-]{6,}\d(?![\w])")
_DIGEST = re.compile(r"sha256:[0-9a-f]{16}")


def text_digest(text: str) -> str:
    """A short, stable digest that lets two records be compared without revealing the text."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def describe_text(text: str) -> dict[str, Any]:
    return {"textLength": len(text), "textDigest": text_digest(text)}


def mask_pii(text: str) -> str:
    """Hide emails, card numbers and phone numbers in free text."""
    text = _EMAIL.sub("[email]", text)
    text = _CARD.sub(lambda m: "[card]" if sum(c.isdigit() for c in m.group()) >= 13 else m.group(), text)
    return _PHONE.sub(lambda m: "[phone]" if sum(c.isdigit() for c in m.group()) >= 7 else m.group(), text)


def personal_data(text: str) -> list[tuple[str, str]]:
    """The e-mail addresses, card numbers and phone numbers in ``text``: ``(kind, value)`` each."""
    found = [("e-mail", m.group()) for m in _EMAIL.finditer(text)]
    found += [("card number", m.group()) for m in _CARD.finditer(text) if sum(c.isdigit() for c in m.group()) >= 13]
    rest = _CARD.sub(" ", _EMAIL.sub(" ", text))
    found += [("phone number", m.group()) for m in _PHONE.finditer(rest) if sum(c.isdigit() for c in m.group()) >= 7]
    return found


def _described(value: Any) -> bool:
    """Already the output of describe_text (so masking twice changes nothing, e.g. when an event is re-read)."""
    return (
        isinstance(value, Mapping)
        and set(value) == {"textLength", "textDigest"}
        and isinstance(value["textLength"], int)
        and isinstance(value["textDigest"], str)
        and _DIGEST.fullmatch(value["textDigest"]) is not None
    )


def mask_args(args: Mapping[str, Any]) -> dict[str, Any]:
    """Tool arguments as they may be logged: sensitive strings become length + digest. Idempotent."""
    out: dict[str, Any] = {}
    for key, value in args.items():
        if _described(value):
            out[key] = dict(value)
        elif key in SENSITIVE_KEYS and isinstance(value, str):
            out[key] = describe_text(value)
        elif key in SENSITIVE_KEYS and isinstance(value, list):
            out[key] = [dict(v) if _described(v) else describe_text(str(v)) for v in value]
        elif isinstance(value, str):
            out[key] = mask_pii(value)
        elif isinstance(value, Mapping):
            out[key] = mask_args(value)
        else:
            out[key] = value
    return out
