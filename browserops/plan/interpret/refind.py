"""A step's element found again, once, when it vanished while the step acted on it.

A page can redraw the part a step acts in between the step's listing and its act: a chooser's results replaced when
its search is answered, a searching list's options, a row re-rendered by a framework. The element found a moment
ago is gone (``BROWSER_STALE_INDEX``); what a person sees in its place is the same control drawn again. The step
acts on it if it is found again **exactly**: the same role, the same accessible name, the same frame and, when the
step named its container, the same container name — and only one such element on the page (after the page settles
for up to :data:`REFIND_S`). Anything else (nothing, or two alike) leaves the step failing as it did: never another
element. Once per act; prepare's rehearsal and the run both act through :class:`~.guard.GuardedTools`, which asks
this (:attr:`~.guard.GuardedTools.find_again`, set by the step interpreter), so both follow the same rule.
"""

from __future__ import annotations

import time
from typing import Any

from browserops.plan.interpret.guard import FindAgain, GuardedTools
from browserops.plan.interpret.resolve import Resolved, label_key, list_all

REFIND_S = 3.0  # how long a redrawn part may take to show the element again
_REFOUND_TOOLS = frozenset({"browser_overlay_act"})


def refinder(tools: GuardedTools, tool: str, el: Resolved | None) -> FindAgain | None:
    """How the acting call of ``tool`` on ``el`` gets its element again (None: this call is not re-aimed)."""
    if el is None or tool not in _REFOUND_TOOLS or not el.name:
        return None

    async def again(args: dict[str, Any]) -> dict[str, Any] | None:
        found = await find_same(tools, el)
        if found is None:
            return None
        number, window = found
        moved = {k: v for k, v in args.items() if k not in ("limit", "offset")}
        return {**moved, "index": number, **window}

    return again


async def find_same(tools: GuardedTools, el: Resolved) -> tuple[int, dict[str, int]] | None:
    """The number (and listing window, when not the first) of the one element listed as ``el`` was: role, name,
    frame and container alike; None when there is none after :data:`REFIND_S` or more than one."""
    deadline = time.monotonic() + REFIND_S
    name = label_key(el.name)
    within = label_key(el.within) if el.within else None
    while True:
        items, _frames, windows = await list_all(tools, containers=within is not None)
        same = [i for i in items if i.get("role") == el.role and label_key(str(i.get("name", ""))) == name
                and str(i.get("frame", "main")) == el.frame
                and (within is None or label_key(str(i.get("in") or "")) == within)]
        if len(same) > 1:
            return None
        if same:
            number = int(same[0]["n"])
            window = windows.get(number, {})
            return number, (window if window.get("offset") else {})
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        await tools.need("browser_wait", {"timeout_ms": int(max(100, min(500, left * 1000)))})
