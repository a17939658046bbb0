"""A pack written from a (recorded) step file: what ``browserops pack new NAME --from-steps FILE`` generates.

The pack's pydantic ``Input`` has one field per ``valueRef`` key, its type inferred from the recorded value in the
input file beside the steps (``<steps>.input.yaml``, or ``--input``): ``bool`` for a checkbox, ``dt.date`` for
``YYYY-MM-DD``, ``Decimal`` for a plain number, a ``Literal`` enum of the options a select offered, an optional
``Path`` for an upload (only its name was recorded), ``SecretStr`` for a sensitive key (never given a value in the
pack), else ``str``. ``build_steps`` reproduces the step file with those values; a step's raised side-effect
class stays raised. Targets are copied as recorded (role and names, ``nth``/``frame`` when recorded): add other
languages' names by hand.

This module decides *what* the pack says (:class:`RecordedPack`: fields, steps as code, the example);
``templates/recorded_pack.py.j2`` decides how the module reads.
"""

from __future__ import annotations

import dataclasses
import keyword
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.packs.template_env import render
from browserops.plan.model.loader import load_steps
from browserops.plan.steps import Action, Step

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_NUMBER = re.compile(r"^-?(0|[1-9]\d*)(\.\d+)?$")


@dataclass(frozen=True)
class InputField:
    """One field of the pack's ``Input``: ``kind`` says how the template writes it."""

    key: str
    annotation: str
    kind: Literal["plain", "secret", "file"]
    description: str = ""  # a file's: what was recorded


@dataclass
class StepGroup:
    """Steps written as one list literal, or (``file_key``) one upload step added when its file is given."""

    steps: list[str] = field(default_factory=list)
    file_key: str = ""


@dataclass
class RecordedPack:
    """Everything the template needs to write ``pack.py`` for one step file."""

    name: str
    steps_name: str
    title: str
    description: str
    start_path: str
    fields: list[InputField] = field(default_factory=list)
    groups: list[StepGroup] = field(default_factory=list)
    example: dict[str, Any] = field(default_factory=dict)
    exports: list[str] = field(default_factory=list)
    file_keys: list[str] = field(default_factory=list)
    count: int = 1  # steps the example builds (the navigation included)


def _field_type(step: Step, value: Any) -> tuple[str, str]:
    """(annotation, expression that turns ``inp.<key>`` into the step's value)."""
    assert step.value_ref is not None
    key = step.value_ref.key
    if step.value_ref.sensitive:
        return "SecretStr | None", ""
    if step.action is Action.CHECK:
        return "bool", f"inp.{key}"
    if step.action is Action.UPLOAD:
        return "Path | None", f"str(ctx.resolve(inp.{key}))"
    choices = list(dict.fromkeys(step.options or []))
    if step.action is Action.SELECT and isinstance(value, str) and value in choices:
        return f"Literal[{', '.join(repr(c) for c in choices)}]", f"inp.{key}"
    if isinstance(value, str) and _DATE.match(value):
        return "dt.date", f"inp.{key}.isoformat()"
    if isinstance(value, str) and _NUMBER.match(value):
        places = len(value.split(".", 1)[1]) if "." in value else 0
        return "Decimal", f'f"{{inp.{key}:.{places}f}}"'
    return "str", f"inp.{key}"


def _radio_choice(step: Step) -> bool:
    """A recorded radio choice: checking one radio of a group whose radios' names are its ``options``."""
    return (step.action is Action.CHECK and bool(step.options) and step.field is not None
            and step.target is not None and step.target.role == "radio" and step.value_ref is None)


def _target_code(step: Step, choice: str = "") -> str:
    assert step.target is not None
    t = step.target
    parts = [f"role={t.role!r}", f"names=[inp.{choice}]" if choice else f"names={list(t.names)!r}"]
    if t.labels:
        parts.append(f"labels={list(t.labels)!r}")
    if t.nth:
        parts.append(f"nth={t.nth}")
    if t.frame:
        parts.append(f"frame={t.frame!r}")
    if t.within is not None:
        parts.append(f"within=Within(role={t.within.role!r}, names={list(t.within.names)!r})")
    return f"SemanticTarget({', '.join(parts)})"


def _value_parts(step: Step, expr: str, choice: str) -> list[str]:
    parts = []
    if step.value_ref is not None and step.value_ref.sensitive:
        parts.append(f"value_ref=ValueRef(key={step.value_ref.key!r}, sensitive=True)")
    elif expr:
        parts.append(f"value={expr}")
    elif step.value is not None:
        parts.append(f"value={step.value!r}")
    if choice:
        parts.append(f"display=inp.{choice}")
    elif step.display is not None:
        parts.append(f"display={step.display!r}")
    return parts


