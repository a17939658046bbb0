"""After a step acted: what its element holds now, compared with what the plan wanted, before the next step.

The acting tool reports the element as it is after the act: for typing whether the field holds the typed text and
what it holds, for a choice the option it shows, for a field that takes several (a multiple select, a tag input, a
widget standing for a hidden ``<select multiple>``) the set of values it holds — a comma-separated text typed into a
field that says it takes a comma-separated list is that list —, for a tick its state, for an upload how many files
the input holds. Values compare by meaning in the page's language (:func:`browserops.values.same_value`). A
difference is a
:class:`Mismatch` (``BROWSER_VALUE_MISMATCH``, with the field, the planned and the found value — a sensitive one
only as its length and digest) that the phase handles: the run stops before anything later is submitted, prepare's
rehearsal reports it as a problem of the step, so it shows before anyone confirms.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import Any

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.plan.interpret.acting import Act
from browserops.plan.model.document import PlanAction
from browserops.plan.model.steps import Action
from browserops.privacy import text_digest
from browserops.text import fold
from browserops.values import same_value
from browserops.words import split_list, takes_comma_list


@dataclass(frozen=True)
class Mismatch:
    """The step's element after the act is not what the plan said."""

    step: int
    field: str
    message: str
    details: dict[str, Any] = dataclass_field(default_factory=dict)  # planned, found (a secret: length, digest)

    def error(self, advice: str = "") -> BrowserOpsError:
        return BrowserOpsError(ErrorCode.VALUE_MISMATCH, f"Step {self.step} ({self.field}): {self.message}{advice}",
                               details={"step": self.step, "field": self.field, **self.details})


def _shown(value: str, *, sensitive: bool) -> Any:
    """A value as a mismatch may show it: itself, or for a sensitive one its length and digest only."""
    return {"length": len(value), "digest": text_digest(value)} if sensitive else value


def _same(planned: str, found: str, lang: str | None, *, part: bool = True) -> bool:
    """One planned value and one held: the same text (folded), number or date in the page's language, or (``part``)
    the option the plan named by a part of its name, as the choosing tool matches it. A typed list's items are never
    matched by a part: the tag ``launch, editor`` is not the planned ``launch``."""
    want, got = fold(planned), fold(found)
    return want == got or (part and bool(want) and want in got) or same_value(found, planned, lang)


def _held(desc: Any, *, comma_list: bool) -> list[str] | None:
    """The values a field holds, from its description by the acting tool (None: it does not say): a multiple
    ``<select>``'s chosen labels, else those of the hidden ``<select>`` a widget stands for, else the hidden text
    field's value as a list (a tag input) when ``comma_list``; with no hidden field, the chips the widget shows as
    chosen (a UI kit's multiple select: what a person sees is what it holds)."""
    if not isinstance(desc, dict):
        return None
    values = (desc.get("state") or {}).get("values")
    if isinstance(values, list):
        return [str(v) for v in values]
    holds = desc.get("stands_for")
    if not isinstance(holds, dict):
        chips = desc.get("chips")  # no hidden field: what the widget shows as chosen, as a person reads it
        return [str(c) for c in chips] if isinstance(chips, list) else None
    if isinstance(holds.get("values"), list):
        return [str(v) for v in holds["values"]]
    text = holds.get("text")
    if comma_list and isinstance(text, str) and (not text.strip() or holds.get("asShown") is True):
        # Only items the widget shows as they are: a widget keeping the server's ids for them (react-admin's "3,6")
        # says nothing comparable with the plan's names.
        return split_list(text)
    return None


def _set_mismatch(a: PlanAction, act: Act, data: dict[str, Any], planned: list[str],
                  lang: str | None) -> Mismatch | None:
    """A field that takes several after the act: each planned value is among what it holds, and what it holds now
    that it did not before the act is each a planned value (a tag made of the whole typed text is not). Picks may
    name an option by a part of its name, as the choosing tool does; a typed list's items must be whole."""
    before = _held(data.get("target"), comma_list=True)
    found = _held(data.get("element"), comma_list=True)
    if found is None and before is not None and "chips" in (data.get("target") or {}):
        found = []  # it showed chips before the act and shows none now: it holds nothing
    if found is None:
        return None  # it does not say what it holds (a widget showing no chips, no hidden field): nothing to compare
    before = before or []
    # The options the choosing tool clicked, by their whole names, stand for the planned values it matched by a part
    # of their name; without them (a native list, a typed list) a pick may still be named by a part, a typed item not.
    chosen = data.get("chosen")
    # A typed list is compared by its own items (the tool may have ended each as a tag by picking a suggestion).
    names = [str(c) for c in chosen] if a.action is Action.SELECT and isinstance(chosen, list) \
        and len(chosen) == len(planned) else planned
    part = a.action is Action.SELECT and names is planned
    missing = [p for p in names if not any(_same(p, f, lang, part=part) for f in found)]
    added = [f for f in found if f not in before and not any(_same(p, f, lang, part=part) for p in names)]
    if not missing and not added:
        return None
    name = a.field or a.label()
    said = "" if a.sensitive else (f" (planned {', '.join(map(repr, planned))}; it holds "
                                   f"{', '.join(map(repr, found)) or 'nothing'})")
    return Mismatch(a.number, name, f"{act.where} does not hold exactly the planned values{said} — a tag input "
                    "that made other tags of the typed text at its separators, or a pick that did not stick.",
                    {"planned": [_shown(p, sensitive=a.sensitive) for p in planned],
                     "found": [_shown(f, sensitive=a.sensitive) for f in found]})


