"""Domain packs: business knowledge (fields, rules, target names) that turns input data into plan steps.

A pack is a folder ``domain_packs/<name>/`` with ``pack.py`` defining::

    NAME = "demo_expense"                    # = the folder name
    DESCRIPTION = "File an expense …"        # first line is the plan title
    START_URL = "/expense"                   # a path on the --base-url site, or an absolute http(s) URL
    class Input(pydantic.BaseModel): …       # the input schema (shown by `pack show`)
    EXAMPLE = {...}                          # a valid input, relative file paths resolve in the pack folder
    EXPORTS = ["statements_{month}.csv"]     # files the pack exports into the bundle (may be empty)
    def validate(inp: Input, ctx: PackContext) -> list[str]: …   # rules beyond the schema; [] = fine
    def build_steps(inp: Input, ctx: PackContext) -> list[Step]: …
    REQUIREMENTS = [Requirement(...)]        # optional: logged-in, captcha, manual step

Steps name their targets semantically (role + candidate names in several languages), so a pack holds no
selectors and no code that touches a browser: its module may import only the standard library, pydantic and
the plan vocabulary (``browserops.packs``, ``browserops.plan.steps``/``model``, ``browserops.contract``,
``browserops.privacy``). That is checked statically before the module is imported, and a pack that imports
``browserops.browser``, ``browserops.tools``, playwright, subprocess, sockets and the like is refused with
``BROWSER_PACK_INVALID``. The check keeps honest packs honest; it is not a sandbox for hostile code (packs are
code you put in your repository or workspace). Whatever a pack returns still goes through the plan's
validation, the confirm phrase, the lane and the evidence bundle, so it cannot make a submit run unconfirmed.

Packs are found in the repository's ``domain_packs/``, in installed Python packages through the
``browserops.packs`` entry-point group (``installed_packs.py``), and in ``<workspace>/domain_packs/``; of the
same name, a workspace pack wins over an installed one, which wins over a builtin one.
"""

from __future__ import annotations

import ast
import datetime as dt
import hashlib
import importlib.util
import re
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.installed_packs import InstalledPack, installed_packs
from browserops.plan.loader import describe_errors, parse_data
from browserops.plan.model import Requirement, number_steps
from browserops.plan.steps import Step, StepFile

PACKS_DIR = "domain_packs"
NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]{1,39}$")
BUILTIN_DIR = Path(__file__).resolve().parents[1] / PACKS_DIR

ALLOWED_BROWSEROPS = ("browserops.packs", "browserops.plan.steps", "browserops.plan.model", "browserops.contract",
                      "browserops.privacy")
FORBIDDEN_MODULES = frozenset({
    "playwright", "importlib", "subprocess", "socket", "ctypes", "multiprocessing", "http", "urllib", "httpx",
    "requests", "anthropic", "mcp", "websockets", "uvicorn", "starlette", "pty", "shutil", "webbrowser",
})
FORBIDDEN_CALLS = frozenset({"__import__", "exec", "eval", "compile"})

Origin = Literal["builtin", "entry-point", "workspace", "path"]


def read_input_file(path: Path) -> tuple[Any, str]:
    """A YAML/JSON input file parsed, and the SHA-256 of its bytes; any problem is BROWSER_INPUT_INVALID."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise BrowserOpsError(ErrorCode.INPUT_INVALID, f"{path}: cannot be read ({exc.strerror}).") from None
    fmt: Literal["json", "yaml"] = "json" if path.suffix.lower() == ".json" else "yaml"
    try:
        data = parse_data(raw, fmt, str(path))
    except BrowserOpsError as exc:
        raise BrowserOpsError(ErrorCode.INPUT_INVALID, exc.message) from None
    return data, hashlib.sha256(raw).hexdigest()


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
            raise _pack_error(self.path, [f"validate() raised {type(exc).__name__}: {exc}"]) from None
        if not isinstance(problems, list) or not all(isinstance(p, str) for p in problems):
            raise _pack_error(self.path, ["validate() must return a list of strings"])
        return problems

    def build(self, inp: PackInput) -> StepFile:
        """The pack's steps for this input, validated like a hand-written step file."""
        try:
            steps = self._build(inp.data, inp.ctx)
        except BrowserOpsError:
            raise
        except Exception as exc:
            raise _pack_error(self.path, [f"build_steps() raised {type(exc).__name__}: {exc}"]) from None
        if not isinstance(steps, list) or not steps or not all(isinstance(s, Step) for s in steps):
            raise _pack_error(self.path, ["build_steps() must return a non-empty list of Step"])
        try:
            data = [s.model_dump(by_alias=True, exclude_none=True) for s in steps]
            step_file = StepFile.model_validate({"title": self.title, "startUrl": self.start_url, "steps": data})
            number_steps(step_file.steps)
        except ValidationError as exc:
            raise _pack_error(self.path, [f"build_steps() returned invalid steps: {describe_errors(exc)}"]) from None
        return step_file


