"""How ``record`` writes a field the person changed as a ``fill`` step: its verb (type, select, check, upload), where
its value goes in the input data (a sensitive one nowhere), and what the page's listener told about the field
beyond its value (:class:`FieldNotes`: its files, the choices it offered, its label texts, its radio group, whether
its value was withheld)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from browserops.plan.record.values import CHECK_ROLES, Change, Recording, field_key, is_sensitive


@dataclass
class FieldNotes:
    """What the page's listener said about each field (by blind id) besides its value."""

    files: dict[str, list[str]] = field(default_factory=dict)
    options: dict[str, list[str]] = field(default_factory=dict)  # the choices a select offered
    labels: dict[str, list[str]] = field(default_factory=dict)  # the field's label texts, placeholder, title
    groups: dict[str, tuple[str, list[str]]] = field(default_factory=dict)  # radio -> (group's label, its radios)
    secret: set[str] = field(default_factory=set)  # fields whose value the listener withheld (autocomplete says so)
    key_names: dict[str, str] = field(default_factory=dict)  # widget -> the label of the select it stands for

    def take(self, blind: str, event: dict[str, Any]) -> None:
        """Keep what a change event of field ``blind`` says about it."""
        if not blind:
            return
        if event.get("files") is not None:
            self.files[blind] = [str(f) for f in event["files"]]
        if isinstance(event.get("labels"), list):
            self.labels[blind] = [str(t) for t in event["labels"] if str(t).strip()]
        if event.get("groupLabel") and isinstance(event.get("group"), list):
            self.groups[blind] = (str(event["groupLabel"]), [str(g) for g in event["group"]])
        if isinstance(event.get("filled"), bool):
            self.secret.add(blind)
        if isinstance(event.get("options"), list):
            self.options[blind] = [str(o) for o in event["options"] if str(o).strip()]


def fill_step(recording: Recording, blind: str, change: Change, target: dict[str, Any], notes: FieldNotes,
              keys: set[str], choices: list[str]) -> str | None:
    """Write field ``blind``'s change as a fill step into ``recording`` (its value into the inputs); the progress
    line, or None when it makes no step (an unnamed field, the radio that was left). ``choices``: the names of the
    radios in its group, for a radio."""
    item, value = change.item, change.value
    role, name = str(item.get("role")), str(item.get("name") or "")
    if not target["names"] and not target.get("labels"):
        return None  # an unnamed field cannot be found again by meaning; the author adds it by hand
    key = field_key(notes.key_names.get(blind, name), keys, notes.labels.get(blind))
    if role == "radio" and value is not True:
        return None  # the radio that was left (its key stays taken, as it always has); the chosen one records it
    step: dict[str, Any] = {"kind": "fill", "field": key, "target": target}
    inputs = recording.inputs
    if role == "radio":
        step.update(action="check", value=True, display=name)
        keys.discard(key)
        if choices:  # a named group: the choice among its radios (a pack makes them an enum)
            step.update(field=field_key(notes.groups[blind][0], keys), options=choices)
            inputs[step["field"]] = name  # for a pack; the step itself names the radio
    elif role in CHECK_ROLES:
        step.update(action="check", valueRef={"key": key})
        inputs[key] = bool(value)
    elif item.get("type") == "file":
        names = notes.files.get(blind) or []
        step.update(action="upload", valueRef={"key": key})
        inputs[key] = names[0] if len(names) == 1 else names
    elif is_sensitive(item) or blind in notes.secret:
        step.update(action="type", valueRef={"key": key, "sensitive": True})
        inputs[key] = None
        recording.sensitive.append(key)
    elif role in ("combobox", "listbox") or item.get("type") == "select" or isinstance(value, list):
        step.update(action="select", valueRef={"key": key})
        if notes.options.get(blind):
            step["options"] = notes.options[blind]
        inputs[key] = value
    else:
        step.update(action="type", valueRef={"key": key})
        inputs[key] = value
    recording.steps.append(step)
    return f"fill: {role} \"{name}\"" + (" (sensitive: no value kept)" if key in recording.sensitive else "")
