"""What a step's verb means: the business kinds (:class:`Kind`), the verbs (:class:`Action`) and, for each verb, the
least side-effect class it has, the kinds it may be and the tools that perform it (:data:`ACTIONS`: the tools whose
definition names the verb's ``plan_verb``, the first the default). An ``action`` may also be any word of the acting
tools' table the plan has no verb of its own for (:func:`action_spec` derives its meaning from the word's traits).

Kept apart from the step model (:mod:`browserops.plan.model.steps`, which re-exports these names) because the verbs'
table is read on its own: by the schemas, the diff, the side-effect summary and every phase of the interpreter.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from browserops.contract import PlanVerb, SideEffect
from browserops.tools.definitions import all_definitions
from browserops.tools.definitions.acting import ACTION_WORDS


class Kind(StrEnum):
    """What a step means for the business (drives the diff, the summary and the counts)."""

    NAVIGATE = "navigate"
    READ = "read"
    EXPORT = "export"
    FILL = "fill"
    SUBMIT = "submit"
    PAYMENT = "payment"
    ACT = "act"  # any other click that changes the page (open a menu, add a row)
    PRESS = "press"  # a key pressed on an element or the page (Escape closes a popup, Tab moves on)


class Action(StrEnum):
    """The verb the runner performs."""

    NAVIGATE = "navigate"
    CLICK = "click"
    TYPE = "type"
    SELECT = "select"
    CHECK = "check"  # checkbox / radio / switch to a wanted state: clicked only if it differs
    UPLOAD = "upload"
    DOWNLOAD = "download"
    WAIT_TEXT = "wait_text"
    SNAPSHOT = "snapshot"
    PRESS = "press"  # a key or chord (``key``) on the target, or on the page when there is none


@dataclass(frozen=True)
class ActionSpec:
    verb: PlanVerb  # the tools that perform it are the ones whose traits name it (the first one is the default)
    least: SideEffect
    kinds: frozenset[Kind]
    needs_target: bool
    value: Literal["none", "text", "choices", "bool", "files"]  # choices: one option (text) or several (a list)
    page_tool: str | None = None  # the tool that performs it when the step names no target

    @property
    def tools(self) -> tuple[str, ...]:
        found = tuple(d.name for d in all_definitions() if d.traits.plan_verb == self.verb)
        return found + ((self.page_tool,) if self.page_tool else ())


BROWSER_ACT_KINDS = frozenset({Kind.FILL, Kind.SUBMIT, Kind.PAYMENT, Kind.ACT, Kind.PRESS})
# Steps that may activate something on the page (clicks; a press of Enter or Space): what follows is another page.
CLICK_KINDS = frozenset({Kind.SUBMIT, Kind.PAYMENT, Kind.ACT})

ACTIONS: dict[Action, ActionSpec] = {
    Action.NAVIGATE: ActionSpec("navigate", SideEffect.READ_ONLY, frozenset({Kind.NAVIGATE}), False, "none"),
    Action.CLICK: ActionSpec("act", SideEffect.BROWSER_ACT, frozenset({Kind.SUBMIT, Kind.PAYMENT, Kind.ACT}), True,
                             "none"),
    Action.TYPE: ActionSpec("act", SideEffect.BROWSER_ACT, frozenset({Kind.FILL}), True, "text"),
    Action.SELECT: ActionSpec("act", SideEffect.BROWSER_ACT, frozenset({Kind.FILL}), True, "choices"),
    Action.CHECK: ActionSpec("act", SideEffect.BROWSER_ACT, frozenset({Kind.FILL}), True, "bool"),
    Action.UPLOAD: ActionSpec("upload", SideEffect.BROWSER_ACT, frozenset({Kind.FILL}), True, "files"),
    Action.DOWNLOAD: ActionSpec("download", SideEffect.EXPORT, frozenset({Kind.EXPORT}), True, "none"),
    Action.WAIT_TEXT: ActionSpec("wait_text", SideEffect.READ_ONLY, frozenset({Kind.READ}), False, "none"),
    Action.SNAPSHOT: ActionSpec("snapshot", SideEffect.READ_ONLY, frozenset({Kind.READ}), False, "none"),
    # On a target: the "press" action word of browser_overlay_act, by number like every other act; on the page
    # (no target): browser_press on whatever has the focus.
    Action.PRESS: ActionSpec("act", SideEffect.BROWSER_ACT, frozenset({Kind.PRESS, Kind.SUBMIT, Kind.PAYMENT,
                                                                       Kind.ACT}), False, "none",
                             page_tool="browser_press"),
}

# The action a kind gets when a step names only its kind.
DEFAULT_ACTION: dict[Kind, Action] = {
    Kind.NAVIGATE: Action.NAVIGATE,
    Kind.READ: Action.WAIT_TEXT,
    Kind.EXPORT: Action.DOWNLOAD,
    Kind.FILL: Action.TYPE,
    Kind.SUBMIT: Action.CLICK,
    Kind.PAYMENT: Action.CLICK,
    Kind.ACT: Action.CLICK,
    Kind.PRESS: Action.PRESS,
}
# The kind a step gets when it names only its action (a bare click is "act", never silently "read").
DEFAULT_KIND: dict[Action, Kind] = {
    Action.NAVIGATE: Kind.NAVIGATE,
    Action.CLICK: Kind.ACT,
    Action.TYPE: Kind.FILL,
    Action.SELECT: Kind.FILL,
    Action.CHECK: Kind.FILL,
    Action.UPLOAD: Kind.FILL,
    Action.DOWNLOAD: Kind.EXPORT,
    Action.WAIT_TEXT: Kind.READ,
    Action.SNAPSHOT: Kind.READ,
    Action.PRESS: Kind.PRESS,
}

# An ``action`` may also be any word of the acting tools' table (tools/definitions/acting.py) that the plan has no
# verb of its own for: a new word added there is a plan verb at once, performed by browser_overlay_act with that
# word, judged as a click (it "activates") or as typing, and taking text when the word does.
StepActionName = Action | str


def word_action(action: StepActionName | None) -> str | None:
    """The acting tool's word a step's action is, when it is not one of the plan's own verbs."""
    return action if isinstance(action, str) and not isinstance(action, Action) else None


