"""``browserops prepare --goal "GOAL" --url URL``: a plan explored by the agent (read-only), then prepared."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from browserops.cli.context import CliState
from browserops.contract import BrowserOpsError, ErrorCode

if TYPE_CHECKING:
    from browserops.plan.prepare.prepare import PlanRequest
    from browserops.tools.context import ToolContext as Context


class GoalSource:
    """Checks the options and makes the model at once (``BROWSER_LLM_UNAVAILABLE`` before any browser starts);
    :meth:`request` explores in the prepare session and returns the plan request."""

    def __init__(self, state: CliState, goal: str, url: str | None, max_steps: int | None, *, others: bool) -> None:
        from browserops.agent.llm import LLMClient

        if others:
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, "Give exactly one plan source: --goal TEXT, --pack NAME "
                                  "--input FILE, or --steps FILE.")
        if not url or not url.startswith(("http://", "https://")):
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, "--goal needs --url: the absolute http(s) page the agent "
                                  "starts exploring from.")
        if not goal.strip():
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, "--goal is empty: say what the plan should do.")
        self.state = state
        self.goal = goal.strip()
        self.url = url
        self.max_steps = max_steps
        self.settings = state.loaded().settings
        self.model = LLMClient.from_settings(self.settings)

    async def progress(self, kind: str, data: dict[str, Any]) -> None:
        if kind == "progress":
            self.state.progress(f"  explore: {data.get('text') or data.get('tool')}")

    async def request(self, ctx: Context) -> PlanRequest:
        from browserops.agent.explore import explore
        from browserops.agent.toolhost import InProcessToolHost
        from browserops.plan.model import PlanSource
        from browserops.plan.prepare.prepare import PlanRequest
        from browserops.tools.context import ToolContext

        self.state.progress(f"Exploring read-only with {self.settings.model}: nothing is clicked or typed.")
        # Like prepare itself, the exploration never runs the banner closer (it would click on the site).
        no_banners = self.settings.model_copy(update={"banners_auto_close": False})
        quiet = ToolContext(session=ctx.session, settings=no_banners, workspace=ctx.workspace)
        async with self.model:
            explored = await explore(InProcessToolHost(quiet), self.model, self.settings, goal=self.goal,
                                     start_url=self.url, workspace=self.state.workspace, max_steps=self.max_steps,
                                     emit=self.progress)
        result = explored.result
        self.state.progress(f"Exploration {result.request_id}: {result.pause.kind}, {len(explored.steps)} plan "
                            f"step(s). Evidence: {result.bundle}")
        if not explored.steps:
            raise BrowserOpsError(ErrorCode.PLAN_INVALID, f"The agent's exploration produced no step to plan "
                                  f"({result.pause.kind}: {result.pause.message}). Evidence: {result.bundle}")
        source = PlanSource(kind="agent", name=f"agent exploration {result.request_id}"[:200],
                            path=str(result.bundle) if result.bundle else None)
        return PlanRequest(title=self.goal[:200], start_url=self.url, steps=explored.steps, source=source)
