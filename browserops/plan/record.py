"""``browserops record``: a person does the task by hand, browserops writes the step file.

The recorder never acts on the page. It lists the page through the catalogue (the element layer: every frame, every
open shadow root) when the page loads and after each thing the person does, and compares each field's value with the
one the page started with: a field whose value changed becomes one ``fill`` step (the last value wins), with a
semantic target — role and accessible name (its label texts, placeholder and title as ``labels`` when they differ),
``nth`` only when names do not tell elements apart — and its value moved into the input data under a key named after
the field. Passwords, one-time codes, card numbers, IBANs, SSNs… are recognised (input type, ``autocomplete``,
``inputmode``, or the field's name in the policy's multilingual vocabulary, policy_words.SENSITIVE) and written
as ``valueRef: {sensitive: true}`` with no value anywhere; a select's step keeps the options it offered (a pack
makes them an enum). A click on a form's submit button becomes a ``submit`` step whose ``expect`` is what the page
showed after it (its first status message or heading, without the parts a replay changes, such as a reference
number); a click that downloads becomes an ``export`` step; another button or link click an ``act`` step. No CSS, no
scripts.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import urlsplit

from browserops.contract import BrowserOpsError
from browserops.plan.guard import GuardedTools
from browserops.plan.resolve import label_key, list_all
from browserops.words import sensitive_field_hints

SETTLE_MS = 3000
TEXT_ROLES = frozenset({"textbox", "searchbox", "spinbutton"})
CHECK_ROLES = frozenset({"checkbox", "switch", "radio"})
CLICK_ROLES = frozenset({"button", "link", "menuitem", "tab"})
_KEY_DROP = re.compile(r"[^a-z0-9]+")
_FILE_DROP = re.compile(r"[^A-Za-z0-9._ -]+")


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


class Watch(Protocol):
    """What the recorder needs from the browser side (``browser/page/user_watch.py``)."""

    def new_downloads(self) -> list[str]: ...


def field_key(name: str, taken: set[str]) -> str:
    """An input key from a field's accessible name: ``Merchant`` → ``merchant``, ``Billable to client`` →
    ``billable_to_client``; non-Latin names fall back to ``field_N``."""
    base = _KEY_DROP.sub("_", label_key(name)).strip("_")[:40] or f"field_{len(taken) + 1}"
    if not base[0].isalpha():
        base = f"f_{base}"
    key, n = base, 2
    while key in taken:
        key, n = f"{base}_{n}", n + 1
    taken.add(key)
    return key


def is_sensitive(item: dict[str, Any]) -> bool:
    """A password, one-time code, card, IBAN, SSN… field: the policy's vocabulary (policy_words.SENSITIVE, in its
    languages) on the field's name, and its type, ``autocomplete`` and ``inputmode``."""
    raw = item.get("state")
    state: dict[str, Any] = raw if isinstance(raw, dict) else {}
    return bool(sensitive_field_hints(str(item.get("name", "")), str(item.get("type") or ""),
                                      str(state.get("autocomplete") or item.get("autocomplete") or ""),
                                      str(state.get("inputmode") or item.get("inputmode") or "")))


def _value(item: dict[str, Any]) -> Any:
    state = item.get("state") or {}
    role = item.get("role")
    if role in CHECK_ROLES:
        return state.get("checked") is True
    if item.get("type") == "file":
        return int(state.get("files") or 0)
    if item.get("type") == "password":
        return bool(state.get("filled"))
    return str(state.get("value") or "")


def _event_value(event: dict[str, Any]) -> Any:
    """A field's new state as the page's listener reported it, or None when it did not say."""
    if isinstance(event.get("checked"), bool):
        return event["checked"]
    if isinstance(event.get("filled"), bool):
        return event["filled"]
    if isinstance(event.get("files"), list):
        return len(event["files"])
    if isinstance(event.get("value"), str):
        return event["value"]
    return None


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


