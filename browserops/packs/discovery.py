"""Finding packs: installed ones (the ``browserops.packs`` entry-point group, browserops' built-ins among them)
and the workspace's ``domain_packs/`` folder; of the same name, the workspace's wins."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.packs.entry_points import InstalledPack, installed_packs
from browserops.packs.folder_loader import NAME_PATTERN, load_pack_dir
from browserops.packs.loaded_pack import Origin, Pack, pack_error

PACKS_DIR = "domain_packs"  # <workspace>/domain_packs/<name>/pack.py: a user's own packs
# The packs browserops ships (registered as entry points in its pyproject.toml, found through them).
BUILTIN_DIR = Path(__file__).resolve().parent / "builtin"


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


def _problems(exc: BrowserOpsError) -> list[str]:
    return list(exc.details.get("problems", [exc.message]))


def _load_installed(ep: InstalledPack) -> PackEntry:
    path = ep.folder or Path(ep.module)
    if ep.problem or ep.folder is None:
        return PackEntry(ep.name, "entry-point", path, None, [ep.problem or "no pack folder"], ep)
    try:
        return PackEntry(ep.name, "entry-point", path, load_pack_dir(ep.folder, "entry-point", ep), [], ep)
    except BrowserOpsError as exc:
        return PackEntry(ep.name, "entry-point", path, None, _problems(exc), ep)


def workspace_packs_dir(workspace: Path) -> Path:
    return workspace.resolve() / PACKS_DIR


def _folder_entries(root: Path) -> dict[str, PackEntry]:
    found: dict[str, PackEntry] = {}
    if not root.is_dir():
        return found
    for folder in sorted(p for p in root.iterdir() if (p / "pack.py").is_file()):
        try:
            found[folder.name] = PackEntry(folder.name, "workspace", folder, load_pack_dir(folder, "workspace"), [])
        except BrowserOpsError as exc:
            found[folder.name] = PackEntry(folder.name, "workspace", folder, None, _problems(exc))
    return found


def list_packs(workspace: Path | None) -> list[PackEntry]:
    """Every pack found, loaded or with the problems that stop it loading: installed (entry points, the
    built-ins among them), then the workspace's; a later one of the same name wins."""
    found = {ep.name: _load_installed(ep) for ep in installed_packs()}
    if workspace is not None:
        found.update(_folder_entries(workspace_packs_dir(workspace)))
    return sorted(found.values(), key=lambda e: e.name)


def get_pack(workspace: Path | None, name: str) -> Pack:
    """The pack called ``name`` (the workspace's first, then an installed one), loaded and checked."""
    if not NAME_PATTERN.match(name):
        raise BrowserOpsError(ErrorCode.PACK_NOT_FOUND,
                              f"{name[:60]!r} is not a pack name. See `browserops pack list`.")
    if workspace is not None:
        folder = workspace_packs_dir(workspace) / name
        if (folder / "pack.py").is_file():
            return load_pack_dir(folder, "workspace")
    entry = next((ep for ep in installed_packs() if ep.name == name), None)
    if entry is not None:
        loaded = _load_installed(entry)
        if loaded.pack is None:
            raise pack_error(loaded.path, loaded.problems)
        return loaded.pack
    raise BrowserOpsError(ErrorCode.PACK_NOT_FOUND, f"No domain pack named {name!r}. See `browserops pack list`.")
