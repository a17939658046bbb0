"""The workspace lane: one browser run per workspace at a time, so two runs never act on the same site state at
once (docs/design.md §5.5); different workspaces run in parallel.

``backend`` holds the interface (:class:`WorkspaceLane`) and :func:`open_lane`, which picks the backend the
settings name: ``file_lane`` (an OS file lock, one machine) or ``redis_lane`` (a Redis lease with fencing tokens,
imported only when chosen); ``holder`` words who holds a lane. What a run does while holding it (the plan's
steps, the evidence) lives in ``plan/``, not here.
"""

from browserops.lane.backend import WorkspaceLane, open_lane
from browserops.lane.file_lane import Lane

__all__ = ["Lane", "WorkspaceLane", "open_lane"]
