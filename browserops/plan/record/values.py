"""What ``browserops record`` makes of what it saw: the recording, input keys, values, the expectation after a
submit, a download's file name, and the target of a step (with the container it is in when its name repeats on the
page)."""

from __future__ import annotations

import re
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from browserops.contract import BrowserOpsError
from browserops.plan.interpret.field_values import CHECK_ROLES as CHECK_ROLES
from browserops.plan.interpret.field_values import listed_value as listed_value
from browserops.plan.interpret.guard import GuardedTools
from browserops.plan.interpret.resolve import label_key
from browserops.plan.model.steps import container_role
from browserops.words import sensitive_field_hints

TEXT_ROLES = frozenset({"textbox", "searchbox", "spinbutton"})
CLICK_ROLES = frozenset({"button", "link", "menuitem", "tab", "row"})
KEY_WORDS = 4
KEY_CHARS = 24
_KEY_DROP = re.compile(r"[^a-z0-9]+")
_FILE_DROP = re.compile(r"[^A-Za-z0-9._ -]+")


@dataclass
class Change:
    """A field the person changed on the current page."""

    item: dict[str, Any]
    value: Any
    files: list[str] = field(default_factory=list)


@dataclass
class Recording:
    title: str
    start_url: str
    steps: list[dict[str, Any]] = field(default_factory=list)
    inputs: dict[str, Any] = field(default_factory=dict)
    sensitive: list[str] = field(default_factory=list)

    def step_file(self) -> dict[str, Any]:
        return {"title": self.title, "startUrl": self.start_url, "steps": self.steps}


def save_name(suggested: str) -> str:
    """A download's suggested name as a plain file name a step may save under (a site may suggest
    ``../../x`` or an absolute path): its last part, unusual characters as ``_``."""
    last = re.split(r"[\\/]", suggested)[-1]
    name = _FILE_DROP.sub("_", last).replace("..", "_").strip(" ._-")[:120]
    return name or "download"


_DIGIT = re.compile(r"\d")


def stable_text(messages: list[str], headings: list[str]) -> str | None:
    """The text a submit's ``expect`` waits for: the first status message, else heading, without a digit (a
    reference like ``EXP-0001`` differs on every replay); else the first one cut before its first word with a
    digit (``Reference: EXP-0001`` → ``Reference:``). An expectation matches as a substring."""
    texts = [" ".join(t.split())[:200] for t in [*messages, *headings]]
    texts = [t for t in texts if t]
    for text in texts:
        if not _DIGIT.search(text):
            return text
    for text in texts:
        words = text.split(" ")
        cut = next(n for n, w in enumerate(words) if _DIGIT.search(w))
        if len(stem := " ".join(words[:cut])) >= 3:
            return stem
    return None


def field_key(name: str, taken: set[str], labels: list[str] | None = None) -> str:
    """A short, readable input key for a field: from its accessible name, or a label text the name starts with
    (a name that is the label plus its help text: ``Tags Hold down Control…`` -> ``tags``; a placeholder or title
    is an example, never the key) — ``Merchant`` -> ``merchant``, ``Billable to client`` -> ``billable_to_client``
    — at most four words and about 24 characters cut at a word; non-Latin names fall back to ``field_N``."""
    full = label_key(name)
    names = [n for n in [name, *(labels or [])] if _KEY_DROP.sub("", label_key(n)) and full.startswith(label_key(n))]
    shortest = min(names, key=lambda n: len(label_key(n))) if names else ""
    words = [w for w in _KEY_DROP.split(label_key(shortest)) if w]
    base = ""
    for n, word in enumerate(words[:KEY_WORDS]):
        longer = f"{base}_{word}" if base else word
        if n and len(longer) > KEY_CHARS:
            break
        base = longer
    base = base[:40] or f"field_{len(taken) + 1}"
    if not base[0].isalpha():
        base = f"f_{base}"
    key, n = base, 2
    while key in taken:
        key, n = f"{base}_{n}", n + 1
    taken.add(key)
    return key


def is_sensitive(item: dict[str, Any]) -> bool:
    """A password, one-time code, card, IBAN, SSN… field: the gate's vocabulary (browserops.words.SENSITIVE, in its
    languages) on the field's name, and its type, ``autocomplete`` and ``inputmode``."""
    raw = item.get("state")
    state: dict[str, Any] = raw if isinstance(raw, dict) else {}
    return bool(sensitive_field_hints(str(item.get("name", "")), str(item.get("type") or ""),
                                      str(state.get("autocomplete") or item.get("autocomplete") or ""),
                                      str(state.get("inputmode") or item.get("inputmode") or "")))


