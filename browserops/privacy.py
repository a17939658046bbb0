"""What may be recorded about user text: its length and a digest, never the text itself.

Used by logs, step events and evidence bundles. Free text that must be shown (an error message, a
question) goes through :func:`mask_pii` first, which hides emails, phone and card numbers.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Iterable, Mapping
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


# -- the forms a typed value takes on its way into the page ------------------------------------------------------
MIN_FORM = 3  # shorter derived forms ("DE", "12") would mask unrelated text everywhere
_DATE_DMY = re.compile(r"^(\d{1,2})[./-](\d{1,2})[./-](\d{4})$")
_DATE_YMD = re.compile(r"^(\d{4})[./-](\d{1,2})[./-](\d{1,2})$")
# What a page's own result says the field holds after typing or choosing (browser_overlay_act's result).
RESULT_VALUE_KEYS = ("value", "interpreted_as", "chosen", "chosen_value", "selected")


def _dates(text: str) -> list[dt.date]:
    """The calendar dates ``text`` may name (a slashed day/month is read both ways)."""
    out: list[dt.date] = []
    candidates: list[tuple[int, int, int]] = []
    if m := _DATE_YMD.match(text):
        candidates.append((int(m[1]), int(m[2]), int(m[3])))
    elif m := _DATE_DMY.match(text):
        first, second, year = int(m[1]), int(m[2]), int(m[3])
        candidates += [(year, second, first), (year, first, second)]
    for year, month, day in candidates:
        try:
            out.append(dt.date(year, month, day))
        except ValueError:
            continue
    return out


def _date_spellings(day: dt.date) -> set[str]:
    return {day.isoformat(), f"{day:%d.%m.%Y}", f"{day.day}.{day.month}.{day.year}", f"{day:%m/%d/%Y}",
            f"{day:%d/%m/%Y}", f"{day:%Y%m%d}", f"{day:%Y/%m/%d}"}


def value_forms(value: str) -> list[str]:
    """The spellings a value typed into a page may take there: as typed, whitespace collapsed, its digits alone
    when it is mostly digits (a phone or card number an input mask reformats, a form posts unformatted), and a
    date in the usual spellings (typed 21.11.1980, filled 1980-11-21). Longest first."""
    text = value.strip()
    forms = {text, " ".join(text.split())}
    digits = re.sub(r"\D", "", text)
    if len(digits) >= 6 and 2 * len(digits) >= len(re.sub(r"\s", "", text)):
        forms.add(digits)
    for day in _dates(text):
        forms |= _date_spellings(day)
    return sorted((f for f in forms if len(f) >= MIN_FORM), key=len, reverse=True)


def result_values(data: Mapping[str, Any]) -> list[str]:
    """What a typing or choosing result says the field now holds (the page's own spelling of the value)."""
    found: list[str] = []
    for key in RESULT_VALUE_KEYS:
        value = data.get(key)
        values = value if isinstance(value, list) else [value]
        found += [v for v in values if isinstance(v, str) and v.strip()]
    element = data.get("element")
    state = element.get("state") if isinstance(element, Mapping) else None
    if isinstance(state, Mapping) and isinstance(state.get("value"), str) and state["value"].strip():
        found.append(state["value"])
    return found


class EnteredValues:
    """Every form the values entered into pages took (typed, as the page reformatted or converted them, as
    chosen): kept in memory only, to be masked out of traces, events and logs."""

    def __init__(self, values: Iterable[str] = ()) -> None:
        self._forms: set[str] = set()
        for value in values:
            self.add(value)

    def add(self, value: str | None) -> None:
        if isinstance(value, str):
            self._forms.update(value_forms(value))

    def add_result(self, data: Mapping[str, Any]) -> None:
        for value in result_values(data):
            self.add(value)

    def forms(self) -> list[str]:
        """Longest first, so a longer form is masked before a shorter one inside it."""
        return sorted(self._forms, key=len, reverse=True)