def _pack_error(path: Path, problems: list[str]) -> BrowserOpsError:
    return BrowserOpsError(
        ErrorCode.PACK_INVALID,
        f"Domain pack {path}: {'; '.join(problems)}. Run `browserops pack validate {path}` for details.",
        details={"problems": problems},
    )


# --------------------------------------------------------------------------- static check


def _is_pack_source(path: Path, folder: Path) -> bool:
    rel = path.relative_to(folder)
    return not (
        path.name.startswith("test_") or path.name == "conftest.py" or "tests" in rel.parts[:-1]
        or any(part.startswith(".") for part in rel.parts)
    )


def check_imports(folder: Path) -> list[str]:
    """Problems with what the pack's source files import or call (tests are exempt)."""
    problems: list[str] = []
    for path in sorted(folder.rglob("*.py")):
        if not _is_pack_source(path, folder):
            continue
        rel = path.relative_to(folder)
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        except SyntaxError as exc:
            problems.append(f"{rel}:{exc.lineno}: cannot be parsed: {exc.msg}")
            continue
        except (UnicodeDecodeError, ValueError) as exc:
            problems.append(f"{rel}: cannot be parsed ({type(exc).__name__})")
            continue
        for node in ast.walk(tree):
            modules: list[str] = []
            if isinstance(node, ast.Import):
                modules = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                modules = [node.module]
                if node.module == "browserops":
                    modules = [f"browserops.{alias.name}" for alias in node.names]
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FORBIDDEN_CALLS:
                problems.append(f"{rel}:{node.lineno}: calls {node.func.id}(), which a pack may not use")
            line = getattr(node, "lineno", 0)
            for module in modules:
                top = module.split(".")[0]
                if top == "browserops":
                    if not any(module == ok or module.startswith(ok + ".") for ok in ALLOWED_BROWSEROPS):
                        problems.append(
                            f"{rel}:{line}: imports {module}; a pack may import only "
                            f"{', '.join(ALLOWED_BROWSEROPS)} from browserops (it cannot drive the browser)"
                        )
                elif top in FORBIDDEN_MODULES:
                    problems.append(f"{rel}:{line}: imports {module}, which a pack may not use")
    return problems


# --------------------------------------------------------------------------- loading


def _import_pack_module(folder: Path, origin: str) -> types.ModuleType:
    package_name = f"_browserops_pack_{origin}_{folder.name}"
    for key in [k for k in sys.modules if k == package_name or k.startswith(package_name + ".")]:
        del sys.modules[key]
    init = folder / "__init__.py"
    if init.is_file():
        pkg_spec = importlib.util.spec_from_file_location(package_name, init, submodule_search_locations=[str(folder)])
        assert pkg_spec is not None and pkg_spec.loader is not None
        package = importlib.util.module_from_spec(pkg_spec)
        sys.modules[package_name] = package
        pkg_spec.loader.exec_module(package)
    else:
        package = types.ModuleType(package_name)
        package.__path__ = [str(folder)]
        sys.modules[package_name] = package
    spec = importlib.util.spec_from_file_location(f"{package_name}.pack", folder / "pack.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def _attr_problems(module: types.ModuleType, folder: Path) -> list[str]:
    problems: list[str] = []

    def need(name: str, check: Callable[[Any], bool], what: str) -> None:
        if not hasattr(module, name):
            problems.append(f"pack.py does not define {name} ({what})")
        elif not check(getattr(module, name)):
            problems.append(f"{name} must be {what}")

    need("NAME", lambda v: isinstance(v, str) and v == folder.name,
         f"a string equal to the folder name {folder.name!r}")
    need("DESCRIPTION", lambda v: isinstance(v, str) and bool(v.strip()), "a non-empty string")
    need("START_URL", lambda v: isinstance(v, str) and bool(v), "a path like '/expense' or an http(s) URL")
    need("Input", lambda v: isinstance(v, type) and issubclass(v, BaseModel), "a pydantic BaseModel subclass")
    need("EXAMPLE", lambda v: isinstance(v, dict), "a dict of example input")
    need("EXPORTS", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v), "a list of file names")
    need("validate", callable, "a function validate(inp, ctx) -> list[str]")
    need("build_steps", callable, "a function build_steps(inp, ctx) -> list[Step]")
    requirements = getattr(module, "REQUIREMENTS", [])
    if not isinstance(requirements, list) or not all(isinstance(r, Requirement) for r in requirements):
        problems.append("REQUIREMENTS must be a list of Requirement")
    start = getattr(module, "START_URL", None)
    if isinstance(start, str) and start:
        try:
            StepFile.model_validate({"title": "x", "startUrl": start, "steps": [{"kind": "navigate", "url": "/"}]})
        except ValidationError as exc:
            problems.append(f"START_URL: {describe_errors(exc)}")
    return problems