def action_spec(action: StepActionName) -> ActionSpec:
    """What an action means: the plan's own table, or a spec derived from the acting word's traits."""
    if isinstance(action, Action):
        return ACTIONS[action]
    word = ACTION_WORDS[action]
    kinds = frozenset({Kind.FILL}) if word.commits == "type" else CLICK_KINDS
    return ActionSpec("act", SideEffect.BROWSER_ACT, kinds, True, "text" if word.text == "required" else "none")


def default_kind(action: StepActionName) -> Kind:
    """The kind a step gets when it names only its action (a bare click is "act", never silently "read")."""
    if isinstance(action, Action):
        return DEFAULT_KIND[action]
    return Kind.FILL if ACTION_WORDS[action].commits == "type" else Kind.ACT


def _verbs() -> list[str]:
    """Every action a step may name: the plan's own verbs, then the acting table's other words, as it is now."""
    return [a.value for a in Action] + [w for w in ACTION_WORDS if w not in Action._value2member_map_]


def check_action(value: Any) -> Any:
    if value is None or isinstance(value, Action):
        return value
    if isinstance(value, str):
        word = value.strip().lower()
        if word in Action._value2member_map_:
            return Action(word)
        if word in ACTION_WORDS:
            return word
    raise ValueError(f"{str(value)[:40]!r} is not an action (use {', '.join(_verbs())})")


def action_schema(schema: dict[str, Any]) -> None:
    # Filled in when a schema is generated, so the words listed are the acting table's at that moment.
    description = schema.get("description", "")
    nullable = "default" in schema  # the step file's action may be left out; a plan's is always there
    schema.clear()
    choices: list[dict[str, Any]] = [{"enum": _verbs(), "type": "string"}] + ([{"type": "null"}] if nullable else [])
    schema.update({"anyOf": choices, "description": description, "title": "Action"},
                  **({"default": None} if nullable else {}))


# Side-effect classes in order of consequence. Without --confirm only read-only and export steps run.
SIDE_EFFECT_RANK: dict[SideEffect, int] = {
    SideEffect.READ_ONLY: 0,
    SideEffect.EXPORT: 1,
    SideEffect.LOCAL_WRITE: 2,
    SideEffect.BROWSER_ACT: 3,
}
CONFIRM_FREE = frozenset({SideEffect.READ_ONLY, SideEffect.EXPORT})
