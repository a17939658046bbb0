"""Domain packs: business knowledge (an input schema, rules, semantic target names) that turns input data into
plan steps (docs/design.md §7). Here: finding packs (installed ones through the ``browserops.packs`` entry
point — the built-ins in ``builtin/`` are registered there too — and ``<workspace>/domain_packs/``), loading and
checking one, and writing new ones from ``templates/``. A pack never acts: its steps go through the plan's
validation, the confirm phrase, the lane and the evidence bundle, which live in ``plan/``, ``lane/`` and
``evidence/``, not here.

Pack code imports :class:`PackContext` from here (and the step vocabulary from ``browserops.plan.steps``).
"""

from browserops.packs.discovery import BUILTIN_DIR, PACKS_DIR, PackEntry, get_pack, list_packs
from browserops.packs.folder_loader import NAME_PATTERN, load_pack_dir, validate_pack_dir
from browserops.packs.loaded_pack import Origin, Pack
from browserops.packs.pack_input import PackContext, PackInput, read_input_file

__all__ = [
    "BUILTIN_DIR", "NAME_PATTERN", "PACKS_DIR", "Origin", "Pack", "PackContext", "PackEntry", "PackInput", "get_pack",
    "list_packs", "load_pack_dir", "read_input_file", "validate_pack_dir",
]
