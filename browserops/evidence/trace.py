"""``trace.zip``: a Playwright trace of a run (``run --trace``), with every typed value masked.

What Playwright's tracing keeps of typing: each API call with its parameters (``locator.fill`` → ``value``,
``keyboard.type``/``insertText`` → ``text``, ``frame.evaluate`` → the script's argument, here JSON text holding
the value), DOM snapshots with every input's current value, network requests with their URLs and POST bodies (a
submitted form), and — if enabled — screencast JPEGs. browserops records without screencast frames (pictures of
typed text cannot be masked; the bundle has its own before/after screenshots) and rewrites the zip: in
``*.trace``/``*.network`` lines every JSON string (parameters, snapshot attributes, URLs, bodies) has each typed
value replaced by ``[masked]``, in the raw, JSON-escaped and URL-encoded forms it takes there; text resources
(request bodies) get the same treatment. JSON structure and resource references are kept, so
``playwright show-trace`` still opens it. As a last check, a zip in which a typed value of 6 or more characters
still occurs anywhere is refused rather than kept.

Nothing of the signed-in session stays either. The network records carry every request's ``Cookie`` and
``Authorization`` headers and every answer's ``Set-Cookie`` (HAR ``headers`` and ``cookies``), and API calls may
carry cookies or a storage state: those values become ``[masked]`` by their names (:data:`SESSION_HEADER`), whatever
they hold. The values of the context's cookies and local storage when the trace ends (``session_values``) are masked
wherever else they occur (a page that embeds its API token in a script), and a zip in which one of 8 or more
characters still occurs is refused like one holding a typed value.
"""

from __future__ import annotations

import io
import json
import re
import zipfile
from collections.abc import Iterable
from typing import Any
from urllib.parse import quote, quote_plus

import orjson

from browserops.contract import BrowserOpsError, ErrorCode

MASK = "[masked]"
TRACE_FILE = "trace.zip"
CHECK_MIN_CHARS = 6  # shorter values can occur by chance (timestamps, hashes); they are still masked in strings
SESSION_MIN_CHARS = 8  # a cookie such as "lang=en" is no session; masked by name in headers, not everywhere
_RESOURCE_REF = re.compile(r"^[0-9a-f]{40}(\.[a-z0-9]+)?$")
# Headers that carry a session or a credential, by name: their values never stay in a trace.
SESSION_HEADER = re.compile(r"^(?:cookie|set-cookie2?|authorization|proxy-authorization)$"
                            r"|token|auth|session|csrf|xsrf|api[-_]?key|secret|password", re.IGNORECASE)
# Keys under which the trace holds cookies or stored values ({name, value} lists), or a whole storage state.
_NAMED_VALUES = frozenset({"cookies", "localStorage", "sessionStorage"})
_WHOLE = frozenset({"storageState"})


def _forms(value: str) -> list[str]:
    """The spellings a value takes inside a trace: as is, JSON-escaped once and twice, URL-encoded."""
    once = json.dumps(value, ensure_ascii=False)[1:-1]
    twice = json.dumps(once, ensure_ascii=False)[1:-1]
    forms = {value, once, twice, quote(value, safe=""), quote_plus(value), quote(value)}
    return sorted((f for f in forms if f), key=len, reverse=True)  # longest first: no half-masked leftovers


def _mask_text(text: str, forms: list[str]) -> str:
    if _RESOURCE_REF.match(text):
        return text  # a resource's file name: masking it would cut the snapshot off from its resource
    for form in forms:
        if form in text:
            text = text.replace(form, MASK)
    return text


def _masked_pairs(pairs: list[Any], *, every: bool) -> list[Any]:
    """A ``[{name, value}]`` list with the values masked: all of them (cookies, stored values) or those whose name
    says they carry a session or a credential (headers)."""
    out: list[Any] = []
    for pair in pairs:
        if isinstance(pair, dict) and "value" in pair and (every or SESSION_HEADER.search(str(pair.get("name", "")))):
            pair = {**pair, "value": MASK}
        out.append(pair)
    return out


