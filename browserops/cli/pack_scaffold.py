"""The files ``browserops pack new NAME`` writes: a working pack, its test and an example input."""

from __future__ import annotations

from pathlib import Path

from browserops.contract import BrowserOpsError, ErrorCode

PACK_PY = '''"""{name}: search the demo site's catalogue. Replace with your own form (see DESCRIPTION)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from browserops.packs import PackContext
from browserops.plan.steps import Expectation, SemanticTarget, Step

NAME = "{name}"
DESCRIPTION = """Search the demo site's catalogue (a starting point: edit me).

Name every element by its ARIA role and candidate accessible names (several languages), never by CSS.
Fills are browser-act steps: they run only with `browserops run --confirm <phrase>`."""
START_URL = "/"
EXPORTS: list[str] = []


class Input(BaseModel):
    """What the user provides."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=100, description="What to search for.")


EXAMPLE = {{"query": "stapler"}}


def validate(inp: Input, ctx: PackContext) -> list[str]:
    """Rules beyond the schema; return one message per problem."""
    return [] if inp.query.strip() else ["query: must not be blank"]


def build_steps(inp: Input, ctx: PackContext) -> list[Step]:
    return [
        Step(kind="navigate", url=START_URL, title="Open the home page"),
        Step(kind="fill", action="type", field="query", value=inp.query,
             target=SemanticTarget(role="searchbox", names=["Search", "Поиск", "搜索"])),
        Step(kind="act", title="Run the search",
             target=SemanticTarget(role="button", names=["Search", "Найти", "搜索"]),
             expect=Expectation(url_contains="/search")),
    ]
'''

TEST_PY = '''"""Tests of the {name} pack: run with `uv run pytest <this folder>`."""

from __future__ import annotations

from pathlib import Path

import pytest

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.packs import PackContext, validate_pack_dir
from browserops.plan.steps import Kind

PACK_DIR = Path(__file__).resolve().parent


def test_example_builds_the_search_steps() -> None:
    pack = validate_pack_dir(PACK_DIR)
    steps = pack.build(pack.example_input()).steps
    assert [s.kind for s in steps] == [Kind.NAVIGATE, Kind.FILL, Kind.ACT]
    assert steps[1].value == "stapler"
    assert steps[2].needs_confirm


def test_example_input_file_matches_example() -> None:
    pack = validate_pack_dir(PACK_DIR)
    assert pack.load_input(PACK_DIR / "example_input.yaml").data == pack.example_input().data


def test_blank_query_is_rejected() -> None:
    pack = validate_pack_dir(PACK_DIR)
    with pytest.raises(BrowserOpsError) as info:
        pack.parse_input({{"query": "   "}}, PackContext(base_dir=PACK_DIR))
    assert info.value.code is ErrorCode.INPUT_INVALID and "query" in info.value.message
'''

EXAMPLE_YAML = """# Input for `browserops prepare --pack {name} --input <this file>`.
query: stapler
"""

INIT_PY = '"""Domain pack {name} (see pack.py)."""\n'


def scaffold_pack(parent: Path, name: str) -> list[Path]:
    """Create ``parent/name/`` with a pack that validates as written. Refuses to touch an existing folder."""
    folder = parent / name
    if folder.exists():
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"{folder} already exists; choose another name or remove it.")
    folder.mkdir(parents=True)
    files = {
        "__init__.py": INIT_PY, "pack.py": PACK_PY, "test_pack.py": TEST_PY, "example_input.yaml": EXAMPLE_YAML,
    }
    created = []
    for file_name, template in files.items():
        path = folder / file_name
        path.write_text(template.format(name=name), encoding="utf-8")
        created.append(path)
    return created