def _step_code(step: Step, expr: str, choice: str = "") -> str:
    """``Step(...)`` for the pack; ``choice``: the Input field whose value names the radio to check."""
    kind = step.kind.value if step.kind else None
    parts = [f"kind={kind!r}"] if kind else []
    if step.action is not None and kind == "fill":
        parts.append(f"action={str(step.action)!r}")
    if step.field:
        parts.append(f"field={step.field!r}")
    if step.url:
        parts.append(f"url={step.url!r}")
    if step.target is not None:
        parts.append(f"target={_target_code(step, choice)}")
    parts += _value_parts(step, expr, choice)
    if step.expect is not None:
        expect = []
        if step.expect.text:
            expect.append(f"text={list(step.expect.text)!r}")
        if step.expect.url_contains:
            expect.append(f"url_contains={step.expect.url_contains!r}")
        parts.append(f"expect=Expectation({', '.join(expect)})")
    if step.save_as:
        parts.append(f"save_as={step.save_as!r}")
    if step.title:
        parts.append(f"title={step.title!r}")
    if step.optional:
        parts.append("optional=True")
    # A side-effect class the file raised stays raised in the pack (the default is what the action implies).
    plain = Step.model_validate(step.model_dump(by_alias=True, exclude_none=True,
                                                exclude={"side_effect", "tool", "options"}))
    if step.side_effect is not plain.side_effect and step.side_effect is not None:
        parts.append(f"side_effect=SideEffect.{step.side_effect.name}")
    if step.tool != plain.tool:
        parts.append(f"tool={step.tool!r}")
    return f"Step({', '.join(parts)})"


def _check_keys(steps_path: Path, steps: list[Step]) -> None:
    wanted = {s.value_ref.key for s in steps if s.value_ref is not None}
    wanted |= {str(s.field) for s in steps if _radio_choice(s)}
    bad = sorted(k for k in wanted if not k.isidentifier() or keyword.iskeyword(k) or k.startswith("_"))
    if bad:
        raise BrowserOpsError(ErrorCode.PLAN_INVALID, f"{steps_path.name}: keys {', '.join(map(repr, bad))} "
                              "cannot be fields of a pack's Input: use letters, digits and '_' (not first, not a "
                              "Python keyword), in the step file and the input file alike.")


def _add_value_field(pack: RecordedPack, step: Step, value: Any, annotation: str) -> None:
    assert step.value_ref is not None
    key = step.value_ref.key
    if annotation.startswith("SecretStr"):
        pack.fields.append(InputField(key, annotation, "secret"))
    elif annotation.startswith("Path"):
        recorded = value if isinstance(value, str) else ", ".join(map(str, value or []))
        pack.fields.append(InputField(key, annotation, "file", f"The file to upload (recorded: {recorded[:60]!r})."))
        pack.file_keys.append(key)
    else:
        pack.fields.append(InputField(key, annotation, "plain"))
        # No value recorded for it (a hand-written file, no input file): a stand-in keeps EXAMPLE valid.
        pack.example[key] = value if value is not None else (False if annotation == "bool" else f"<{key}>")


def _add_step(pack: RecordedPack, step: Step, inputs: dict[str, Any], keys: set[str]) -> None:
    expr = ""
    file_key = ""
    if step.value_ref is not None:
        key = step.value_ref.key
        annotation, expr = _field_type(step, inputs.get(key))
        file_key = key if annotation.startswith("Path") else ""
        if key not in keys:
            keys.add(key)
            _add_value_field(pack, step, inputs.get(key), annotation)
    choice = str(step.field) if _radio_choice(step) else ""
    if choice and choice not in keys:
        keys.add(choice)
        options = list(dict.fromkeys(step.options or []))
        pack.fields.append(InputField(choice, f"Literal[{', '.join(repr(o) for o in options)}]", "plain"))
        recorded = inputs.get(choice, step.display)
        pack.example[choice] = recorded if recorded in options else options[0]
    if step.save_as:
        pack.exports.append(step.save_as)
    code = _step_code(step, expr, choice)
    if file_key:
        # Only the file's name was recorded: the author gives the file; without one the upload is left out.
        pack.groups += [StepGroup([code], file_key), StepGroup()]
    else:
        pack.groups[-1].steps.append(code)
        pack.count += 1


def describe_recording(name: str, steps_path: Path, inputs: dict[str, Any]) -> RecordedPack:
    """What the pack written from ``steps_path`` (with the recorded values ``inputs``) says."""
    step_file = load_steps(steps_path)
    start = step_file.start_url or "/"
    parsed = urlsplit(start)
    start_path = (parsed.path or "/") + (f"?{parsed.query}" if parsed.query else "") if parsed.scheme else start
    _check_keys(steps_path, step_file.steps)
    description = textwrap.fill(f"Recorded from {start}. Every target is named by role and accessible name as seen "
                                "when recording: add names in other languages, and check the Input types, before "
                                "relying on it.", 116, break_long_words=False, break_on_hyphens=False)
    pack = RecordedPack(name=name, steps_name=steps_path.name, title=textwrap.fill(step_file.title, 116),
                        description=description, start_path=start_path,
                        groups=[StepGroup(["Step(kind='navigate', url=START_URL)"])])
    keys: set[str] = set()
    for step in step_file.steps:
        _add_step(pack, step, inputs, keys)
    return pack


def pack_source(name: str, steps_path: Path, inputs: dict[str, Any]) -> tuple[str, dict[str, Any], int]:
    """pack.py's text, its EXAMPLE, and how many steps the example builds."""
    pack = describe_recording(name, steps_path, inputs)
    context = {f.name: getattr(pack, f.name) for f in dataclasses.fields(pack)}
    return render("recorded_pack.py.j2", **context), pack.example, pack.count
