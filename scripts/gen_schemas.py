#!/usr/bin/env python
"""Regenerate schemas/*.schema.json from the pydantic models (``--check``: only report drift, exit 1 if any).

    uv run python scripts/gen_schemas.py
    uv run python scripts/gen_schemas.py --check
"""

from __future__ import annotations

import sys
from pathlib import Path

from browserops.plan.model.schemas import schema_drift, write_schemas

FOLDER = Path(__file__).resolve().parents[1] / "schemas"


def main(argv: list[str]) -> int:
    if "--check" in argv:
        drift = schema_drift(FOLDER)
        for name in drift:
            sys.stderr.write(f"schemas/{name} is out of date: run `uv run python scripts/gen_schemas.py`\n")
        return 1 if drift else 0
    for path in write_schemas(FOLDER):
        sys.stdout.write(f"wrote {path.relative_to(FOLDER.parent)}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