class Recorder:
    """Turns the page's listings and the person's clicks into steps. Feed it events with :meth:`handle`."""

    def __init__(self, tools: GuardedTools, watch: Watch, start_url: str,
                 progress: Callable[[str], None] | None = None) -> None:
        parts = urlsplit(start_url)
        where = f"{parts.hostname}{parts.path if parts.path not in ('', '/') else ''}" if parts.hostname else start_url
        self.tools = tools
        self.watch = watch
        self.recording = Recording(title=f"Recorded on {where}"[:200], start_url=start_url)
        self.progress = progress
        self._baseline: dict[str, Any] = {}
        self._items: list[dict[str, Any]] = []
        self._pending: dict[str, Change] = {}  # blind id -> change, in the order first changed
        self._files: dict[str, list[str]] = {}
        self._options: dict[str, list[str]] = {}  # blind id -> the choices a select offered
        self._labels: dict[str, list[str]] = {}  # blind id -> the field's label texts, placeholder, title
        self._groups: dict[str, tuple[str, list[str]]] = {}  # radio blind id -> (group's label, its radios' ids)
        self._secret: set[str] = set()  # fields whose value the page's listener withheld (autocomplete says so)
        self._keys: set[str] = set()

    @property
    def pending_fields(self) -> list[str]:
        """Names of the fields changed on the current page and not yet written as steps."""
        return [str(c.item.get("name", "")) for c in self._pending.values()]

    def say(self, line: str) -> None:
        if self.progress:
            self.progress(line)

    async def begin(self) -> None:
        await self._relist(new_page=True)

    async def _relist(self, *, new_page: bool = False) -> None:
        items, _, _ = await list_all(self.tools)
        self._items = items
        if new_page:
            self._baseline = {str(i["id"]): _value(i) for i in items}
            self._pending = {}
            return
        for item in items:
            blind = str(item["id"])
            if blind in self._secret:
                continue  # only whether it is filled is known, and that came with its event
            if blind in self._pending and isinstance(self._pending[blind].value, str) and not is_sensitive(item):
                continue  # its full value came with its own event (a listing cuts long values)
            self._changed(blind, item, _value(item))

    def _changed(self, blind: str, item: dict[str, Any], now: Any) -> None:
        before = self._baseline.get(blind, False if item.get("role") in CHECK_ROLES else "")
        if isinstance(now, bool) and isinstance(before, str):
            before = bool(before)  # a secret field's event says only whether it is filled
        if now != before:
            change = self._pending.setdefault(blind, Change(item, now))
            change.value, change.item = now, item
        else:
            self._pending.pop(blind, None)

    async def handle(self, event: dict[str, Any]) -> None:
        """One thing the person did (from the page's listener)."""
        if event.get("type") == "change":
            blind = str(event.get("blindId") or "")
            if event.get("files") is not None and blind:
                self._files[blind] = [str(f) for f in event["files"]]
            if isinstance(event.get("labels"), list) and blind:
                self._labels[blind] = [str(t) for t in event["labels"] if str(t).strip()]
            if event.get("groupLabel") and isinstance(event.get("group"), list) and blind:
                self._groups[blind] = (str(event["groupLabel"]), [str(g) for g in event["group"]])
            if isinstance(event.get("filled"), bool) and blind:
                self._secret.add(blind)
            if isinstance(event.get("options"), list) and blind:
                self._options[blind] = [str(o) for o in event["options"] if str(o).strip()]
            item = self._item(blind)
            now = _event_value(event)
            if item is None or now is None:
                await self._relist()  # not listed yet, or a widget whose value only the listing tells
                return
            # The state came with the event: no listing, which could already see the next page after a submit.
            self._changed(blind, item, now)
            if event.get("checked") is True:
                for other in event.get("group") or []:
                    sibling = self._item(str(other))
                    if sibling is not None and str(other) != blind:
                        self._changed(str(other), sibling, False)
            return
        if event.get("type") != "click":
            return
        # Resolved in the listing of the page the click happened on: a submit may already be navigating away.
        item = self._clicked(event)
        if item is None or item.get("role") not in CLICK_ROLES | CHECK_ROLES | TEXT_ROLES:
            await self._relist()  # an option of a custom list, or an element not listed yet
            item = item or self._clicked(event)
        if item is None or item.get("role") in CHECK_ROLES or item.get("role") in TEXT_ROLES | {"combobox"}:
            return  # a field: its value change is what gets recorded
        if item.get("type") == "file":
            return
        if item.get("role") not in CLICK_ROLES and not event.get("submits"):
            return
        self._flush()
        # Settled: no request in flight (a download's included) and the DOM quiet.
        await self.tools.need("browser_wait", {"state": "settled", "timeout_ms": SETTLE_MS})
        downloads = self.watch.new_downloads()
        target = self._target(item)
        if downloads:
            name = save_name(downloads[0])
            self.recording.steps.append({"kind": "export", "target": target, "saveAs": name})
            self.say(f"export: {item.get('role')} \"{item.get('name')}\" -> {name}")
        elif event.get("submits"):
            self.recording.steps.append({"kind": "submit", "target": target, **await self._expect()})
            self.say(f"submit: {item.get('role')} \"{item.get('name')}\"")
        else:
            self.recording.steps.append({"kind": "act", "target": target})
            self.say(f"click: {item.get('role')} \"{item.get('name')}\"")
        await self._relist(new_page=True)  # what the page holds now is the new starting point

    def _item(self, blind: str) -> dict[str, Any] | None:
        return next((i for i in self._items if str(i["id"]) == blind), None) if blind else None

    def _clicked(self, event: dict[str, Any]) -> dict[str, Any] | None:
        blind = event.get("blindId")
        if blind:
            for item in self._items:
                if str(item["id"]) == blind:
                    return item
        label = label_key(str(event.get("label") or ""))
        if not label:
            return None
        for item in self._items:
            if item.get("role") in CLICK_ROLES and label_key(str(item.get("name", ""))) == label:
                return item
        return None

    async def _expect(self) -> dict[str, Any]:
        """What the page showed after a submit, as text that a replay will show too (see :func:`stable_text`)."""
        try:
            summary = await self.tools.need("browser_extract", {"mode": "summary"})
        except BrowserOpsError:
            return {}
        messages = [str(m) for m in summary.get("messages") or []]
        headings = [str(h[1]) for h in summary.get("headings") or [] if len(h) > 1]
        text = stable_text(messages, headings)
        return {"expect": {"text": [text]}} if text else {}

    def _target(self, item: dict[str, Any]) -> dict[str, Any]:
        role, name = str(item.get("role")), str(item.get("name") or "")
        wanted = label_key(name)
        same = [i for i in self._items if i.get("role") == role and label_key(str(i.get("name", ""))) == wanted]
        target: dict[str, Any] = {"role": role, "names": [name] if name else []}
        others = {label_key(t): t for t in self._labels.get(str(item["id"]), []) if label_key(t) != label_key(name)}
        if others:
            target["labels"] = list(others.values())  # tried when no name matches (the page renamed the field)
        if len(same) > 1:
            target["nth"] = next(n for n, i in enumerate(same) if i["id"] == item["id"])
        if item.get("frame") and item.get("frame") != "main":
            target["frame"] = item["frame"]
        return target

    def _flush(self) -> None:
        """The current page's changed fields become fill steps, in the order they were first changed."""
        for blind, change in self._pending.items():
            item, value = change.item, change.value
            role, name = str(item.get("role")), str(item.get("name") or "")
            target = self._target(item)
            if not target["names"] and not target.get("labels"):
                continue  # an unnamed field cannot be found again by meaning; the author adds it by hand
            key = field_key(name, self._keys)
            step: dict[str, Any] = {"kind": "fill", "field": key, "target": target}
            if role in CHECK_ROLES:
                if role == "radio":
                    if value is not True:
                        continue  # the radio that was left; the one chosen records the choice
                    step.update(action="check", value=True, display=name)
                    self._keys.discard(key)
                    choices = self._choices(blind)
                    if choices:  # a named group: the choice among its radios (a pack makes them an enum)
                        step.update(field=field_key(self._groups[blind][0], self._keys), options=choices)
                        self.recording.inputs[step["field"]] = name  # for a pack; the step itself names the radio
                else:
                    step.update(action="check", valueRef={"key": key})
                    self.recording.inputs[key] = bool(value)
            elif item.get("type") == "file":
                names = self._files.get(blind) or []
                step.update(action="upload", valueRef={"key": key})
                self.recording.inputs[key] = names[0] if len(names) == 1 else names
            elif is_sensitive(item) or blind in self._secret:
                step.update(action="type", valueRef={"key": key, "sensitive": True})
                self.recording.inputs[key] = None
                self.recording.sensitive.append(key)
            elif role == "combobox" or item.get("type") == "select":
                step.update(action="select", valueRef={"key": key})
                if self._options.get(blind):
                    step["options"] = self._options[blind]
                self.recording.inputs[key] = value
            else:
                step.update(action="type", valueRef={"key": key})
                self.recording.inputs[key] = value
            self.recording.steps.append(step)
            self.say(f"fill: {role} \"{name}\"" + (" (sensitive: no value kept)" if key in self.recording.sensitive
                                                     else ""))
        self._pending = {}

    def _choices(self, blind: str) -> list[str]:
        """The names of the radios in a chosen radio's named group (empty: no name, or fewer than two)."""
        _, members = self._groups.get(blind, ("", []))
        names = [str(i.get("name") or "") for m in members if (i := self._item(m)) is not None]
        return names if len(names) > 1 and all(names) else []

    def finish(self) -> Recording:
        """End of the recording: fields changed since the last click are steps too."""
        self._flush()
        return self.recording


async def record_events(recorder: Recorder, next_event: Callable[[], Awaitable[dict[str, Any] | None]],
                        on_ready: Callable[[], None] | None = None) -> Recording:
    """Feed events until ``next_event`` returns None (the window closed, or the recording was stopped).
    ``on_ready``: called once the page's first listing is taken (the person may start then)."""
    await recorder.begin()
    if on_ready is not None:
        on_ready()
    while True:
        event = await next_event()
        if event is None:
            return recorder.finish()
        await recorder.handle(event)
