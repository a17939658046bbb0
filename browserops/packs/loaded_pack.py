"""A pack once loaded (:class:`Pack`): its declarations, and its two functions wrapped so that whatever they do
wrong becomes ``BROWSER_PACK_INVALID`` naming the pack, and bad input ``BROWSER_INPUT_INVALID``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.packs.entry_points import InstalledPack
from browserops.packs.pack_input import PackContext, PackInput, read_input_file
from browserops.plan.model import Requirement, number_steps
from browserops.plan.model.loader import describe_errors
from browserops.plan.steps import Step, StepFile

# entry-point: an installed distribution's (browserops' own built-ins included); workspace: <workspace>/
# domain_packs; path: a folder named on the command line.
Origin = Literal["entry-point", "workspace", "path"]


def pack_error(path: Path, problems: list[str]) -> BrowserOpsError:
    return BrowserOpsError(
        ErrorCode.PACK_INVALID,
        f"Domain pack {path}: {'; '.join(problems)}. Run `browserops pack validate {path}` for details.",
        details={"problems": problems},
    )


@dataclass
class Pack:
    name: str
    description: str
    start_url: str
    input_model: type[BaseModel]
    example: dict[str, Any]
    exports: list[str]
    requirements: list[Requirement]
    path: Path
    origin: Origin
    _validate: Callable[[Any, PackContext], list[str]]
    _build: Callable[[Any, PackContext], list[Step]]
    installed: InstalledPack | None = None  # origin "entry-point": the entry point and its distribution

    @property
    def source(self) -> str:
        """Where the pack came from, for `pack list` and `pack show`."""
        return self.installed.source if self.installed else f"{self.origin} folder {self.path}"

    @property
    def title(self) -> str:
        return self.description.strip().splitlines()[0]

    def input_schema(self) -> dict[str, Any]:
        return self.input_model.model_json_schema()

    def parse_input(self, data: Any, ctx: PackContext, *, source: str = "input",
                    path: Path | None = None, digest: str | None = None) -> PackInput:
        """Schema + the pack's own rules; BROWSER_INPUT_INVALID naming every problem."""
        if not isinstance(data, dict):
            raise BrowserOpsError(ErrorCode.INPUT_INVALID,
                                  f"{source}: input must be a mapping of fields, not {type(data).__name__}.")
        try:
            model = self.input_model.model_validate(data)
        except ValidationError as exc:
            raise BrowserOpsError(ErrorCode.INPUT_INVALID, f"{source}: {describe_errors(exc)}. "
                                  f"See `browserops pack show {self.name}` for the schema.") from None
        problems = self._run_validate(model, ctx)
        if problems:
            raise BrowserOpsError(ErrorCode.INPUT_INVALID, f"{source}: {'; '.join(problems)}.",
                                  details={"problems": problems})
        return PackInput(model, ctx, path, digest)

    def load_input(self, path: Path) -> PackInput:
        """Read a YAML/JSON input file; relative file paths in it resolve next to it."""
        data, digest = read_input_file(path)
        return self.parse_input(data, PackContext(base_dir=path.resolve().parent), source=str(path), path=path,
                                digest=digest)

    def example_input(self) -> PackInput:
        return self.parse_input(self.example, PackContext(base_dir=self.path), source=f"{self.name} EXAMPLE")

    def _run_validate(self, model: BaseModel, ctx: PackContext) -> list[str]:
        try:
            problems = self._validate(model, ctx)
        except Exception as exc:
            raise pack_error(self.path, [f"validate() raised {type(exc).__name__}: {exc}"]) from None
        if not isinstance(problems, list) or not all(isinstance(p, str) for p in problems):
            raise pack_error(self.path, ["validate() must return a list of strings"])
        return problems

    def build(self, inp: PackInput) -> StepFile:
        """The pack's steps for this input, validated like a hand-written step file."""
        try:
            steps = self._build(inp.data, inp.ctx)
        except BrowserOpsError:
            raise
        except Exception as exc:
            raise pack_error(self.path, [f"build_steps() raised {type(exc).__name__}: {exc}"]) from None
        if not isinstance(steps, list) or not steps or not all(isinstance(s, Step) for s in steps):
            raise pack_error(self.path, ["build_steps() must return a non-empty list of Step"])
        try:
            data = [s.model_dump(by_alias=True, exclude_none=True) for s in steps]
            step_file = StepFile.model_validate({"title": self.title, "startUrl": self.start_url, "steps": data})
            number_steps(step_file.steps)
        except ValidationError as exc:
            raise pack_error(self.path, [f"build_steps() returned invalid steps: {describe_errors(exc)}"]) from None
        return step_file
