"""``browserops pack new NAME --from-steps FILE``: a pack written from a (recorded) step file.

The pack's pydantic ``Input`` has one field per ``valueRef`` key, its type inferred from the recorded value in the
input file beside the steps (``<steps>.input.yaml``, or ``--input``): ``bool`` for a checkbox, ``dt.date`` for
``YYYY-MM-DD``, ``Decimal`` for a plain number, a file path for an upload, ``SecretStr`` for a sensitive key (never
given a value in the pack), else ``str``. ``build_steps`` reproduces the step file with those values. Targets are
copied as recorded (role and names, ``nth``/``frame`` when recorded): add other languages' names by hand.
"""

from __future__ import annotations

import re
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
    return f"        Step({', '.join(parts)}),"


def pack_source(name: str, steps_path: Path, inputs: dict[str, Any]) -> tuple[str, dict[str, Any], int]:
    """pack.py's text, its EXAMPLE, and how many steps the example builds."""
    step_file = load_steps(steps_path)
    start = step_file.start_url or "/"
    parsed = urlsplit(start)
    start_path = (parsed.path or "/") + (f"?{parsed.query}" if parsed.query else "") if parsed.scheme else start
    fields: list[str] = []
    example: dict[str, Any] = {}
    body = ["        Step(kind='navigate', url=START_URL),"]
    exports: list[str] = []
    files: list[str] = []
    count = len(body)
    for step in step_file.steps:
        expr = ""
        code = _step_code(step, "")
        if step.value_ref is not None:
            key = step.value_ref.key
            value = inputs.get(key)
            annotation, expr = _field_type(step, value)
            code = _step_code(step, expr)
            if annotation.startswith("SecretStr"):
                fields.append(f"    {key}: SecretStr | None = Field(None, description=\"Sensitive: give it in the "
                              "input file at prepare/run time; never written into plans or logs.\")")
            elif annotation.startswith("Path"):
                # Only the file's name was recorded: the author gives the file; without one the upload is left out.
                recorded = value if isinstance(value, str) else ", ".join(map(str, value or []))
                fields.append(f"    {key}: Path | None = Field(None, description=\"The file to upload (recorded: "
                              f"{recorded[:60]!r}); relative to the input file.\")")
                files.append(key)
                code = f"        *([{code.strip().rstrip(',')}] if inp.{key} is not None else []),"
                count -= 1
            else:
                fields.append(f"    {key}: {annotation}")
                if value is not None:
                    example[key] = value
        if step.save_as:
            exports.append(step.save_as)
        body.append(code)
        count += 1
    if not fields:
        fields.append("    pass")
    validate_body = "".join(
        f"    if inp.{key} is not None and not ctx.resolve(inp.{key}).is_file():\n"
        f"        problems.append(f\"{key}: no file at {{ctx.resolve(inp.{key})}}\")\n" for key in files)
    source = f'''"""{name}: recorded with `browserops record` ({step_file.title}). Review the targets' names."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from browserops.packs import PackContext
from browserops.plan.steps import Expectation, SemanticTarget, Step, ValueRef

NAME = {name!r}
DESCRIPTION = """{step_file.title}

Recorded from {start}. Every target is named by role and accessible name as seen when recording: add names in
other languages, and check the Input types, before relying on it."""
START_URL = {start_path!r}
EXPORTS: list[str] = {exports!r}


class Input(BaseModel):
    """The values recorded; their types inferred from what was typed."""

    model_config = ConfigDict(extra="forbid")

{chr(10).join(fields)}


EXAMPLE = {example!r}


def validate(inp: Input, ctx: PackContext) -> list[str]:
    problems: list[str] = []
{validate_body}    return problems


def build_steps(inp: Input, ctx: PackContext) -> list[Step]:
    return [
{chr(10).join(body)}
    ]


# Unused names are kept so hand edits (dates, amounts, expectations) need no new imports.
__all__ = ["Decimal", "Expectation", "Literal", "Path", "SecretStr", "ValueRef", "dt"]
'''
    return source, example, count


def scaffold_from_steps(parent: Path, name: str, steps_path: Path, input_path: Path | None) -> list[Path]:
    """Write ``parent/name/`` (pack.py, example_input.yaml, a test) from a step file and its input file."""
    input_path = input_path or steps_path.with_name(steps_path.name.rsplit(".", 1)[0] + ".input.yaml")
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
