"""The plan as a Terraform-style diff, for people to review before they confirm.

::

      + merchant = "Northwind Taxi"
      ~ amount   = "10.00" -> "23.40"
      - notes
      + password = (sensitive)
      > submit   button "Submit expense"        [browser-act, needs --confirm]
      ↓ export   link "Export CSV" -> exports/statements_2026-01.csv

    Plan: 3 fills, 1 submit, 1 export; side effects: export, browser-act

Values from the page are untrusted text: they are shown JSON-quoted (control and escape characters visible,
never interpreted by the terminal) and cut to a readable length.
"""

from __future__ import annotations

import orjson

from browserops.contract import SideEffect
from browserops.evidence.layout import export_relpath
from browserops.plan.model.document import BrowserPlan, PlanAction
from browserops.plan.model.step_values import multi_text
from browserops.plan.model.steps import CONFIRM_FREE, SIDE_EFFECT_RANK, Action, Kind

MAX_VALUE_CHARS = 80
_MARK = {Kind.SUBMIT: ">", Kind.PAYMENT: "$", Kind.ACT: ">", Kind.PRESS: ">", Kind.EXPORT: "↓", Kind.NAVIGATE: "→",
         Kind.READ: "?"}


def quote(value: str) -> str:
    if len(value) > MAX_VALUE_CHARS:
        value = value[: MAX_VALUE_CHARS - 1] + "…"
    return orjson.dumps(value).decode()


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _target(action: PlanAction) -> str:
    if action.key is not None:
        on = action.target.describe() if action.target is not None else "the focused element"
        return f"key {action.key} on {on}"
    if action.target is None:
        return action.url or ""
    return action.target.describe()


def value_text(action: PlanAction) -> str | None:
    """The value as the diff shows it (display text, else the value); None when it must not be shown."""
    if action.sensitive:
        return None
    if action.display is not None:
        return action.display
    if isinstance(action.value, bool):
        return "true" if action.value else "false"
    if isinstance(action.value, list):
        return multi_text(action.value) if action.action is Action.SELECT else ", ".join(action.value)
    return action.value


def shown(text: str, action: PlanAction) -> str:
    """A value quoted for the diff; several options are already one JSON list (``["conference", "q4"]``)."""
    if action.action is Action.SELECT and isinstance(action.value, list) and text.startswith("["):
        return text if len(text) <= 4 * MAX_VALUE_CHARS else text[: 4 * MAX_VALUE_CHARS - 2] + "…]"
    return quote(text)


def planned_value(action: PlanAction) -> str:
    if action.sensitive:
        return "(sensitive)"
    text = value_text(action)
    if text is None:
        return f"(from input {action.value_ref.key})" if action.value_ref else "(none)"
    return shown(text, action)


def diff_lines(plan: BrowserPlan) -> list[str]:
    """One line per change (fills) or per action that is not a fill, in step order."""
    entries = {d.step: d for d in plan.diff or []}
    fill_width = max([len(a.label()) for a in plan.actions] + [4])
    lines: list[str] = []
    for a in plan.actions:
        name = a.label().ljust(fill_width)
        if a.kind is Kind.FILL:
            if plan.diff is None:
                lines.append(f"  + {name} = {planned_value(a)}")
                continue
            entry = entries.get(a.number)
            if entry is None:
                continue  # the page already holds the value: nothing to change
            unread = "   (current value not read)" if entry.unread else ""
            if entry.sensitive:
                lines.append((f"  {entry.op} {name} = (sensitive)" if entry.op != "-" else f"  - {name}".rstrip())
                             + unread)
            elif entry.op == "+":
                lines.append(f"  + {name} = {shown(entry.after or '', a)}{unread}")
            elif entry.op == "~":
                lines.append(f"  ~ {name} = {shown(entry.before or '', a)} -> {shown(entry.after or '', a)}")
            else:
                lines.append(f"  - {name}".rstrip() + unread)
            continue
        if a.kind in (Kind.NAVIGATE, Kind.READ):
            continue  # reads change nothing; they are in the step list, not in the diff
        line = f"  {_MARK[a.kind]} {name} {_target(a)}"
        if a.kind is Kind.EXPORT:
            line += f" -> {export_relpath(a.save_as) if a.save_as else 'exports/'}"
        if a.dialog is not None:
            line += f", then {a.dialog.describe()}"
        if a.side_effect not in CONFIRM_FREE:
            line += f"   [{a.side_effect.value}, needs --confirm]"
        lines.append(line)
    return lines


def summary_line(plan: BrowserPlan) -> str:
    c = plan.counts()
    parts = [_plural(c.fills, "fill"), _plural(c.submits, "submit"), _plural(c.exports, "export")]
    if c.payments:
        parts.append(_plural(c.payments, "payment"))
    if c.acts:
        parts.append(_plural(c.acts, "other action"))
    effects = sorted(
        {a.side_effect for a in plan.actions if a.side_effect is not SideEffect.READ_ONLY},
        key=SIDE_EFFECT_RANK.__getitem__,
    )
    shown = ", ".join(e.value for e in effects) if effects else "none (read-only)"
    return f"Plan: {', '.join(parts)}; side effects: {shown}"


def render_diff(plan: BrowserPlan) -> str:
    """The diff lines, a blank line, then ``Plan: N fills, M submits, K exports; side effects: …``."""
    lines = diff_lines(plan)
    if not lines:
        lines = ["  No changes. The page already matches this plan."]
    return "\n".join([*lines, "", summary_line(plan)])
