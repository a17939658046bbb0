"""schemas/*.schema.json are generated from the models, stay in sync, and describe what is really written."""

from __future__ import annotations

from pathlib import Path

import jsonschema
import orjson
import yaml

from browserops.evidence import StepEvent, read_events, read_info
from browserops.plan.model.schemas import SCHEMAS, render_schemas, schema_drift
from tests.plan_samples import STEP_FILE_YAML, expense_plan
from tests.test_evidence import fresh_bundle

FOLDER = Path(__file__).resolve().parents[1] / "schemas"


def test_schemas_match_the_models() -> None:
    drift = schema_drift(FOLDER)
    assert drift == [], f"regenerate with `uv run python scripts/gen_schemas.py`: {drift}"
    assert sorted(p.name for p in FOLDER.glob("*.schema.json")) == sorted(SCHEMAS)


def test_drift_is_detected(tmp_path: Path) -> None:
    for name, data in render_schemas().items():
        (tmp_path / name).write_bytes(data)
    assert schema_drift(tmp_path) == []
    (tmp_path / "step-event.schema.json").write_bytes(b"{}")
    (tmp_path / "browser-plan.schema.json").unlink()
    assert sorted(schema_drift(tmp_path)) == ["browser-plan.schema.json", "step-event.schema.json"]


def _schema(name: str) -> dict[str, object]:
    data: dict[str, object] = orjson.loads((FOLDER / name).read_bytes())
    jsonschema.Draft202012Validator.check_schema(data)
    return data


def test_written_files_validate_against_their_schemas(workspace: Path) -> None:
    path = fresh_bundle(workspace)
    jsonschema.validate(orjson.loads((path / "plan.json").read_bytes()), _schema("browser-plan.schema.json"))
    jsonschema.validate(orjson.loads((path / "bundle.json").read_bytes()), _schema("bundle-manifest.schema.json"))
    event_schema = _schema("step-event.schema.json")
    lines = (path / "events.jsonl").read_text().splitlines()
    assert len(lines) == 2
    for line in lines:
        jsonschema.validate(orjson.loads(line), event_schema)
    jsonschema.validate(yaml.safe_load(STEP_FILE_YAML), _schema("step-file.schema.json"))
    assert read_info(path) is not None and all(isinstance(e, StepEvent) for e in read_events(path)[0])


def test_schema_rejects_what_the_model_rejects() -> None:
    plan = orjson.loads(expense_plan().to_json())
    plan["actions"][0]["selector"] = "#pay"
    errors = list(jsonschema.Draft202012Validator(_schema("browser-plan.schema.json")).iter_errors(plan))
    assert errors and "selector" in str(errors[0].message)
