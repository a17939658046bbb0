"""What a pack's code is given besides its input model: :class:`PackContext` (where relative paths resolve,
today's date), and validated input with where it came from (:class:`PackInput`); reading an input file."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.plan.model.loader import parse_data
from browserops.privacy import keyed_digest


def read_input_file(path: Path) -> tuple[Any, str]:
    """A YAML/JSON input file parsed, and the keyed digest of its bytes (``privacy.keyed_digest``: the file holds
    sensitive values, so a plain hash in plan.json would let anyone holding the plan test guesses of them); any
    problem is BROWSER_INPUT_INVALID."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise BrowserOpsError(ErrorCode.INPUT_INVALID, f"{path}: cannot be read ({exc.strerror}).") from None
    fmt: Literal["json", "yaml"] = "json" if path.suffix.lower() == ".json" else "yaml"
    try:
        data = parse_data(raw, fmt, str(path))
    except BrowserOpsError as exc:
        raise BrowserOpsError(ErrorCode.INPUT_INVALID, exc.message) from None
    return data, keyed_digest(raw)


@dataclass(frozen=True)
class PackContext:
    """What a pack may know besides its input: where relative file paths resolve, and today's date."""

    base_dir: Path
    today: dt.date = field(default_factory=dt.date.today)

    def resolve(self, path: str | Path) -> Path:
        p = Path(path).expanduser()
        return p if p.is_absolute() else (self.base_dir / p)


@dataclass(frozen=True)
class PackInput:
    """Validated input data, with where it came from (the plan records the digest)."""

    data: BaseModel
    ctx: PackContext
    path: Path | None
    digest: str | None
