"""The policy gate as the loop applies it: read the target live, classify, and say what to do.

Before an acting call runs, :func:`judge` asks the host for ``browser_inspect`` of the element the call
targets (by number or id; the focused element for a bare key press; the open dialog for ``browser_dialog``)
and turns it into a :class:`~browserops.policy.TargetInfo`: role, name, value, input type, autocomplete and
the text of the form/section around it. :func:`~browserops.policy.classify` then decides. Page text can only
make that decision stricter (see :mod:`browserops.policy`); nothing the model or the page says changes it.
Read-only calls and calls that commit nothing are classified without asking the page at all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from browserops import policy
from browserops.agent.toolhost import ToolHost
from browserops.contract import SideEffect, ToolResult, ToolTraits

INSPECT = "browser_inspect"
STALE_CODES = frozenset({"BROWSER_STALE_INDEX", "BROWSER_ELEMENT_NOT_FOUND"})


@dataclass(frozen=True)
class Judgement:
    decision: policy.Decision
    target: policy.TargetInfo | None
    number: int | None = None
    # Set when the target does not exist (a stale number): the call would fail the same way, so the loop
    # returns this result instead of asking anyone to confirm a broken action.
    stale: ToolResult | None = None
    # The live browser_inspect answer (role, name, state, type, frame, n, id…), when the page was asked.
    element: Mapping[str, Any] | None = None


def target_info(data: Mapping[str, Any]) -> policy.TargetInfo:
    """A live ``browser_inspect`` answer → the gate's TargetInfo (all of it untrusted page data)."""
    state = data.get("state") if isinstance(data.get("state"), Mapping) else {}
    assert isinstance(state, Mapping)

    def text(value: Any) -> str:
        return value if isinstance(value, str) else ""

    nearby = " ".join(part for part in (text(data.get("described_by")), text(data.get("context"))) if part)
    return policy.TargetInfo(
        role=text(data.get("role")),
        name=text(data.get("name")),
        value=text(state.get("value")),
        nearby_text=nearby,
        input_type=text(data.get("type")),
        autocomplete=text(data.get("autocomplete")),
    )


def needs_target(traits: ToolTraits, args: Mapping[str, Any]) -> bool:
    """Would the decision depend on the element? Only for calls that type or commit something."""
    if traits.side_effect is SideEffect.READ_ONLY:
        return False
    return policy.activation_of(traits, args) != "none"


async def judge(host: ToolHost, tool: str, args: Mapping[str, Any], traits: ToolTraits = policy.UNKNOWN) -> Judgement:
    """Decide on one call of ``tool`` (``traits`` from the host's tool list: which argument names the element,
    whether it acts on the focus when none is named)."""

    def classify(target: policy.TargetInfo | None) -> policy.Decision:
        return policy.classify(tool, args, target, traits)

    if not needs_target(traits, args):
        return Judgement(classify(None), None)
    key = traits.target_arg
    element = args.get(key) if key else None
    if element is None and not traits.acts_on_focus and key is not None:
        return Judgement(classify(None), None)
    inspect_args: dict[str, Any] = {} if element is None else {"id": element}
    result = await host.call(INSPECT, inspect_args)
    data = result.get("data") if isinstance(result.get("data"), Mapping) else {}
    assert isinstance(data, Mapping)
    if result.get("status") != "ok":
        if result.get("code") in STALE_CODES and element is not None and "limit" not in args and "offset" not in args:
            return Judgement(classify(None), None, stale=result)
        # Unknown target: the gate treats any activation of it as needing the user.
        return Judgement(classify(None), None)
    if element is None and not data.get("focused") and data.get("role") != "alertdialog":
        return Judgement(classify(None), None)
    target = target_info(data)
    number = data.get("n") if isinstance(data.get("n"), int) else None
    return Judgement(classify(target), target, number, element=dict(data))
