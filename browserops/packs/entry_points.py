"""Packs installed as Python packages, found through the ``browserops.packs`` entry-point group — browserops'
own built-in packs included: its ``pyproject.toml`` registers them in the same group, as ``llm`` ships its
``default_plugins``.

As ``llm`` finds its plugins, browserops asks :mod:`importlib.metadata` for the group's entry points. A pack
package declares one entry per pack, named like the pack and pointing at the package that holds its
``pack.py``::

    [project.entry-points."browserops.packs"]
    acme_expense = "acme_expense"          # acme_expense/pack.py, NAME = "acme_expense"

Nothing is imported here: the folder is found from the distribution's file list (or, for an editable install,
from the import system's spec of the top-level package — which does not run it — and the dotted path below
it), so :func:`browserops.packs.folder_loader.load_pack_dir` can check the pack's imports statically before its
code ever runs, as for a folder pack.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
from dataclasses import dataclass
from pathlib import Path

GROUP = "browserops.packs"


@dataclass(frozen=True)
class InstalledPack:
    """One entry point of the group: where it points and which distribution installed it."""

    name: str
    module: str
    distribution: str
    version: str
    folder: Path | None  # None: the entry point leads to no pack.py
    problem: str | None = None

    @property
    def source(self) -> str:
        """How `pack list` names where the pack came from."""
        return f"entry point {self.name} = {self.module} ({self.distribution} {self.version})"


def _folder(ep: importlib.metadata.EntryPoint, module: str) -> Path | None:
    wanted = module.replace(".", "/") + "/pack.py"
    dist = ep.dist
    if dist is not None:
        for file in dist.files or []:
            if file.as_posix() == wanted:
                return Path(str(dist.locate_file(file))).resolve().parent
    # An editable install lists no sources: find the top-level package's folder without running it (a spec of
    # a top-level name imports nothing), then walk down the dotted path as folders.
    top, *below = module.split(".")
    try:
        spec = importlib.util.find_spec(top)
    except (ImportError, ValueError):
        return None
    for location in (spec.submodule_search_locations or []) if spec is not None else []:
        folder = Path(location).joinpath(*below)
        if (folder / "pack.py").is_file():
            return folder.resolve()
    return None


def installed_packs() -> list[InstalledPack]:
    """Every entry point of the group, first one of a name wins (as the import system's path order)."""
    found: dict[str, InstalledPack] = {}
    for ep in importlib.metadata.entry_points(group=GROUP):
        if ep.name in found:
            continue
        dist = ep.dist
        name = dist.metadata["Name"] if dist is not None else "?"
        version = dist.version if dist is not None else "?"
        module = ep.value.split(":", 1)[0].strip()
        folder = _folder(ep, module)
        problem = None
        if folder is None:
            problem = (f"entry point {ep.name} = {ep.value} of {name} {version} leads to no pack.py (it must name "
                       "the package folder that holds pack.py)")
        elif folder.name != ep.name:
            problem = f"entry point {ep.name} points at package {folder.name}: name them alike (and NAME too)"
        found[ep.name] = InstalledPack(ep.name, module, str(name), str(version), folder, problem)
    return sorted(found.values(), key=lambda p: p.name)