def load_pack_dir(folder: Path, origin: Origin = "path", installed: InstalledPack | None = None) -> Pack:
    """Check and import one pack folder; BROWSER_PACK_INVALID lists every problem found."""
    folder = folder.resolve()
    if not (folder / "pack.py").is_file():
        raise _pack_error(folder, ["no pack.py in the folder"])
    if not NAME_PATTERN.match(folder.name):
        raise _pack_error(folder, [f"folder name {folder.name!r} is not a pack name (lowercase, digits, '_')"])
    problems = check_imports(folder)
    if problems:
        raise _pack_error(folder, problems)
    try:
        module = _import_pack_module(folder, origin)
    except Exception as exc:
        raise _pack_error(folder, [f"importing pack.py failed: {type(exc).__name__}: {exc}"]) from None
    problems = _attr_problems(module, folder)
    if problems:
        raise _pack_error(folder, problems)
    return Pack(
        name=module.NAME,
        description=module.DESCRIPTION.strip(),
        start_url=module.START_URL,
        input_model=module.Input,
        example=dict(module.EXAMPLE),
        exports=list(module.EXPORTS),
        requirements=list(getattr(module, "REQUIREMENTS", [])),
        path=folder,
        origin=origin,
        _validate=module.validate,
        _build=module.build_steps,
        installed=installed,
    )


def validate_pack_dir(folder: Path, origin: Origin = "path") -> Pack:
    """Load a pack and prove it works end to end on its own EXAMPLE (what `pack validate` runs)."""
    pack = load_pack_dir(folder, origin)
    try:
        inp = pack.example_input()
    except BrowserOpsError as exc:
        raise _pack_error(pack.path, [f"EXAMPLE is not valid input: {exc.message}"]) from None
    pack.build(inp)
    return pack


# --------------------------------------------------------------------------- discovery


@dataclass
class PackEntry:
    name: str
    origin: Origin
    path: Path
    pack: Pack | None
    problems: list[str]
    installed: InstalledPack | None = None

    @property
    def source(self) -> str:
        return self.installed.source if self.installed else f"{self.origin} folder {self.path}"


def _load_installed(ep: InstalledPack) -> PackEntry:
    path = ep.folder or Path(ep.module)
    if ep.problem or ep.folder is None:
        return PackEntry(ep.name, "entry-point", path, None, [ep.problem or "no pack folder"], ep)
    try:
        return PackEntry(ep.name, "entry-point", path, load_pack_dir(ep.folder, "entry-point", ep), [], ep)
    except BrowserOpsError as exc:
        return PackEntry(ep.name, "entry-point", path, None, list(exc.details.get("problems", [exc.message])), ep)


def pack_dirs(workspace: Path | None) -> list[tuple[Origin, Path]]:
    dirs: list[tuple[Origin, Path]] = [("builtin", BUILTIN_DIR)]
    if workspace is not None and (workspace.resolve() / PACKS_DIR) != BUILTIN_DIR:
        dirs.append(("workspace", workspace.resolve() / PACKS_DIR))
    return dirs


def _folder_entries(origin: Origin, root: Path) -> dict[str, PackEntry]:
    found: dict[str, PackEntry] = {}
    if not root.is_dir():
        return found
    for folder in sorted(p for p in root.iterdir() if (p / "pack.py").is_file()):
        try:
            found[folder.name] = PackEntry(folder.name, origin, folder, load_pack_dir(folder, origin), [])
        except BrowserOpsError as exc:
            found[folder.name] = PackEntry(folder.name, origin, folder, None,
                                           list(exc.details.get("problems", [exc.message])))
    return found


def list_packs(workspace: Path | None) -> list[PackEntry]:
    """Every pack found, loaded or with the problems that stop it loading: builtin, then installed (entry
    points), then the workspace's; a later one of the same name wins."""
    dirs = pack_dirs(workspace)
    found = _folder_entries(*dirs[0])
    found.update((ep.name, _load_installed(ep)) for ep in installed_packs())
    for origin, root in dirs[1:]:
        found.update(_folder_entries(origin, root))
    return sorted(found.values(), key=lambda e: e.name)


def get_pack(workspace: Path | None, name: str) -> Pack:
    """The pack called ``name`` (workspace first, then installed, then the repository's), loaded and checked."""
    if not NAME_PATTERN.match(name):
        raise BrowserOpsError(ErrorCode.PACK_NOT_FOUND,
                              f"{name[:60]!r} is not a pack name. See `browserops pack list`.")
    for origin, root in reversed(pack_dirs(workspace)):
        if origin == "builtin":
            entry = next((ep for ep in installed_packs() if ep.name == name), None)
            if entry is not None:
                loaded = _load_installed(entry)
                if loaded.pack is None:
                    raise _pack_error(loaded.path, loaded.problems)
                return loaded.pack
        folder = root / name
        if (folder / "pack.py").is_file():
            return load_pack_dir(folder, origin)
    raise BrowserOpsError(ErrorCode.PACK_NOT_FOUND, f"No domain pack named {name!r}. See `browserops pack list`.")
