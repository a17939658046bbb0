"""What an agent run is asked to do and within which limits: one frozen value, given once to
:class:`~browserops.agent.run.AgentRun` (the collaborators it talks to — tool host, model, recorder, event sink,
confirmer, planner — are passed beside it, not in it)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from browserops.config import Settings


@dataclass(frozen=True, kw_only=True)
class RunConfig:
    """The task and its limits.

    ``read_only``: an exploration (``prepare --goal``): acting calls become plan steps and never run.
    ``record``: keep an evidence bundle (a recorder given to the run overrides it).
    ``max_steps`` and ``vision``: None takes the settings' value.
    """

    goal: str
    workspace: Path
    settings: Settings
    read_only: bool = False
    record: bool = True
    max_steps: int | None = None
    vision: bool | None = None
