"""``module:function`` references, as the definitions name a tool's handler and an action word's browser call: the
definitions stay free of browser imports, a reader follows the reference, and this resolves it once."""

from __future__ import annotations

import functools
import importlib
from typing import Any


@functools.cache
def resolve(reference: str) -> Any:
    """The function ``reference`` (``browserops.tools.actions:overlay_act``) names; a test may name its own."""
    module, _, name = reference.partition(":")
    if not module.startswith(("browserops.", "tests.")):
        raise RuntimeError(f"{reference!r} is not a reference to browserops' own code")
    found = getattr(importlib.import_module(module), name, None)
    if not callable(found):
        raise RuntimeError(f"{reference!r} names nothing callable")
    return found
