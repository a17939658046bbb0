"""The shape of a tool, without running it: :class:`ToolDef`, the args base, the element argument and the
validation message.

A definition is what MCP lists, what the model is offered, what the policy gate and the plan read. It holds
no handler and imports no browser, so the agent's MCP host, the policy and the plan can know every tool without
loading Playwright. The handler that runs it is bound in ``browserops/tools/`` (``registry.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated, Any, Generic, TypeVar

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError

from browserops.contract import SideEffect, ToolTraits


class ToolArgs(BaseModel):
    """Base of every args model: unknown fields are errors, so a typo is reported, not ignored."""

    model_config = ConfigDict(extra="forbid")


class NoArgs(ToolArgs):
    pass


def _digits_to_number(value: Any) -> Any:
    # Models often send numbers as strings ("7"); blind ids always contain a letter, so this is unambiguous.
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return value


# The ``id`` argument of element tools: a number from the latest listing, or an element's blind id.
ElementId = Annotated[
    int | str,
    BeforeValidator(_digits_to_number),
    Field(
        description="The element: its number in the latest browser_list_interactives listing (e.g. 7), "
        "or its stable id from that listing (e.g. 'b12').",
    ),
]

A = TypeVar("A", bound=ToolArgs)


@dataclass(frozen=True)
class ToolDef(Generic[A]):
    """One tool: name (the seed's id), args model, a description written for a model, and its traits (the side
    effect among them: it lives there only)."""

    name: str
    args: type[A]
    description: str
    # The function that runs it, as ``module:function`` (``browserops.tools.actions:overlay_act``): a reference a
    # reader follows from here, resolved once by ``tools/registry.py`` (a string, so this package loads no browser).
    handler: str
    traits: ToolTraits = field(default_factory=ToolTraits)
    # Tools that must not get the generic timeout (a wait with its own timeout, a download).
    timeout_from_args: str | None = None
    # Other names a call may use for this tool (a name it had before): every runner accepts them, ``tools list``
    # and MCP list them (marked as another name, so the agent's MCP host does not offer a model the tool twice).
    aliases: tuple[str, ...] = ()

    @property
    def side_effect(self) -> SideEffect:
        return self.traits.side_effect

    @property
    def dialog_safe(self) -> bool:
        """May run while a JavaScript dialog blocks the active tab (browser_dialog, tab switching); every other
        tool fails fast with BROWSER_DIALOG_OPEN instead of hanging on the blocked page."""
        return self.traits.dialog_safe

    @property
    def read_only(self) -> bool:
        return self.side_effect is SideEffect.READ_ONLY

    def input_schema(self) -> dict[str, Any]:
        schema = self.args.model_json_schema()
        schema.pop("title", None)
        return schema


def describe_validation_error(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors():
        loc = ".".join(str(p) for p in err["loc"]) or "(arguments)"
        parts.append(f"{loc}: {err['msg']}")
    return "; ".join(parts)


def retry_safe(traits: ToolTraits) -> bool:
    """May a call that a crash cut short run again? Only when running it twice changes nothing: a read-only tool
    or a pure read (a screenshot taken twice). The one rule for every host that retries (the runner after a
    browser crash, the agent's MCP host after a server crash)."""
    return traits.side_effect is SideEffect.READ_ONLY or traits.pure_read
