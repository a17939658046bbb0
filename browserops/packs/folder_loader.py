"""Loading one pack folder: the static import check, then ``pack.py`` imported under a private name, then its
declarations checked (every problem listed at once, as ``BROWSER_PACK_INVALID``).

The interface a ``pack.py`` follows::

    NAME = "demo_expense"                    # = the folder name
    DESCRIPTION = "File an expense …"        # first line is the plan title
    START_URL = "/expense"                   # a path on the --base-url site, or an absolute http(s) URL
    class Input(pydantic.BaseModel): …       # the input schema (shown by `pack show`)
    EXAMPLE = {...}                          # a valid input, relative file paths resolve in the pack folder
    EXPORTS = ["statements_{month}.csv"]     # files the pack exports into the bundle (may be empty)
    def validate(inp: Input, ctx: PackContext) -> list[str]: …   # rules beyond the schema; [] = fine
    def build_steps(inp: Input, ctx: PackContext) -> list[Step]: …
    REQUIREMENTS = [Requirement(...)]        # optional: logged-in, captcha, manual step
"""

from __future__ import annotations

import importlib.util
import re
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from browserops.contract import BrowserOpsError
from browserops.packs.entry_points import InstalledPack
from browserops.packs.import_check import check_imports
from browserops.packs.loaded_pack import Origin, Pack, pack_error
from browserops.plan.model import Requirement
from browserops.plan.model.loader import describe_errors
from browserops.plan.steps import StepFile

NAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]{1,39}$")


def _import_pack_module(folder: Path, origin: str) -> types.ModuleType:
    """``pack.py`` imported as ``_browserops_pack_<origin>_<name>.pack`` (never under the name of an installed
    package, so loading a pack twice, or two packs of one name, never mixes their modules)."""
    package_name = f"_browserops_pack_{origin.replace('-', '_')}_{folder.name}"
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
        raise pack_error(folder, ["no pack.py in the folder"])
    if not NAME_PATTERN.match(folder.name):
        raise pack_error(folder, [f"folder name {folder.name!r} is not a pack name (lowercase, digits, '_')"])
    problems = check_imports(folder)
    if problems:
        raise pack_error(folder, problems)
    try:
        module = _import_pack_module(folder, origin)
    except Exception as exc:
        raise pack_error(folder, [f"importing pack.py failed: {type(exc).__name__}: {exc}"]) from None
    problems = _attr_problems(module, folder)
    if problems:
        raise pack_error(folder, problems)
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
        raise pack_error(pack.path, [f"EXAMPLE is not valid input: {exc.message}"]) from None
    pack.build(inp)
    return pack
