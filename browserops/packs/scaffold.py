"""Writing a new pack folder (``browserops pack new``): a working skeleton, or a pack written from a recorded step
file (:mod:`browserops.packs.recording`), each with its test and an example input, from ``templates/*.j2``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.packs.pack_input import read_input_file
from browserops.packs.recording import pack_source
from browserops.packs.template_env import render


def _write_folder(parent: Path, name: str, files: dict[str, str]) -> list[Path]:
    folder = parent / name
    if folder.exists():
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"{folder} already exists; choose another name or remove it.")
    folder.mkdir(parents=True)
    created = []
    for file_name, text in files.items():
        path = folder / file_name
        path.write_text(text, encoding="utf-8")
        created.append(path)
    return created


def scaffold_pack(parent: Path, name: str) -> list[Path]:
    """Create ``parent/name/`` with a pack that validates as written. Refuses to touch an existing folder."""
    return _write_folder(parent, name, {
        "__init__.py": render("init.py.j2", name=name),
        "pack.py": render("skeleton_pack.py.j2", name=name),
        "test_pack.py": render("skeleton_test_pack.py.j2", name=name),
        "example_input.yaml": render("skeleton_example_input.yaml.j2", name=name),
    })


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
    return _write_folder(parent, name, {
        "__init__.py": render("init.py.j2", name=name),
        "pack.py": source,
        "example_input.yaml": render("recorded_example_input.yaml.j2", name=name, example=example),
        "test_pack.py": render("recorded_test_pack.py.j2", name=name, count=count),
    })
