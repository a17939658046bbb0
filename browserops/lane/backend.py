"""Which lane a run holds: the interface every backend offers, and the choice of backend by the setting.

    lane = open_lane(ws, settings, holder={"requestId": rid})   # file (default) or redis://, per settings
    async with lane: ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from browserops.lane.file_lane import Lane

if TYPE_CHECKING:
    from browserops.config import Settings


class WorkspaceLane(Protocol):
    """What a run needs from a lane, whichever backend holds it."""

    waited_s: float
    token: int | None  # the fencing token of the current holding (None until acquired)

    async def acquire_async(self) -> WorkspaceLane: ...

    async def check(self) -> None:
        """Raise ``BROWSER_LANE_LOST`` when the lane is no longer ours (called before each acting step)."""

    async def release_async(self) -> None: ...

    def record(self) -> dict[str, Any]:
        """What ``bundle.json`` records about this holding: backend, fencing token, lease."""


def open_lane(workspace: Path, settings: Settings, *, no_wait: bool = False, timeout_s: float | None = None,
              on_wait: Callable[[str], None] | None = None,
              holder: Mapping[str, Any] | None = None) -> WorkspaceLane:
    """The lane of ``workspace`` on the backend ``settings.lane_backend`` names."""
    if settings.lane_backend == "file":
        return Lane(workspace, no_wait=no_wait, timeout_s=timeout_s, on_wait=on_wait, holder=holder)
    from browserops.lane.redis_lane import RedisLane  # only a Redis backend pays for importing redis

    return RedisLane(workspace, settings.lane_backend, lease_s=settings.lane_lease_s, no_wait=no_wait,
                     timeout_s=timeout_s, on_wait=on_wait, holder=holder)
