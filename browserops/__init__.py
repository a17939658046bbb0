"""browserops: auditable browser automation that touches pages only through numbered-element tools.

The package's layers, top to bottom: front doors (``cli``, ``mcp_server``, ``server``), what they share (``chat``,
``twophase``), deciders (``agent``, ``plan``, ``packs``), guards and records (``policy``, ``lane``, ``evidence``),
the one tool catalogue (``tools``) and the only Playwright user (``browser``); ``docs/design.md`` has the map and
import-linter enforces it.
"""

__version__ = "0.1.0"
