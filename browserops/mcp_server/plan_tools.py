"""The two-phase tools as MCP tools: ``browser_prepare`` and ``browser_evidence`` like the catalogue's (arguments
handed over untouched, the tool contract back), and ``browser_run`` with its approval resolver, which the SDK runs
before the body and which returns the question for the person (or why nobody is asked)."""

from __future__ import annotations

from typing import Any

from mcp.server.mcpserver import Context, Elicit, Resolve
from mcp.server.mcpserver.resolve import build_resolver_plans
from mcp.server.mcpserver.tools import Tool
from mcp_types import CallToolResult, ToolAnnotations

from browserops.agent.toolspec import AGENT_META, SIDE_EFFECT_META
from browserops.contract import SideEffect
from browserops.mcp_server.approval import Approve, Gate, gate, question
from browserops.mcp_server.two_phase import (
    EVIDENCE_DESCRIPTION,
    PREPARE_DESCRIPTION,
    RUN_DESCRIPTION,
    EvidenceArgs,
    PlanTools,
    PrepareArgs,
    RunArgs,
)
from browserops.mcp_server.wire import raw_metadata, to_call_tool_result
from browserops.tools.definitions import ToolArgs

PREPARE_TOOL, RUN_TOOL, EVIDENCE_TOOL = "browser_prepare", "browser_run", "browser_evidence"


def _schema(model: type[ToolArgs]) -> dict[str, Any]:
    schema = model.model_json_schema()
    schema.pop("title", None)
    return schema


def _annotations(side_effect: SideEffect) -> ToolAnnotations:
    return ToolAnnotations(read_only_hint=side_effect is SideEffect.READ_ONLY,
                           destructive_hint=side_effect is SideEffect.BROWSER_ACT, idempotent_hint=False,
                           open_world_hint=side_effect is not SideEffect.READ_ONLY)


def _meta(side_effect: SideEffect) -> dict[str, Any]:
    return {SIDE_EFFECT_META: side_effect.value, AGENT_META: True}


def _prepare_tool(tools: PlanTools) -> Tool:
    async def run(arguments: dict[str, Any], ctx: Context) -> CallToolResult:
        return to_call_tool_result(await tools.prepare(arguments, ctx))

    # prepare writes the plan and its bundle into the workspace; it changes nothing on a site.
    return Tool(fn=run, name=PREPARE_TOOL, description=PREPARE_DESCRIPTION, parameters=_schema(PrepareArgs),
                fn_metadata=raw_metadata(), is_async=True, context_kwarg="ctx",
                annotations=_annotations(SideEffect.LOCAL_WRITE), meta=_meta(SideEffect.LOCAL_WRITE))


def _evidence_tool(tools: PlanTools) -> Tool:
    async def run(arguments: dict[str, Any]) -> CallToolResult:
        return to_call_tool_result(tools.evidence(arguments))

    return Tool(fn=run, name=EVIDENCE_TOOL, description=EVIDENCE_DESCRIPTION, parameters=_schema(EvidenceArgs),
                fn_metadata=raw_metadata(), is_async=True, annotations=_annotations(SideEffect.READ_ONLY),
                meta=_meta(SideEffect.READ_ONLY))


def _run_tool(tools: PlanTools) -> Tool:
    workspace = tools.host.workspace

    async def ask_the_person(arguments: dict[str, Any], ctx: Context) -> Elicit[Approve] | Gate:
        return question(gate(workspace, arguments.get("request_id"), arguments, ctx))

    async def run(arguments: dict[str, Any], approval: Any, ctx: Context) -> CallToolResult:
        return to_call_tool_result(await tools.run(arguments, approval, ctx))

    # (resolver, wants_union): the body gets the whole outcome — accepted, declined or cancelled — never an
    # exception for a "no".
    resolved = {"approval": (Resolve(ask_the_person), True)}
    return Tool(fn=run, name=RUN_TOOL, description=RUN_DESCRIPTION, parameters=_schema(RunArgs),
                fn_metadata=raw_metadata(), is_async=True, context_kwarg="ctx", resolved_params=resolved,
                resolver_plans=build_resolver_plans(resolved, {"arguments"}),
                annotations=_annotations(SideEffect.BROWSER_ACT), meta=_meta(SideEffect.BROWSER_ACT))


def plan_tools(tools: PlanTools) -> list[Tool]:
    return [_prepare_tool(tools), _run_tool(tools), _evidence_tool(tools)]
