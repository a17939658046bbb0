"""What a listed element is *in*: the container a person names to tell same-named controls apart.

Five "Edit" buttons, one per table row, are told apart by their rows ("the Edit in the row of Printer toner");
a "more" button under every post by the post ("in @cierra's post"). The page side finds it (``containerOf`` in
``js/lib_containers.js``): among the element's ancestors that hold none of its namesakes (same role and name), nearest
first, a table row (its row header, else its first cells but the control's own), a list item, article, form
group, dialog, region or landmark by its name or heading, else a card (a box with exactly one heading), else
the nearest box with text of its own. The name is what a person reads there, cut to 60 characters.

A listing names the container of every item whose role and name repeat in it (``in`` in rows and objects,
``in_role`` in objects); ``containers=True`` names it for every item (for programs: a plan's ``within``, a
recorded step). ``browser_find(within=…)`` keeps the matches whose container naming contains the words
(:meth:`Container.matches`, the same folding as every other matcher).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from browserops.text import fold

MAX_CHARS = 60  # js/lib_containers.js CONTAINER_CHARS


@dataclass(frozen=True)
class Container:
    """The container an element is in: its ARIA role (``row``, ``listitem``, ``article``, ``group``,
    ``dialog``, ``region``, ``form``, ``tabpanel``, a landmark; ``generic`` for a card named by its heading or
    a box named by its text) and the name a person reads there."""

    role: str
    name: str

    def matches(self, text: str) -> bool:
        """Whether ``text`` (any case, spacing or width) occurs in the container's name."""
        wanted = fold(text)
        return bool(wanted) and wanted in fold(self.name)

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> Container | None:
        """From a page answer's ``in``/``inr`` keys (None when the item has no container named)."""
        name = raw.get("in")
        if not isinstance(name, str) or not name:
            return None
        return cls(role=str(raw.get("inr") or "generic"), name=name)
