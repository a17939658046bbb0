"""``browserops record``: a person does the task by hand, browserops writes the step file.

The recorder never acts on the page. It lists the page through the catalogue (the element layer: every frame, every
open shadow root) when the page loads and after each thing the person does, and compares each field's value with the
one the page started with: a field whose value changed becomes one ``fill`` step (the last value wins), with a
semantic target — role and accessible name (its label texts, placeholder and title as ``labels`` when they differ),
``within`` the container the listing names when its role and name repeat (``nth`` only when that does not tell it
apart either) — and its value moved into the input data under a short key made from its shortest label. Passwords,
one-time codes, card numbers, IBANs, SSNs… are recognised (input type, ``autocomplete``, ``inputmode``, or the
field's name in the multilingual vocabulary ``browserops.words.SENSITIVE`` the gate uses) and written as ``valueRef:
{sensitive: true}`` with no value anywhere; a select's step keeps the options it offered (a pack makes them an enum),
a multiple select's value is the list of its choices. What a person does is recorded, not how: a pick in a widget
over a hidden select (Tom Select, Choices, a tag picker) is one ``select`` on the widget a person operates, the
text typed to search for it dropped; a combobox's value is what it shows once an option is picked; a checkbox or
switch that sends no change event is read after the click. A click on a form's submit button becomes a ``submit``
step whose ``expect`` is what the page showed after it (its first status message or heading, without the parts a
replay changes, such as a reference number); a click that downloads becomes an ``export`` step; another button,
link or row click an ``act`` step; Escape while something is open a ``press`` step, and Enter that sends a form
with no submit button a ``submit`` by ``press``. No CSS, no scripts.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol
from urllib.parse import urlsplit

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.plan.interpret.guard import GuardedTools
from browserops.plan.interpret.pages import settle
from browserops.plan.interpret.resolve import label_key, list_all
from browserops.plan.record.fills import FieldNotes, fill_step
from browserops.plan.record.values import (
    CHECK_ROLES,
    CLICK_ROLES,
    TEXT_ROLES,
    Change,
    Recording,
    drop_searches,
    event_value,
    is_sensitive,
    listed_value,
    same_values,
    save_name,
    shown_after,
    stable_text,
    step_target,
    unlisted_control,
)

__all__ = ["Recorder", "Recording", "save_name", "stable_text"]

QUIET_MS = 1500
PICK_ROLES = frozenset({"combobox", "listbox", "textbox", "searchbox", "button"})  # widgets over a hidden select


class Watch(Protocol):
    """What the recorder needs from the browser side (``browser/page/user_watch.py``)."""

    def new_downloads(self) -> list[str]: ...

    def new_sends(self) -> int: ...

    def document(self) -> object: ...


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
        self._earlier: list[dict[str, Any]] = []  # the last listing of the document before this one
        self._doc: object = None  # the document the baseline was taken on (the watch says which)
        self._pending: dict[str, Change] = {}  # blind id -> change, in the order first changed
        self._notes = FieldNotes()  # what the page's listener said about each field besides its value
        self._picked: set[str] = set()  # widgets whose value is an option picked (it came with the select's event)
        self._answer_due: int | None = None  # the step whose click may have opened a dialog (its answer is next)
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
        # What the browser sent or fetched before the person could start (the page left for the start URL
        # releasing a lock with a beacon as it went, the start page's own load) is not theirs: the first click's
        # sends and downloads are counted from here.
        self.watch.new_sends()
        self.watch.new_downloads()

    async def _relist(self, *, new_page: bool = False) -> None:
        doc = self.watch.document()
        items, _, _ = await list_all(self.tools)
        if new_page:
            self._items, self._earlier, self._doc = items, [], doc
            self._baseline = {str(i["id"]): listed_value(i) for i in items}
            self._pending = {}
            self._picked = set()
            return
        if doc != self._doc or self.watch.document() != doc:
            # The page went on to another document while the recorder was still taking in what the person did
            # (a tick, then Save at once): the events still queued from the old page resolve in its last listing,
            # and the new page's fields start from what they hold — they are no changes of the old page.
            self._earlier, self._doc = self._items, self.watch.document()
            for item in items:
                self._baseline.setdefault(str(item["id"]), listed_value(item))
        self._items = items
        for item in items:
            blind = str(item["id"])
            if blind in self._notes.secret or blind in self._picked:
                continue  # only whether it is filled is known / the option picked came with its event
            if (blind in self._pending and isinstance(self._pending[blind].value, str) and not is_sensitive(item)
                    and item.get("role") != "combobox"):
                continue  # its full value came with its own event (a listing cuts long values)
            # A combobox's typed text is a search until an option is picked: what it shows now is the choice.
            self._changed(blind, item, listed_value(item))
        drop_searches(self._pending, self._picked, lambda blind: self._item(blind) is not None)

    def _changed(self, blind: str, item: dict[str, Any], now: Any) -> None:
        before = self._baseline.get(blind, False if item.get("role") in CHECK_ROLES else "")
        if isinstance(now, bool) and isinstance(before, str):
            before = bool(before)  # a secret field's event says only whether it is filled
        if not same_values(now, before):
            change = self._pending.setdefault(blind, Change(item, now))
            change.value, change.item = now, item
        else:
            self._pending.pop(blind, None)

    async def handle(self, event: dict[str, Any]) -> None:
        """One thing the person did (from the page's listener)."""
        if event.get("type") == "change":
            await self._on_change(event)
        elif event.get("type") == "click":
            await self._on_click(event)
        elif event.get("type") == "key":
            await self._on_key(event)
        elif event.get("type") == "dialog":
            await self._on_dialog(event)

    async def _on_change(self, event: dict[str, Any]) -> None:
        blind = str(event.get("blindId") or "")
        self._notes.take(blind, event)
        item = self._known(blind)
        now = event_value(event)
        if event.get("moved") and item is not None and now is not None:  # a chooser's list: what it holds
            self._picked.add(blind)
            self._changed(blind, item, now)
            return await self._relist()
        if item is None or now is None:
            await self._relist()  # not listed yet, or a widget whose value only the listing tells
            if self._item(blind) is None and now is not None and isinstance(event.get("options"), list):
                self._picked_in_widget(event, now)
            return
        # The state came with the event: no listing, which could already see the next page after a submit.
        self._changed(blind, item, now)
        if event.get("checked") is True:
            for other in event.get("group") or []:
                sibling = self._known(str(other))
                if sibling is not None and str(other) != blind:
                    self._changed(str(other), sibling, False)

    def _picked_in_widget(self, event: dict[str, Any], now: Any) -> None:
        """A select nobody sees changed: a widget over it (Tom Select, Choices, a tag picker) took the person's
        pick. The pick is recorded on the widget a person operates — the listed control named like the select's
        label — and the text typed to search for it is dropped (it is a search, not a value)."""
        names = {label_key(t) for t in event.get("labels") or [] if str(t).strip()}
        # The widget the page showed for it, when the listener saw one holding or beside the select (user_watch.js);
        # else the listed control named like the select's label.
        beside = self._item(str(event.get("widget") or ""))
        widgets = [beside] if beside is not None and beside.get("role") in PICK_ROLES else [
            i for i in self._items if i.get("role") in PICK_ROLES and label_key(str(i.get("name", ""))) in names]
        if not widgets:
            return
        widget = min(widgets, key=lambda i: (i.get("role") != "combobox", int(i.get("n") or 0)))
        blind = str(widget["id"])
        self._picked.add(blind)
        offered = [str(o) for o in event.get("options") or [] if str(o).strip()]  # an unlisted select has no notes
        self._notes.options[blind] = offered or self._notes.options.get(str(event.get("blindId")), [])
        labels = [str(t) for t in event.get("labels") or [] if str(t).strip()]
        self._notes.labels[blind] = list(dict.fromkeys([*labels, *self._notes.labels.get(blind, [])]))
        if labels:
            self._notes.key_names[blind] = labels[0]  # the select's own label names the business field
        self._pending.pop(blind, None)
        self._changed(blind, widget, now)
        picked = [label_key(v) for v in (now if isinstance(now, list) else [now])]
        for other, change in list(self._pending.items()):
            typed = label_key(change.value) if isinstance(change.value, str) else ""
            gone = self._item(other) is None
            # Another widget's pick is a value, not a search, even once its input is hidden (out of the listing).
            if other != blind and other not in self._picked and typed and (gone or any(p.startswith(typed)
                                                                                        for p in picked)):
                self._pending.pop(other)  # the search typed into the widget (or its transient search box)

    async def _on_click(self, event: dict[str, Any]) -> None:
        # Resolved in the listing of the page the click happened on: a submit may already be navigating away.
        item = self._clicked(event)
        if item is None or item.get("role") not in CLICK_ROLES | CHECK_ROLES | TEXT_ROLES:
            await self._relist()  # an option of a custom list, or an element not listed yet
            item = item or self._clicked(event) or unlisted_control(event)
        if item is not None and item.get("role") in CHECK_ROLES:
            if event.get("tag") == "input" and event.get("inputType") in ("checkbox", "radio"):
                return  # a native one: its change event says its state (no wait, the person may submit at once)
            # A custom checkbox or switch sends no change event: its state is read once the page reacted.
            await self.tools.need("browser_wait", {"state": "dom_quiet", "timeout_ms": QUIET_MS})
            await self._relist()
            return
        if item is None or item.get("role") in TEXT_ROLES | {"combobox"}:
            return  # a field: its value change is what gets recorded
        if item.get("type") == "file":
            return
        if item.get("role") not in CLICK_ROLES and not event.get("submits"):
            return
        self._flush()
        target = self._target(item)
        # Settled: no request in flight (a download's included) and the DOM quiet — unless the click opened a
        # dialog the person has not answered yet: the step is finished when the answer comes (_on_dialog).
        settled = await self._settled()
        downloads = self.watch.new_downloads()
        # A submit after which the page sent nothing to a server (a sign-in checked in the page) is written so:
        # replayed, the run must not wait for a save that never comes (BROWSER_NOT_SAVED).
        sends = self.watch.new_sends() if settled else None
        quiet = {"sends": False} if sends == 0 else {}
        what = f"{item.get('role')} \"{item.get('name')}\""
        step: dict[str, Any] = {"kind": "act", "target": target}
        if downloads:
            step = {"kind": "export", "target": target, "saveAs": save_name(downloads[0])}
            if sends:  # a form post answered with the file: an export that sends, run only with --confirm
                step["sideEffect"] = "browser-act"
            what += f" -> {step['saveAs']}"
        elif event.get("submits"):
            step = {"kind": "submit", "target": target, **quiet, **(await shown_after(self.tools) if settled else {})}
        self.recording.steps.append(step)
        self._answer_due = len(self.recording.steps) - 1
        if settled:
            await self._relist(new_page=True)  # what the page holds now is the new starting point
        # Said once the page after it is taken in: what the person does next is compared with that page.
        self.say(f"{'click' if step['kind'] == 'act' else step['kind']}: {what}")

    async def _settled(self) -> bool:
        """Wait until the page settled; False when a dialog blocks it (the person has not answered it yet)."""
        try:
            await settle(self.tools)
        except BrowserOpsError as exc:
            if exc.code is not ErrorCode.DIALOG_OPEN:
                raise
            return False
        return True

    async def _on_dialog(self, event: dict[str, Any]) -> None:
        """The person answered a browser dialog: the click or press that opened it says so in the step file
        (``dialog: accept`` or ``dismiss``, with the dialog's first words to check at replay)."""
        due, self._answer_due = self._answer_due, None
        if due is None or due >= len(self.recording.steps):
            return
        step = self.recording.steps[due]
        words = " ".join(str(event.get("message") or "").split())[:80].rstrip()
        step["dialog"] = {"answer": "accept" if event.get("accepted") else "dismiss", **({"text": [words]} if words
                                                                                         else {})}
        self.say(f"dialog: {step['dialog']['answer']}")
        if await self._settled():
            if step["kind"] == "submit" and "expect" not in step:
                step.update(await shown_after(self.tools))
            await self._relist(new_page=True)

    async def _on_key(self, event: dict[str, Any]) -> None:
        """Escape that closed something open, or Enter that sent a form with no submit button: a press step."""
        key = str(event.get("key") or "")
        item = self._known(str(event.get("blindId") or ""))
        target = self._target(item) if item is not None and (item.get("name") or "").strip() else None
        self._flush()
        where = f" on {target['role']} \"{target['names'][0]}\"" if target is not None else ""
        if key == "Enter" and event.get("submits") and target is not None:
            await settle(self.tools)
            self.recording.steps.append({"kind": "submit", "action": "press", "key": "Enter", "target": target,
                                         **await shown_after(self.tools)})
            await self._relist(new_page=True)
            self.say(f"submit: Enter{where}")
            return
        step: dict[str, Any] = {"kind": "press", "key": key}
        if target is not None:
            step["target"] = target
        self.recording.steps.append(step)
        self._answer_due = len(self.recording.steps) - 1
        await self.tools.need("browser_wait", {"state": "dom_quiet", "timeout_ms": QUIET_MS})
        await self._relist(new_page=True)
        self.say(f"press: {key}{where}")

    def _item(self, blind: str) -> dict[str, Any] | None:
        return next((i for i in self._items if str(i["id"]) == blind), None) if blind else None

    def _known(self, blind: str) -> dict[str, Any] | None:
        """The element in the current listing, else in the last one of the document before (an event the person
        caused there, taken in after the recorder already saw the next page)."""
        if not blind:
            return None
        return self._item(blind) or next((i for i in self._earlier if str(i["id"]) == blind), None)

    def _clicked(self, event: dict[str, Any]) -> dict[str, Any] | None:
        blind = event.get("blindId")
        if blind and (item := self._known(str(blind))) is not None:
            return item
        label = label_key(str(event.get("label") or ""))
        if not label:
            return None
        for item in self._items:
            if item.get("role") in CLICK_ROLES and label_key(str(item.get("name", ""))) == label:
                return item
        return None

    def _target(self, item: dict[str, Any]) -> dict[str, Any]:
        listing = next((listed for listed in (self._items, self._earlier)
                        if any(i["id"] == item["id"] for i in listed)), [item])
        return step_target(item, listing, self._notes.labels.get(str(item["id"]), []))

    def _flush(self) -> None:
        """The current page's changed fields become fill steps, in the order they were first changed."""
        for blind, change in self._pending.items():
            choices = self._choices(blind) if change.item.get("role") == "radio" else []
            line = fill_step(self.recording, blind, change, self._target(change.item), self._notes, self._keys,
                             choices)
            if line is not None:
                self.say(line)
        self._pending = {}

    def _choices(self, blind: str) -> list[str]:
        """The names of the radios in a chosen radio's named group (empty: no name, or fewer than two)."""
        _, members = self._notes.groups.get(blind, ("", []))
        names = [str(i.get("name") or "") for m in members if (i := self._known(m)) is not None]
        return names if len(names) > 1 and all(names) else []

    def finish(self) -> Recording:
        """End of the recording: fields changed since the last click are steps too."""
        self._flush()
        return self.recording