def event_value(event: dict[str, Any]) -> Any:
    """A field's new state as the page's listener reported it, or None when it did not say (a multiple
    select's choices: a list)."""
    if isinstance(event.get("values"), list):
        return [str(v) for v in event["values"]]
    if isinstance(event.get("checked"), bool):
        return event["checked"]
    if isinstance(event.get("filled"), bool):
        return event["filled"]
    if isinstance(event.get("files"), list):
        return len(event["files"])
    if isinstance(event.get("value"), str):
        return event["value"]
    return None


def same_values(now: Any, before: Any) -> bool:
    """Whether a field's state equals its starting one (a list of choices against a listing's joined text, either
    way round: a field listed with no picks has no ``values`` yet)."""
    if isinstance(now, list) != isinstance(before, list):
        joined = [", ".join(v) if isinstance(v, list) else v for v in (now, before)]
        return bool(joined[0] == joined[1])
    return bool(now == before)


def step_target(item: dict[str, Any], items: list[dict[str, Any]], labels: list[str]) -> dict[str, Any]:
    """The semantic target of a listed element: role and accessible name, its other label texts as ``labels``,
    ``frame`` outside the main frame, and — when its role and name repeat on the page — ``within``: the container
    the listing names for it (its row, post, card), with ``nth`` only when that does not tell it apart either."""
    role, name = str(item.get("role")), str(item.get("name") or "")
    wanted = label_key(name)
    same = [i for i in items if i.get("role") == role and label_key(str(i.get("name", ""))) == wanted]
    target: dict[str, Any] = {"role": role, "names": [name] if name else []}
    others = {label_key(t): t for t in labels if label_key(t) != label_key(name)}
    if others:
        target["labels"] = list(others.values())  # tried when no name matches (the page renamed the field)
    if len(same) > 1:
        container = item.get("in")
        if isinstance(container, str) and container:
            target["within"] = {"role": container_role(str(item.get("in_role") or "generic")), "names": [container]}
            same = [i for i in same if label_key(str(i.get("in") or "")) == label_key(container)]
        if len(same) > 1:
            target["nth"] = next(n for n, i in enumerate(same) if i["id"] == item["id"])
    if item.get("frame") and item.get("frame") != "main":
        target["frame"] = item["frame"]
    return target


def unlisted_control(event: dict[str, Any]) -> dict[str, Any] | None:
    """A link or button the person clicked on a page the recorder never listed (they went on before its listing
    was taken): the step's target from the click itself, its role from the element's tag, its name its text."""
    tag, name = str(event.get("tag") or ""), " ".join(str(event.get("label") or "").split())
    pressable = tag == "button" or (tag == "input" and event.get("inputType") in ("submit", "button", "image"))
    role = "link" if tag == "a" and event.get("href") else "button" if pressable else None
    return {"id": str(event.get("blindId") or ""), "role": role, "name": name} if role and name else None


def drop_searches(pending: MutableMapping[str, Any], picked: set[str], listed: Callable[[str], bool]) -> None:
    """Text typed into a box that is gone now (a combobox popup's own search box) is the search for a choice a
    combobox shows now when a word of that choice starts with it: the pick is the value, the typing is not.
    ``pending``: blind id -> change (``.item``, ``.value``); ``listed``: whether a blind id is on the page now."""
    picks = [label_key(c.value) for c in pending.values()
             if c.item.get("role") == "combobox" and isinstance(c.value, str) and c.value]
    for other, change in list(pending.items()):
        typed = label_key(change.value) if isinstance(change.value, str) else ""
        if (typed and other not in picked and change.item.get("role") in TEXT_ROLES and not listed(other)
                and any(f" {p}".find(f" {typed}") >= 0 for p in picks)):
            pending.pop(other)


async def shown_after(tools: GuardedTools) -> dict[str, Any]:
    """What the page showed after a submit, as text that a replay will show too (see :func:`stable_text`): the
    submit step's ``expect``."""
    try:
        summary = await tools.need("browser_extract", {"mode": "summary"})
    except BrowserOpsError:
        return {}
    messages = [str(m) for m in summary.get("messages") or []]
    headings = [str(h[1]) for h in summary.get("headings") or [] if len(h) > 1]
    text = stable_text(messages, headings)
    return {"expect": {"text": [text]}} if text else {}