def _choice_mismatch(a: PlanAction, act: Act, data: dict[str, Any], planned: str,
                     lang: str | None) -> Mismatch | None:
    """A choice in a select or a combobox: the option it shows afterwards is the planned one."""
    element = data.get("element")
    if not isinstance(element, dict) or data.get("navigated") or "checked" in data:
        return None
    shown = (element.get("state") or {}).get("value")
    stands = element.get("stands_for")
    holds: dict[str, Any] = stands if isinstance(stands, dict) else {}
    chips = element.get("chips") if isinstance(element.get("chips"), list) else None
    if (not isinstance(shown, str) or not shown) and chips:
        # One pick in a widget showing chips (a multiple select): the planned one is among them.
        if any(_same(planned, str(c), lang) for c in chips):
            return None
        shown = ", ".join(str(c) for c in chips)
    if not isinstance(shown, str) or not shown:
        values = holds.get("values") if isinstance(holds.get("values"), list) else None
        shown = ", ".join(str(v) for v in values) if values else None
    if shown is None or _same(planned, shown, lang) or fold(str(data.get("chosen_value") or "")) == fold(planned):
        return None
    name = a.field or a.label()
    said = "" if a.sensitive else f" (planned {planned[:80]!r}, it shows {shown[:80]!r})"
    return Mismatch(a.number, name, f"{act.where} shows another choice than the planned one after choosing it{said}.",
                    {"planned": _shown(planned, sensitive=a.sensitive), "found": _shown(shown, sensitive=a.sensitive)})


def read_back(a: PlanAction, act: Act, data: dict[str, Any], planned: Any = None, *,
              lang: str | None = None) -> Mismatch | None:
    """The mismatch between what step ``a``'s act left (``data``, the acting tool's result) and the plan, or None.
    ``planned``: the value the step entered (the secret itself for a sensitive step; never shown); ``lang``: the
    page's language, in which values compare by meaning."""
    name = a.field or a.label()
    if a.action is Action.SELECT and isinstance(planned, list):
        return _set_mismatch(a, act, data, [str(p) for p in planned], lang)
    if a.action is Action.SELECT and isinstance(planned, str):
        return _choice_mismatch(a, act, data, planned, lang)
    holds = (data.get("element") or {}).get("stands_for") if isinstance(data.get("element"), dict) else None
    if act.types and isinstance(planned, str) and isinstance(holds, dict) and "text" in holds \
            and takes_comma_list(str(holds.get("described") or "")):
        # A field that says it takes a comma-separated list: the typed text is that list, whatever the text box
        # still shows (a tag input keeps the typing there and its tags in the hidden field it stands for).
        return _set_mismatch(a, act, data, split_list(planned), lang)
    if act.types and data.get("matches") is False:
        found = data.get("value")
        details: dict[str, Any] = {}
        if isinstance(planned, str):
            details["planned"] = _shown(planned, sensitive=a.sensitive)
            details["found"] = ({"length": data.get("length")} if a.sensitive or not isinstance(found, str)
                                else found)
        said = "" if a.sensitive or not isinstance(planned, str) or not isinstance(found, str) else \
            f" (planned {planned[:80]!r}, found {found[:80]!r})"
        return Mismatch(a.number, name, f"{act.where} holds something other than the planned value after typing "
                        f"it{said} — an input mask, a picker, a length limit or a field that splits what is typed.",
                        details)
    if act.checked is not None:
        state = (data.get("element") or {}).get("state") or {}
        if "checked" in state and (state["checked"] is True) != act.checked:
            return Mismatch(a.number, name, f"{act.where} did not turn {'on' if act.checked else 'off'} when "
                            "clicked.", {"planned": act.checked, "found": state["checked"] is True})
    files = act.args.get("files") if act.tool == "browser_upload" else None
    if isinstance(files, list) and isinstance(data.get("input_file_count"), int) \
            and data["input_file_count"] != len(files):
        return Mismatch(a.number, name, f"{act.where} holds {data['input_file_count']} file(s) after attaching "
                        f"{len(files)}.", {"planned": len(files), "found": data["input_file_count"]})
    return None
