"""How a step acts on its element: the one table from a step's verb to the tool call that performs it, used by every
phase that acts (prepare's rehearsal, the run). A new verb is added here once.

A typing, choosing, ticking or clicking step goes through ``browser_overlay_act`` by number (with the listing window
the number belongs to); an upload through ``browser_upload``; a press on a target through the ``press`` word of
``browser_overlay_act``, without a target (or when the step names ``browser_press``) through ``browser_press`` on the
element or on what has the focus; a word of the acting table the plan has no verb of its own for through
``browser_overlay_act`` with that word. A field that already holds the planned value, or a checkbox already in the
wanted state, is not acted on (:class:`Unchanged`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from browserops.plan.interpret.field_values import current_value
from browserops.plan.interpret.resolve import Resolved, upload_files, wanted_value
from browserops.plan.model.document import PlanAction
from browserops.plan.model.steps import Action, word_action
from browserops.privacy import SECRET
from browserops.values import same_value

StepInput = str | bool | list[str] | None


@dataclass(frozen=True)
class Act:
    """One acting call of a step and what it should leave behind, for the read-back (:mod:`.read_back`)."""

    tool: str
    args: dict[str, Any]
    did: str  # how the step's note says what was done ('typed into textbox "Merchant" (#2)')
    where: str  # how the element reads in messages ('textbox "Merchant" (#2)', 'the focused element')
    logged: dict[str, Any] | None = None  # the arguments as the event records them (a secret masked)
    clicks: bool = False  # it may activate something: its expectation is awaited and the page settles after
    types: bool = False  # typing: the field must hold the planned value afterwards
    checked: bool | None = None  # a tick: the state the element must be in afterwards
    entered: tuple[str, ...] = ()  # the values it puts into the page (masked out of a trace)

    @property
    def answers_dialog(self) -> bool:
        """Whether a dialog the call opens may be one the step announced (a click, a press, a tick)."""
        return self.clicks or self.checked is not None


@dataclass(frozen=True)
class Unchanged:
    """The element already is as the step wants it: nothing to do."""

    note: str


def press_call(a: PlanAction, el: Resolved | None) -> tuple[str, dict[str, Any], str]:
    """The tool, its arguments and how the element reads in notes, for press step ``a`` on ``el``."""
    assert a.key is not None
    if el is None:
        return "browser_press", {"key": a.key}, "the focused element"
    where = f'{el.role} "{el.name}" (#{el.number})'
    if a.tool == "browser_press":
        return "browser_press", {"key": a.key, "id": el.number}, where
    return "browser_overlay_act", {"index": el.number, "action": "press", "text": a.key, **el.act_args()}, where


def word_call(a: PlanAction, el: Resolved, value: Any) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """``browser_overlay_act``'s arguments for step ``a`` whose action is an acting tool's word the plan has no verb
    of its own for (steps.action_spec), and the same masked for the log when the value is sensitive."""
    text = {"text": value} if isinstance(value, str) else {}
    args = {"index": el.number, "action": str(a.action), **text, **el.act_args()}
    return args, ({**args, "text": dict(SECRET)} if a.sensitive and text else None)  # no length, no digest


def _holds(now: str | None, wanted: str | None, lang: str | None) -> bool:
    """Whether a field holding ``now`` already holds ``wanted``: the same text, or the same number or date as the
    page's language writes it (:func:`browserops.values.same_value`); never for an empty field."""
    if now is None or wanted is None:
        return now == wanted
    return now == wanted or (bool(now) and bool(wanted) and same_value(now, wanted, lang))


def act_for(a: PlanAction, el: Resolved | None, value: StepInput) -> Act | Unchanged | None:
    """How step ``a`` acts on ``el`` with ``value`` (the plan's value, or the secret from the input); None when it
    cannot (a sensitive value the input does not hold)."""
    if a.action is Action.PRESS:
        tool, args, where = press_call(a, el)
        return Act(tool, args, did=where, where=where, clicks=True)
    assert el is not None
    where = f'{el.role} "{el.name}" (#{el.number})'
    if word_action(a.action) is not None:
        args, logged = word_call(a, el, value)
        return Act("browser_overlay_act", args, did=f"{a.action} on {where}", where=where, logged=logged,
                   clicks=True, entered=(value,) if isinstance(value, str) else ())
    if a.action in (Action.TYPE, Action.SELECT):
        if not isinstance(value, str | list):
            return None
        if not a.sensitive and _holds(current_value(a, el), wanted_value(a), el.lang):
            return Unchanged(f"{where} already holds the value")
        typing = a.action is Action.TYPE
        # Several options (a multiple select, a two-list chooser, a tag input): one call picks them all.
        chosen = {"options": value} if isinstance(value, list) else {"text": value}
        args = {"index": el.number, "action": "type" if typing else "select", **chosen, **el.act_args()}
        return Act("browser_overlay_act", args, did=f"{'typed into' if typing else 'chose in'} {where}", where=where,
                   logged={**args, "text": dict(SECRET)} if a.sensitive else None, types=typing,  # no digest
                   entered=tuple(value) if isinstance(value, list) else (value,))
    if a.action is Action.CHECK:
        want = a.value is True
        if (el.state.get("checked") is True) == want:
            return Unchanged(f"{where} is already {'on' if want else 'off'}")
        return Act("browser_overlay_act", {"index": el.number, "action": "click", **el.act_args()},
                   did=f"{'checked' if want else 'unchecked'} {where}", where=where, checked=want)
    if a.action is Action.UPLOAD:
        files = upload_files(a)
        return Act("browser_upload", {"id": el.number, "files": files}, where=where,
                   did=f"attached {len(files)} file{'s' if len(files) != 1 else ''} to {where}")
    # a click: submit, payment or another action
    return Act("browser_overlay_act", {"index": el.number, "action": "click", **el.act_args()},
               did=f"clicked {where}", where=where, clicks=True)
