"""Closed shadow roots, which page JavaScript (ours included) cannot see, handed to our isolated world.

DevTools' DOM domain pierces closed roots (as browser-use does). After a walk, the custom elements it could
not see into (``list.js``'s ``takeUnseenHosts``, taken right behind the walk) are described one by one; the
closed roots found, nested ones included, are resolved into the frame's isolated world and registered there
(``registerClosedRoot``), so the next walk enters them. The page's whole DOM is never serialised.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from playwright.async_api import CDPSession
from playwright.async_api import Error as PlaywrightError

from browserops.browser.js.listing import register_closed_root
from browserops.browser.numbering.worlds import WORLD_NAME
from browserops.browser.scripts import run_on_object

CLOSED_GROUP = f"{WORLD_NAME}-closed"  # DevTools object group of the closed-root check's page objects


def closed_inside(node: dict[str, Any]) -> list[int]:
    """Backend node ids of the closed shadow roots within ``node`` (a pierced ``DOM.describeNode`` answer),
    in its own document: a frame's document is its own world's business."""
    out: list[int] = []
    stack = [node]
    while stack:
        current = stack.pop()
        for root in current.get("shadowRoots") or []:
            if root.get("shadowRootType") == "closed":
                out.append(int(root["backendNodeId"]))
            stack.append(root)
        stack.extend(current.get("children") or [])
    return out


async def hand_closed_roots(cdp: CDPSession, context: int, array: str) -> int:
    """Hand the closed shadow roots of the custom elements in ``array`` (DevTools' object id of the page array
    ``takeUnseenHosts`` returned, in :data:`CLOSED_GROUP`) to the isolated world ``context``. Returns how many;
    0 when there are none or DevTools cannot tell. The group is released in any case."""
    done: list[Any] = []
    try:
        props = (await cdp.send("Runtime.getProperties", {"objectId": array, "ownProperties": True}))["result"]
        hosts = [str(p["value"]["objectId"]) for p in props
                 if str(p.get("name", "")).isdigit() and (p.get("value") or {}).get("objectId")]
        described = await asyncio.gather(*(cdp.send("DOM.describeNode", {"objectId": h}) for h in hosts),
                                         return_exceptions=True)
        tops = [int(root["backendNodeId"]) for answer in described if isinstance(answer, dict)
                for root in answer["node"].get("shadowRoots") or [] if root.get("shadowRootType") == "closed"]
        if not tops:
            return 0
        inside = await asyncio.gather(*(cdp.send("DOM.describeNode", {"backendNodeId": b, "depth": -1,
                                                                        "pierce": True}) for b in tops),
                                      return_exceptions=True)
        roots = tops + [b for answer in inside if isinstance(answer, dict) for b in closed_inside(answer["node"])]

        async def register(backend: int) -> None:
            resolved = await cdp.send("DOM.resolveNode", {"backendNodeId": backend, "executionContextId": context,
                                                          "objectGroup": CLOSED_GROUP})
            await run_on_object(cdp, str(resolved["object"]["objectId"]), register_closed_root())

        done = await asyncio.gather(*(register(b) for b in dict.fromkeys(roots)), return_exceptions=True)
    except PlaywrightError:
        return 0
    finally:
        _release_soon(cdp)
    return sum(1 for d in done if not isinstance(d, BaseException))  # a root gone meanwhile is not handed


_RELEASING: set[asyncio.Task[None]] = set()


def _release_soon(cdp: CDPSession) -> None:
    """Release :data:`CLOSED_GROUP` without waiting for the answer (a first listing's last round trip). The
    request is written before the next group's objects can be asked for (this session's messages are handled in
    order, and the caller's next request of that group comes after it awaited something), so it never frees
    those."""
    async def release() -> None:
        with contextlib.suppress(PlaywrightError):
            await cdp.send("Runtime.releaseObjectGroup", {"objectGroup": CLOSED_GROUP})

    task = asyncio.ensure_future(release())
    _RELEASING.add(task)
    task.add_done_callback(_RELEASING.discard)
