"""``browserops pack new NAME --from-steps FILE``: a pack written from a (recorded) step file.

The pack's pydantic ``Input`` has one field per ``valueRef`` key, its type inferred from the recorded value in the
input file beside the steps (``<steps>.input.yaml``, or ``--input``): ``bool`` for a checkbox, ``dt.date`` for
``YYYY-MM-DD``, ``Decimal`` for a plain number, a ``Literal`` enum of the options a select offered, an optional
``Path`` for an upload (only its name was recorded), ``SecretStr`` for a sensitive key (never given a value in the
pack), else ``str``. ``build_steps`` reproduces the step file with those values; a step's raised side-effect
class stays raised. Targets are copied as recorded (role and names, ``nth``/``frame`` when recorded): add other
languages' names by hand.
"""

from __future__ import annotations

import keyword
import pprint
import re
import textwrap
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.packs import read_input_file
from browserops.plan.loader import load_steps
from browserops.plan.steps import Action, Step

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_NUMBER = re.compile(r"^-?(0|[1-9]\d*)(\.\d+)?$")


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


def _target_code(step: Step) -> str:
    assert step.target is not None
    t = step.target
    parts = [f"role={t.role!r}", f"names={list(t.names)!r}"]
    if t.labels:
        parts.append(f"labels={list(t.labels)!r}")
    if t.nth:
        parts.append(f"nth={t.nth}")
    if t.frame:
        parts.append(f"frame={t.frame!r}")
    return f"SemanticTarget({', '.join(parts)})"


def _step_code(step: Step, expr: str) -> str:
    kind = step.kind.value if step.kind else None
    parts = [f"kind={kind!r}"] if kind else []
    if step.action is not None and kind == "fill":
        parts.append(f"action={step.action.value!r}")
    if step.field:
        parts.append(f"field={step.field!r}")
    if step.url:
        parts.append(f"url={step.url!r}")
    if step.target is not None:
        parts.append(f"target={_target_code(step)}")
    if step.value_ref is not None and step.value_ref.sensitive:
        parts.append(f"value_ref=ValueRef(key={step.value_ref.key!r}, sensitive=True)")
    elif expr:
        parts.append(f"value={expr}")
    elif step.value is not None:
        parts.append(f"value={step.value!r}")
    if step.display is not None:
        parts.append(f"display={step.display!r}")
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


def _wrap(expr: str, indent: int, end: str = ",") -> list[str]:
    """``expr`` on one line when it fits in 120 columns, else its bracketed arguments one per line (nested
    calls and lists wrapped the same way), as a person would format it."""
    pad = " " * indent
    if indent + len(expr) + len(end) <= 120:
        return [pad + expr + end]
    opening = _first_bracket(expr)
    if opening is None or expr[-1] != {"(": ")", "[": "]"}[expr[opening]]:
        return [pad + expr + end + "  # noqa: E501"]  # one long text: nothing to break
    items = _split_args(expr[opening + 1:-1])
    return [pad + expr[:opening + 1], *(line for item in items for line in _wrap(item, indent + 4)),
            pad + expr[-1] + end]


