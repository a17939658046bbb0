"""``browser_task``: the whole agent as one tool for a master agent (docs/design.md §8.8).

:func:`run_task` runs an :class:`~browserops.agent.run.AgentRun` as a sub-agent over a tool host (the MCP
server's own session) and returns the tool contract. Nothing waits for a person here, so:

- ``done`` → ``{"status": "ok", "data": {"outcome": "done", "summary", "verified", ...}}``;
- a destructive action is **not executed**: ``{"status": "ok", "data": {"outcome": "needs_approval", "pending":
  {"tool", "args" (masked), "target", "reason", "description"}, ...}}`` — the master agent asks its user;
- a question → ``outcome: "needs_input"`` with the ``question``; a login/password/captcha step →
  ``outcome: "needs_user"``;
- limits and failures → ``{"status": "error", "code": "BROWSER_LIMIT_REACHED" | ..., "error", "data"}``.

Every task leaves its evidence bundle (``requestId``, ``bundle`` in ``data``).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import Field, ValidationError

from browserops.agent.model_api import Model
from browserops.agent.run import AgentRun, RunConfig
from browserops.agent.toolhost import ToolHost
from browserops.config import Settings
from browserops.contract import BrowserOpsError, ErrorCode, ToolResult, error, ok
from browserops.policy import PendingAction
from browserops.tools.definitions import ToolArgs, describe_validation_error

TASK_TOOL = "browser_task"
TASK_DESCRIPTION = (
    "Run the browserops agent as a sub-agent: it works toward GOAL in this server's browser one numbered step at "
    "a time (observe, act, verify) and returns its final summary. Destructive actions (pay, delete, send, "
    "submit…) are never executed: they come back as outcome=needs_approval with the pending action. A question "
    "comes back as outcome=needs_input, a login or one-time code as outcome=needs_user. Needs a model "
    "(ANTHROPIC_API_KEY or ANTHROPIC_BASE_URL in the server's environment)."
)


class TaskArgs(ToolArgs):
    goal: str = Field(min_length=1, max_length=4000, description="What to achieve, in plain words.")
    url: str | None = Field(None, max_length=4000, description="Open this page first (else: the current page).")
    max_steps: int | None = Field(None, ge=1, le=100, description="Iteration limit (default: the max_steps "
                                  "setting, 20).")


def _data(run: AgentRun, **extra: Any) -> dict[str, Any]:
    view = run.observer.view
    return {"requestId": run.request_id, "bundle": str(run.recorder.path) if run.recorder else None,
            "steps": len(run.history), "iterations": run.budget.iterations,
            "url": run.scrub(view.url), "title": run.scrub(view.title), **extra}


async def run_task(host: ToolHost, settings: Settings, workspace: Path, raw_args: Mapping[str, Any], *,
                   model: Model | None = None, env: Mapping[str, str] | None = None) -> ToolResult:
    """Run one sub-agent task; never raises (the tool contract)."""
    try:
        args = TaskArgs.model_validate(dict(raw_args))
    except ValidationError as exc:
        return error(ErrorCode.INVALID_ARGS, f"Invalid arguments for {TASK_TOOL}: {describe_validation_error(exc)}.")
    owned = model is None
    try:
        if model is None:
            from browserops.agent.llm import LLMClient

            model = LLMClient.from_settings(settings, env=env)
    except BrowserOpsError as exc:
        return error(exc.code, exc.message)
    try:
        if args.url:
            opened = await host.call("browser_navigate", {"url": args.url})
            if opened.get("status") != "ok":
                return opened
        run = AgentRun(host, model, RunConfig(goal=args.goal, workspace=workspace, settings=settings,
                                                max_steps=args.max_steps))
        try:
            pause = await run.advance()
        finally:
            if run.finished is None:
                run.close("The sub-agent stopped before the goal was reached (it needs the caller).")
        message = run.scrub(pause.message)
        if pause.kind == "done":
            return ok(_data(run, outcome="done", summary=message, verified=pause.verified))
        if pause.kind == "confirm" and pause.held is not None:
            held = pause.held
            pending = PendingAction.from_policy(held.pending, held.args, held.number)
            view = pending.model_dump(mode="json")
            view["description"] = pending.describe()
            summary = f"Not executed, needs your approval: {pending.describe()}"
            return ok(_data(run, outcome="needs_approval", pending=view, summary=summary))
        if pause.kind == "ask":
            return ok(_data(run, outcome="needs_input", question=run.scrub(pause.question), summary=message))
        if pause.kind == "handoff":
            return ok(_data(run, outcome="needs_user", summary=message))
        known = {c.value: c for c in ErrorCode}
        code = known.get(pause.code or "", ErrorCode.INTERNAL)
        return error(code, message, _data(run, outcome=pause.kind))
    finally:
        closer = getattr(model, "aclose", None) if owned else None
        if closer is not None:
            await closer()
