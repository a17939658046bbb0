"""The tools the model sees: Anthropic tool schemas generated from the catalogue, plus the two local ones.

A :class:`ToolSpec` is what a tool host advertises (name, description, JSON schema, side-effect class and,
when the tool lives in this process's catalogue, its pydantic args model for validating a call before it
is sent). ``assistant_done`` and ``assistant_ask`` are answered by the loop itself, never by a host.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, Field

from browserops.contract import SideEffect, ToolTraits
from browserops.tools.definitions import ToolArgs, ToolDef, all_definitions

DONE = "assistant_done"
ASK = "assistant_ask"


class DoneArgs(ToolArgs):
    reason: str = Field(
        min_length=1,
        max_length=2000,
        description="What was achieved and what on the page confirms it (URL, title, visible message).",
    )


class AskArgs(ToolArgs):
    question: str = Field(
        min_length=1,
        max_length=1000,
        description="One short, specific question for the user. Never ask for passwords or one-time codes.",
    )


# Where an MCP tool listing carries what browserops knows about a tool (``Tool.meta``).
SIDE_EFFECT_META = "browserops/side_effect"
TRAITS_META = "browserops/traits"
# A front-door tool for a master agent, never offered to an agent: the server's own agent (browser_task) and its
# two-phase tools (browser_prepare, browser_run, browser_evidence).
AGENT_META = "browserops/agent"
ALIAS_META = "browserops/alias_of"  # another name of a listed tool (for clients written against it): never offered


@dataclass(frozen=True)
class ToolSpec:
    name: str
    description: str
    input_schema: dict[str, Any]
    # The tool's traits, its side effect among them (a tool nobody described gets the strict default: it acts).
    traits: ToolTraits = field(default_factory=ToolTraits)
    args: type[BaseModel] | None = None  # None for a tool known only by its schema (e.g. over MCP)
    local: bool = False

    @property
    def side_effect(self) -> SideEffect:
        return self.traits.side_effect

    def anthropic(self) -> dict[str, Any]:
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema}


def inline_refs(schema: dict[str, Any]) -> dict[str, Any]:
    """Replace local ``#/$defs/...`` references by their definitions, so every Messages-compatible endpoint
    (some reject ``$ref``) gets a self-contained schema. Recursive models are left referenced."""
    defs = schema.get("$defs")
    defs = defs if isinstance(defs, dict) else {}

    def walk(node: Any, seen: frozenset[str]) -> Any:
        if isinstance(node, dict):
            ref = node.get("$ref")
            if isinstance(ref, str) and ref.startswith("#/$defs/"):
                key = ref.removeprefix("#/$defs/")
                if key in defs and key not in seen:
                    merged = {**copy.deepcopy(defs[key]), **{k: v for k, v in node.items() if k != "$ref"}}
                    return walk(merged, seen | {key})
            return {k: walk(v, seen) for k, v in node.items() if k != "$defs"}
        if isinstance(node, list):
            return [walk(v, seen) for v in node]
        return node

    out = walk(schema, frozenset())
    if any(_has_ref(v) for v in out.values()):  # a recursive model: keep its definitions
        out["$defs"] = defs
    return dict(out)


def _has_ref(node: Any) -> bool:
    if isinstance(node, dict):
        return "$ref" in node or any(_has_ref(v) for v in node.values())
    if isinstance(node, list):
        return any(_has_ref(v) for v in node)
    return False


def _schema(args: type[BaseModel]) -> dict[str, Any]:
    schema = inline_refs(args.model_json_schema())
    schema.pop("title", None)
    schema.setdefault("type", "object")
    schema.setdefault("properties", {})
    return schema


def spec_from_def(tool: ToolDef[Any]) -> ToolSpec:
    return ToolSpec(
        name=tool.name,
        description=tool.description,
        input_schema=_schema(tool.args),
        traits=tool.traits,
        args=tool.args,
    )


LOCAL_TOOLS: tuple[ToolSpec, ...] = (
    ToolSpec(
        name=DONE,
        description=(
            "Finish the task. Call it only when the page itself shows the goal is achieved (results listed, "
            "confirmation message, file saved), and say in `reason` what confirms it."
        ),
        input_schema=_schema(DoneArgs),
        args=DoneArgs,
        local=True,
        traits=ToolTraits(side_effect=SideEffect.READ_ONLY, pure_read=True, activation="never"),
    ),
    ToolSpec(
        name=ASK,
        description=(
            "Pause and ask the user one question when the task cannot go on without their input (a missing "
            "value, an ambiguous goal, a choice between options). Never ask for passwords or one-time codes: "
            "tell the user to type those into the field themselves."
        ),
        input_schema=_schema(AskArgs),
        args=AskArgs,
        local=True,
        traits=ToolTraits(side_effect=SideEffect.READ_ONLY, pure_read=True, activation="never"),
    ),
)


def catalogue_specs(tools: Iterable[ToolDef[Any]] | None = None) -> list[ToolSpec]:
    """Specs for the in-process catalogue (every tool unless a subset is given)."""
    return [spec_from_def(t) for t in (all_definitions() if tools is None else tools)]


def model_tools(host_specs: Iterable[ToolSpec]) -> list[ToolSpec]:
    """What the model is offered: the host's tools then the local assistant tools (a host cannot shadow them)."""
    local_names = {t.name for t in LOCAL_TOOLS}
    return [t for t in host_specs if t.name not in local_names] + list(LOCAL_TOOLS)


def anthropic_tools(specs: Iterable[ToolSpec]) -> list[dict[str, Any]]:
    return [s.anthropic() for s in specs]


def traits_in(specs: Mapping[str, ToolSpec], name: str) -> ToolTraits:
    """The traits of ``name`` among a host's specs; a tool nobody described gets the strict default (it acts)."""
    spec = specs.get(name)
    return spec.traits if spec is not None else ToolTraits()
