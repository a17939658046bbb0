"""One agent run: the observe → model → policy → act → validate loop, step-wise and resumable (docs/design.md §8).

``config`` (what the run is asked, :class:`RunConfig`), ``state`` → ``turns`` → ``loop`` (one class hierarchy
that owns the run's state: :class:`AgentRun`), ``outcomes`` (why it paused, what it holds), ``step_records``
(the masked step events), ``rules`` (the run's own stricter policy rules). The model client, call parsing,
prompt, observation and tool hosts the run uses live one level up in ``agent/``; front doors (CLI, chat, MCP
``browser_task``) drive a run from outside and are not here.
"""

from browserops.agent.run.config import RunConfig
from browserops.agent.run.loop import AgentRun
from browserops.agent.run.outcomes import TERMINAL, Budget, Emit, HeldAction, Pause, PauseKind, StepSummary
from browserops.agent.run.state import Planner

__all__ = ["TERMINAL", "AgentRun", "Budget", "Emit", "HeldAction", "Pause", "PauseKind", "Planner", "RunConfig",
           "StepSummary"]