def _walk(node: Any, forms: list[str]) -> Any:
    if isinstance(node, str):
        return _mask_text(node, forms)
    if isinstance(node, list):
        return [_walk(item, forms) for item in node]
    if isinstance(node, dict):
        out: dict[str, Any] = {}
        for key, item in node.items():
            if key in _WHOLE:
                out[key] = MASK
            elif key in _NAMED_VALUES and isinstance(item, list):
                out[key] = _walk(_masked_pairs(item, every=True), forms)
            elif key == "headers" and isinstance(item, list):
                out[key] = _walk(_masked_pairs(item, every=False), forms)
            elif key == "headers" and isinstance(item, dict):  # an API call's {name: value} headers
                out[key] = {n: MASK if SESSION_HEADER.search(n) else _walk(v, forms) for n, v in item.items()}
            else:
                out[key] = _walk(item, forms)
        return out
    return node


def _mask_lines(data: bytes, forms: list[str]) -> bytes:
    out: list[bytes] = []
    for line in data.split(b"\n"):
        if not line.strip():
            out.append(line)
            continue
        try:
            event = orjson.loads(line)
        except orjson.JSONDecodeError:
            out.append(_mask_text(line.decode("utf-8", "replace"), forms).encode("utf-8"))
            continue
        out.append(orjson.dumps(_walk(event, forms)))
    return b"\n".join(out)


def mask_trace(data: bytes, values: Iterable[str], session: Iterable[str] = ()) -> bytes:
    """The trace zip with every typed value and every session value (cookies, stored values: ``session``) masked,
    and every header, cookie and storage record of the session masked by name; BROWSER_INTERNAL if a value could
    not be taken out."""
    wanted = sorted({v for v in values if v}, key=len, reverse=True)
    held = sorted({v for v in session if len(v) >= SESSION_MIN_CHARS}, key=len, reverse=True)
    forms = sorted({f for v in [*wanted, *held] for f in _forms(v)}, key=len, reverse=True)
    source = zipfile.ZipFile(io.BytesIO(data))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            raw = source.read(info)
            if info.filename.endswith((".trace", ".network", ".stacks")):
                raw = _mask_lines(raw, forms)
            else:
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    pass  # images and other binary resources: no typed text in them (no screencast)
                else:
                    raw = _mask_text(text, forms).encode("utf-8")
            target.writestr(info, raw)
    masked = buffer.getvalue()
    leaks = [v for v in wanted if len(v) >= CHECK_MIN_CHARS and _occurs(masked, v)]
    kept = [v for v in held if _occurs(masked, v)]
    if leaks or kept:
        what = f"{len(leaks)} typed value(s)" if leaks else f"{len(kept)} value(s) of the signed-in session"
        raise BrowserOpsError(ErrorCode.INTERNAL, f"The trace still held {what} after masking, so it was not kept.")
    return masked


def _occurs(zipped: bytes, value: str) -> bool:
    """Does ``value`` still occur: in any string of the JSON-lines files (typed text travels as text; a number
    such as a timing of 19801121.5 ms is no leak of the digits 19801121), anywhere in every other file."""
    needles = _forms(value)
    with zipfile.ZipFile(io.BytesIO(zipped)) as archive:
        for info in archive.infolist():
            raw = archive.read(info)
            if info.filename.endswith((".trace", ".network", ".stacks")):
                if any(n in text for text in _line_strings(raw) for n in needles):
                    return True
            elif any(n.encode("utf-8") in raw for n in needles):
                return True
    return False


def _line_strings(data: bytes) -> list[str]:
    """Every string (keys and values) of a JSON-lines file; a line that is not JSON, whole."""
    out: list[str] = []
    stack: list[Any] = []
    for line in data.split(b"\n"):
        if not line.strip():
            continue
        try:
            stack.append(orjson.loads(line))
        except orjson.JSONDecodeError:
            out.append(line.decode("utf-8", "replace"))
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            out.append(node)
        elif isinstance(node, list):
            stack.extend(node)
        elif isinstance(node, dict):
            stack.extend(node.keys())
            stack.extend(node.values())
    return out
