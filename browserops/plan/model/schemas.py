"""JSON Schemas of the files browserops writes and reads, generated from the pydantic models.

``schemas/`` in the repository holds the generated files; ``tests/test_schemas.py`` fails when they drift
from the models. Regenerate with ``uv run python scripts/gen_schemas.py`` (``--check`` only compares).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
from pydantic import BaseModel

from browserops.evidence.events import StepEvent
from browserops.evidence.models import BundleInfo
from browserops.plan.model.document import BrowserPlan
from browserops.plan.model.steps import StepFile

SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"

SCHEMAS: dict[str, tuple[type[BaseModel], str]] = {
    "browser-plan.schema.json": (BrowserPlan, "plan.json in an evidence bundle: what prepare found and run will do."),
    "step-file.schema.json": (StepFile, "A hand-written step file (YAML or JSON) for `browserops prepare --steps`."),
    "step-event.schema.json": (StepEvent, "One line of events.jsonl: one step of one run attempt."),
    "bundle-manifest.schema.json": (
        BundleInfo,
        "bundle.json, the bundle's status marker; with manifest-sha256.txt (BagIt: '<sha256>  <path>' per file, "
        "written last) it is the bundle's manifest.",
    ),
}


def schema_of(model: type[BaseModel], description: str) -> dict[str, Any]:
    schema = model.model_json_schema(by_alias=True, mode="validation")
    return {"$schema": SCHEMA_DIALECT, **schema, "description": description}


def render_schemas() -> dict[str, bytes]:
    return {
        name: orjson.dumps(schema_of(model, description), option=orjson.OPT_INDENT_2) + b"\n"
        for name, (model, description) in SCHEMAS.items()
    }


def write_schemas(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, data in render_schemas().items():
        (folder / name).write_bytes(data)
        written.append(folder / name)
    return written


def schema_drift(folder: Path) -> list[str]:
    """Names of schema files that are missing or differ from what the models generate."""
    return [name for name, data in render_schemas().items()
            if not (folder / name).is_file() or (folder / name).read_bytes() != data]
