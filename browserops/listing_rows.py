"""The listing's row format: one short line per numbered element, every fact that tells elements apart kept.

``browser_list_interactives`` and ``browser_find`` answer with rows by default and with objects on request
(``format="objects"``); everything that reads a listing reads both through :func:`listing_items`::

    12 button Pay now
    13 checkbox Remember me | checked=false
    14 textbox Email | type=email | required | value=a@b.c
    15 button Edit | in=Printer toner 4 pcs
    16 link "Home | Site" | frame=f1 | new

A row is the item's number, role and name, then its facts, each after ``" | "``: its state (``key`` when true,
``key=value`` otherwise: ``checked=false``, ``expanded=false``, ``level=2``, ``value=…``), ``type=`` (an input
type that says more than the role), ``frame=`` (a child frame's label), ``new`` (not in the previous listing),
``covered`` (something lies on it; the listing's ``covered_by`` says what), ``guessed`` (the page gave it no
name: guessed from title, alt, icon file or class words), ``in=`` (the container that tells it apart from
same-named items), and when asked for, ``id=`` and ``box=x,y,w,h``. A name or value that could be read as more
than itself (empty, starting with a quote, or holding ``" | "``) is written as a JSON string. The object form
has the same facts under the keys of :data:`OBJECT_KEYS`; a row leaves out only the container's role
(``in_role``), which programs get from the object form.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

SEP = " | "
# Facts of the item itself; every other key of a row is a state key.
_FLAGS = {"new": "new", "covered": "covered", "guessed": "name_guessed"}
_TEXT = {"type": "type", "frame": "frame", "in": "in", "id": "id"}
_STATE_INTS = frozenset({"level", "files"})
OBJECT_KEYS = ("n", "id", "role", "name", "name_guessed", "type", "frame", "state", "in_viewport", "covered",
               "new", "in", "in_role", "box")
_DECODER = json.JSONDecoder()


def _text(value: str) -> str:
    """``value`` as written in a row: bare, or as a JSON string when it could be misread."""
    if not value or value.startswith('"') or SEP in value or value != value.strip():
        return json.dumps(value, ensure_ascii=False)
    return value


def _state_fact(key: str, value: Any) -> str:
    if value is True:
        return key
    if value is False:
        return f"{key}=false"
    return f"{key}={_text(str(value))}"


def format_row(item: Mapping[str, Any]) -> str:
    """One item of the object form (``ListedElement.to_dict``) as a row."""
    facts = [f"{item.get('n', '?')} {item.get('role') or '?'} {_text(str(item.get('name') or ''))}"]
    for key, value in (item.get("state") or {}).items():
        facts.append(_state_fact(str(key), value))
    for fact, key in _TEXT.items():
        if item.get(key):
            facts.append(f"{fact}={_text(str(item[key]))}")
    for fact, key in _FLAGS.items():
        if item.get(key):
            facts.append(fact)
    if item.get("in_viewport") is False:
        facts.append("offscreen")
    box = item.get("box")
    if isinstance(box, list | tuple) and box:
        facts.append("box=" + ",".join(f"{float(v):g}" for v in box))
    return SEP.join(facts)


def _read_text(text: str) -> tuple[str, str]:
    """A bare or JSON-quoted text at the head of ``text``, and what follows it (from ``" | "`` on, or "")."""
    if text.startswith('"'):
        value, end = _DECODER.raw_decode(text)
        return str(value), text[end:]
    cut = text.find(SEP)
    return (text, "") if cut < 0 else (text[:cut], text[cut:])


def _state_value(key: str, raw: str) -> Any:
    if key == "value":
        return raw
    if raw == "false":
        return False
    if key in _STATE_INTS and raw.isdigit():
        return int(raw)
    return raw


def parse_row(row: str) -> dict[str, Any]:
    """A row read back into the object form (raises ValueError on text that is not a row)."""
    parts = row.split(" ", 2)
    if len(parts) < 3 or not parts[0].isdigit():
        raise ValueError(f"not a listing row: {row[:80]!r}")
    name, rest = _read_text(parts[2])
    item: dict[str, Any] = {"n": int(parts[0]), "role": parts[1], "name": name}
    state: dict[str, Any] = {}
    while rest:
        if not rest.startswith(SEP):
            raise ValueError(f"not a listing row: {row[:80]!r}")
        rest = rest[len(SEP):]
        key, eq, tail = rest.partition("=")
        if eq and SEP not in key:
            value, rest = _read_text(tail)
        else:
            key, _, rest = rest.partition(SEP)
            rest = SEP + rest if rest else ""
            value = None
        _put(item, state, key, value)
    if state:
        item["state"] = state
    return item


def _put(item: dict[str, Any], state: dict[str, Any], key: str, value: str | None) -> None:
    if value is None:
        if key in _FLAGS:
            item[_FLAGS[key]] = True
        elif key == "offscreen":
            item["in_viewport"] = False
        else:
            state[key] = True
    elif key in _TEXT:
        item[_TEXT[key]] = value
    elif key == "box":
        item["box"] = [float(v) for v in value.split(",")]
    else:
        state[key] = _state_value(key, value)


def listing_items(data: Mapping[str, Any], key: str = "items") -> list[dict[str, Any]]:
    """The items of a listing or find result (``data[key]``) in the object form, whichever form they came in;
    a listing's ``off_screen_from`` is carried onto each item it covers as ``in_viewport: false``."""
    raw = data.get(key)
    if not isinstance(raw, list):
        return []
    items: list[dict[str, Any]] = []
    for entry in raw:
        if isinstance(entry, str):
            try:
                items.append(parse_row(entry))
            except ValueError:
                continue
        elif isinstance(entry, Mapping):
            items.append(dict(entry))
    off_screen = data.get("off_screen_from")
    if isinstance(off_screen, int):
        for item in items:
            if isinstance(item.get("n"), int) and item["n"] >= off_screen:
                item["in_viewport"] = False
    return items
