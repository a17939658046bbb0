"""The catalogue's traits by tool name, for tests that classify calls the way the agent does (it passes the
traits from its host's tool list)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from browserops import policy
from browserops.agent.toolspec import LOCAL_TOOLS
from browserops.contract import ToolTraits
from browserops.tools.registry import get_tool


def traits_of(name: str) -> ToolTraits:
    """A catalogue tool's traits, the assistant tools' own, or the strict default for an unknown name."""
    tool = get_tool(name)
    if tool is not None:
        return tool.traits
    local = {spec.name: spec.traits for spec in LOCAL_TOOLS}
    return local.get(name, policy.UNKNOWN)


def classify(tool: str, args: Mapping[str, Any] | None = None,
             target: policy.TargetInfo | None = None) -> policy.Decision:
    return policy.classify(tool, args, target, traits_of(tool))