def _first_bracket(text: str) -> int | None:
    quote = ""
    for i, ch in enumerate(text):
        if quote:
            if ch == quote and text[i - 1] != "\\":
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([":
            return i
    return None


def _field_lines(key: str, annotation: str, value: Any) -> list[str]:
    """The Input model's field for one key."""
    if annotation.startswith("SecretStr"):
        return [f"    {key}: SecretStr | None = Field(",
                '        None, description="Sensitive: give it in the input file at prepare/run time; never written "',
                '        "into plans or logs.",', "    )"]
    if annotation.startswith("Path"):
        recorded = value if isinstance(value, str) else ", ".join(map(str, value or []))
        return [f"    {key}: Path | None = Field(",
                f"        None, description={f'The file to upload (recorded: {recorded[:60]!r}).'!r}",
                '        " A path relative to the input file; without one the upload is left out.",', "    )"]
    return _wrap(f"{key}: {annotation}", 4, "")


def _split_args(text: str) -> list[str]:
    """Top-level comma-separated arguments (commas inside brackets and quotes stay)."""
    parts, depth, quote, start = [], 0, "", 0
    for i, ch in enumerate(text):
        if quote:
            if ch == quote and text[i - 1] != "\\":
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return [p for p in parts if p]


def pack_source(name: str, steps_path: Path, inputs: dict[str, Any]) -> tuple[str, dict[str, Any], int]:
    """pack.py's text, its EXAMPLE, and how many steps the example builds."""
    step_file = load_steps(steps_path)
    start = step_file.start_url or "/"
    parsed = urlsplit(start)
    start_path = (parsed.path or "/") + (f"?{parsed.query}" if parsed.query else "") if parsed.scheme else start
    fields: list[str] = []
    example: dict[str, Any] = {}
    body = ["    steps = [", *_wrap("Step(kind='navigate', url=START_URL)", 8)]
    exports: list[str] = []
    files: list[str] = []
    keys: set[str] = set()
    count = 1
    bad = sorted({s.value_ref.key for s in step_file.steps if s.value_ref is not None
                  and (not s.value_ref.key.isidentifier() or keyword.iskeyword(s.value_ref.key)
                       or s.value_ref.key.startswith("_"))})
    if bad:
        raise BrowserOpsError(ErrorCode.PLAN_INVALID, f"{steps_path.name}: valueRef keys {', '.join(map(repr, bad))} "
                              "cannot be fields of a pack's Input: use letters, digits and '_' (not first, not a "
                              "Python keyword), in the step file and the input file alike.")
    for step in step_file.steps:
        expr = ""
        optional_key = ""
        if step.value_ref is not None:
            key = step.value_ref.key
            value = inputs.get(key)
            annotation, expr = _field_type(step, value)
            if annotation.startswith("Path"):
                optional_key = key
            if key not in keys:
                keys.add(key)
                fields += _field_lines(key, annotation, value)
                if annotation.startswith("Path"):
                    files.append(key)
                elif not annotation.startswith("SecretStr"):
                    # No value recorded for it (a hand-written file, no input file): a stand-in keeps EXAMPLE valid.
                    example[key] = value if value is not None else (False if annotation == "bool" else f"<{key}>")
        if step.save_as:
            exports.append(step.save_as)
        code = _step_code(step, expr)
        if optional_key:
            # Only the file's name was recorded: the author gives the file; without one the upload is left out.
            body += ["    ]", f"    if inp.{optional_key} is not None:", *_wrap(f"steps.append({code})", 8, ""),
                     "    steps += ["]
        else:
            body += _wrap(code, 8)
            count += 1
    body += ["    ]", "    return steps"]
    body = [line for n, line in enumerate(body)  # no empty `steps += []`
            if not (line == "    steps += [" and body[n + 1] == "    ]")
            and not (line == "    ]" and body[n - 1] == "    steps += [")]
    if not fields:
        fields.append("    pass")
    validate_body = "".join(
        f"    if inp.{key} is not None and not ctx.resolve(inp.{key}).is_file():\n"
        f"        problems.append(f\"{key}: no file at {{ctx.resolve(inp.{key})}}\")\n" for key in files)
    description = textwrap.fill(f"Recorded from {start}. Every target is named by role and accessible name as seen "
                                "when recording: add names in other languages, and check the Input types, before "
                                "relying on it.", 116, break_long_words=False, break_on_hyphens=False)
    source = f'''"""{name}: written by `browserops pack new --from-steps` from {steps_path.name!r}.

{textwrap.fill(step_file.title, 116)}
"""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from browserops.contract import SideEffect
from browserops.packs import PackContext
from browserops.plan.steps import Expectation, SemanticTarget, Step, ValueRef

NAME = {name!r}
DESCRIPTION = """{textwrap.fill(step_file.title, 116)}

{description}"""
START_URL = {start_path!r}
EXPORTS: list[str] = {exports!r}


class Input(BaseModel):
    """The values recorded; their types inferred from what was typed."""

    model_config = ConfigDict(extra="forbid")

{chr(10).join(fields)}


EXAMPLE = {pprint.pformat(example, width=110, sort_dicts=False)}


def validate(inp: Input, ctx: PackContext) -> list[str]:
    problems: list[str] = []
{validate_body}    return problems


def build_steps(inp: Input, ctx: PackContext) -> list[Step]:
{chr(10).join(body)}


# Unused names are kept so hand edits (dates, amounts, expectations) need no new imports.
__all__ = ["Decimal", "Expectation", "Literal", "Path", "SecretStr", "SideEffect", "ValueRef", "dt"]
'''
    return source, example, count


def values_file(steps_path: Path) -> Path:
    """Where ``browserops record`` puts the values of a step file by default: ``<stem>.input.yaml`` beside it."""
    return steps_path.with_name(steps_path.name.rsplit(".", 1)[0] + ".input.yaml")


def scaffold_from_steps(parent: Path, name: str, steps_path: Path, input_path: Path | None) -> list[Path]:
    """Write ``parent/name/`` (pack.py, example_input.yaml, a test) from a step file and its input file."""
    input_path = input_path or values_file(steps_path)
    inputs: dict[str, Any] = {}
    if input_path.is_file():
        data, _ = read_input_file(input_path)
        if isinstance(data, dict):
            inputs = data
    source, example, count = pack_source(name, steps_path, inputs)
    folder = parent / name
    if folder.exists():
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"{folder} already exists; choose another name or remove it.")
    folder.mkdir(parents=True)
    files = {
        "__init__.py": f'"""Domain pack {name} (see pack.py)."""\n',
        "pack.py": source,
        "example_input.yaml": f"# Input for `browserops prepare --pack {name} --input <this file>`.\n"
                              + yaml.safe_dump(example, allow_unicode=True, sort_keys=False),
        "test_pack.py": f'''"""Tests of the {name} pack: run with `uv run pytest <this folder>`."""

from __future__ import annotations

from pathlib import Path

from browserops.packs import validate_pack_dir

PACK_DIR = Path(__file__).resolve().parent


def test_example_builds_the_recorded_steps() -> None:
    pack = validate_pack_dir(PACK_DIR)
    assert len(pack.build(pack.example_input()).steps) == {count}
''',
    }
    created = []
    for file_name, text in files.items():
        path = folder / file_name
        path.write_text(text, encoding="utf-8")
        created.append(path)
    return created
