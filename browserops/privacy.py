"""What may be recorded about user text: its length and a keyed digest, never the text itself.

Used by logs, step events and evidence bundles. Free text that must be shown (an error message, a
question) goes through :func:`mask_pii` first, which hides emails, phone and card numbers.

Every digest of typed text, request bodies and input files is an HMAC-SHA256 keyed by the workspace's own secret
(``<workspace>/.browserops/digest.key``, made on first use, 0600, outside ``artifacts/``): two records of one
workspace compare equal when their texts were equal, while a bundle handed to someone else tests nothing — an
unkeyed SHA-256 of "admin" or of a sign-in body lets anyone holding the bundle check guessed passwords offline.
A secret (a password or one-time-code field, an input declared sensitive) gets no digest at all, not even a keyed
one (:data:`SECRET`). Without a workspace (a bare tool call) the key is one made for this process: still keyed,
comparable within the process only.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import logging
import os
import re
import secrets
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

# Argument names whose values are user-typed or secret: recorded as length + digest only.
SENSITIVE_KEYS = frozenset({"text", "value", "password", "otp", "code", "question", "answer", "reply", "files"})
# What a secret's value is recorded as: that there was one, nothing else (no length, no digest).
SECRET: Mapping[str, bool] = {"sensitive": True}
DIGEST_PREFIX = "hmac-sha256:"
KEY_FILE = Path(".browserops") / "digest.key"
KEY_BYTES = 32

_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_CARD = re.compile(r"\b(?:\d[ -]?){13,19}\b")
_PHONE = re.compile(r"(?<![\w])\+?\d[\d ()-]{6,}\d(?![\w])")
# A digest as events hold it: keyed now; plain SHA-256 in bundles written before keyed digests (read back as is).
_DIGEST = re.compile(r"(?:hmac-sha256|sha256):[0-9a-f]{16}")


# -- the workspace's digest key --------------------------------------------------------------------------------
_PROCESS_KEY = secrets.token_bytes(KEY_BYTES)
_lock = threading.Lock()
_workspace: Path | None = None
_keys: dict[Path, bytes] = {}


def digest_key_path(workspace: Path) -> Path:
    return workspace.resolve() / KEY_FILE


def use_workspace(workspace: Path) -> None:
    """Key every digest from now on with ``workspace``'s secret (read, or made, when the first digest needs it).
    Each front door calls this once it knows its workspace; a process serves one workspace at a time."""
    global _workspace
    with _lock:
        _workspace = workspace.resolve()


def workspace_key(workspace: Path) -> bytes:
    """The workspace's digest key, made on first use: 32 random bytes in a file only its owner may read, created
    whole or not at all (a second process making one at the same moment reads the first's)."""
    path = digest_key_path(workspace)
    with _lock:
        known = _keys.get(path)
        if known is not None:
            return known
        try:
            key = path.read_bytes()
        except FileNotFoundError:
            key = _make_key(path)
        if len(key) != KEY_BYTES:
            raise OSError(f"{path} is not a digest key ({len(key)} bytes)")
        _keys[path] = key
        return key


def _make_key(path: Path) -> bytes:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, secrets.token_bytes(KEY_BYTES))
        os.fsync(fd)
    finally:
        os.close(fd)
    try:
        os.link(tmp, path)  # never replaces a key another process made meanwhile
    except FileExistsError:
        pass
    finally:
        tmp.unlink(missing_ok=True)
    return path.read_bytes()


def _key() -> bytes:
    workspace = _workspace
    if workspace is None:
        return _PROCESS_KEY
    try:
        return workspace_key(workspace)
    except OSError as exc:
        # A read-only workspace: still keyed (never a plain hash), comparable within this process only.
        log.warning("digest key of %s unavailable (%s); digests are keyed for this process only", workspace,
                    exc.strerror or exc)
        return _PROCESS_KEY


def keyed_digest(data: bytes, *, length: int = 64) -> str:
    """``hmac-sha256:<hex>`` of ``data`` under the workspace's key (``length`` hex digits)."""
    return DIGEST_PREFIX + hmac.new(_key(), data, hashlib.sha256).hexdigest()[:length]


def text_digest(text: str) -> str:
    """A short, stable digest that lets two records of one workspace be compared without revealing the text."""
    return keyed_digest(text.encode("utf-8"), length=16)


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
    """Already the output of describe_text or a secret's mark (so masking twice changes nothing, e.g. when an
    event is re-read)."""
    if isinstance(value, Mapping) and dict(value) == dict(SECRET):
        return True
    return (
        isinstance(value, Mapping)
        and set(value) == {"textLength", "textDigest"}
        and isinstance(value["textLength"], int)
        and isinstance(value["textDigest"], str)
        and _DIGEST.fullmatch(value["textDigest"]) is not None
    )


def mask_args(args: Mapping[str, Any], *, secret: bool = False) -> dict[str, Any]:
    """Tool arguments as they may be logged: sensitive strings become length + digest — or, for a secret
    (``secret``: the call types into a password or one-time-code field), only :data:`SECRET`. Idempotent."""
    out: dict[str, Any] = {}
    for key, value in args.items():
        if _described(value):
            out[key] = dict(value)
        elif key in SENSITIVE_KEYS and isinstance(value, str):
            out[key] = dict(SECRET) if secret else describe_text(value)
        elif key in SENSITIVE_KEYS and isinstance(value, list):
            out[key] = [dict(v) if _described(v) else dict(SECRET) if secret else describe_text(str(v)) for v in value]
        elif isinstance(value, str):
            out[key] = mask_pii(value)
        elif isinstance(value, Mapping):
            out[key] = mask_args(value, secret=secret)
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
