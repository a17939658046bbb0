"""The plan as data, without a browser: the step file (``steps``, ``step_parts``), the plan document
(``document``: plan.json, its diff lines in ``diff_entry``, what a step's value means in ``step_values``), how both
are read (``loader``), built (``build``), shown (``diff``), confirmed (``phrase``) and described (``schemas``), and
how messages name a step (``facts``). Nothing here lists, acts or waits: that is ``interpret/`` and the phases.

``browserops.plan.model`` is also a name packs import (cli_contract.md): it offers the plan document's names.
"""

from browserops.plan.model import document as _document
from browserops.plan.model.document import *  # noqa: F403  (the plan document's names, as document.__all__ lists them)

__all__ = list(_document.__all__)
