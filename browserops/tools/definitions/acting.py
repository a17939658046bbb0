"""Acting by number: the action words and browser_overlay_act, browser_act_by_index, browser_press, browser_scroll.

:data:`ACTION_WORDS` is the one table of the words the acting tools take in ``action`` (click, type, select),
each with its traits: what the tool accepts with it (text, submit, options), what the policy gate makes of it
(it activates something, or only types), whether the banner closer looks afterwards, and the plan verb a call
with it records as. The args models' schemas and validation, the gate (``policy/gate.py``), the post-action
hook (``tools/hooks.py``), the handlers (``tools/actions.py``) and the plan read it from here; a new word is one
entry here plus its handler in ``tools/actions.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field, field_validator
from pydantic_core import PydanticCustomError

from browserops.browser.act.keys import normalise_key
from browserops.contract import BLIND_ID_PATTERN, LISTING_MAX_LIMIT, ElementRef, SideEffect, ToolTraits
from browserops.tools.definitions.core import ToolArgs, ToolDef


@dataclass(frozen=True)
class ActionWord:
    """One word of ``action`` and what it means to every layer that reads it."""

    word: str
    # Its browser call, as ``module:function`` (``browserops.tools.actions:click_word``): a function of (session,
    # element, text, submit, timeout_ms) returning the call's awaitable. A reference a reader follows from here.
    call: str
    # What the word does, for the schema's description (empty: the word says it).
    description: str = ""
    # For the policy gate: "activate" commits something (judged on the target's name and the text around it);
    # "type" only types (and commits only with submit).
    commits: Literal["activate", "type"] = "activate"
    # The ``text`` argument: "required" (what to type, the option to choose) or "none" (ignored).
    text: Literal["none", "required"] = "none"
    # What to give as text, for the error message when it is missing.
    text_hint: str = ""
    submit: bool = False  # accepts submit=true (press Enter afterwards)
    # With several choices at once (options=[...] instead of text): the browser call for them, as ``call`` but of
    # (session, element, options, timeout_ms); None when the word takes one choice only.
    options_call: str | None = None
    names_choice: bool = False  # the chosen text also names what happens ("Delete selected"): the gate reads it
    closes_banners: bool = True  # one banner-closer pass afterwards (the page may show a new overlay)

    @property
    def options(self) -> bool:
        """Accepts options=[...] (several choices at once) instead of text."""
        return self.options_call is not None


_CALLS = "browserops.tools.actions"
ACTION_WORDS: dict[str, ActionWord] = {w.word: w for w in (
    ActionWord("click", f"{_CALLS}:click_word"),
    ActionWord("type", f"{_CALLS}:type_word", "replaces the field's text", commits="type", text="required",
               text_hint="the text to type", submit=True),
    ActionWord("select", f"{_CALLS}:select_word", "an option of a drop-down/list by its text; on/off for a checkbox",
               text="required", text_hint="the option's text (or on/off for a checkbox)",
               options_call=f"{_CALLS}:select_many_word", names_choice=True),
    # Judged like a click: Enter on a form's field or Space on a button can send or delete something.
    ActionWord("press", f"{_CALLS}:press_word", "a key or chord on the element, focused first: Escape, Enter, Tab, "
               "ArrowDown…", text="required", text_hint="the key or chord, e.g. Escape, Enter or Shift+Tab"),
)}
DEFAULT_WORD = "click"


def action_word(args: Mapping[str, Any]) -> ActionWord | None:
    """The word a call's arguments name (``click`` when they name none); None for a word nobody defined."""
    raw = args.get("action", DEFAULT_WORD)
    return ACTION_WORDS.get(raw.strip().lower()) if isinstance(raw, str) else None


def words_description() -> str:
    """``click, type (replaces the field's text) or select (…)`` from the table, as it is now."""
    parts = [f"{w.word} ({w.description})" if w.description else w.word for w in ACTION_WORDS.values()]
    return (", ".join(parts[:-1]) + " or " + parts[-1]) if len(parts) > 1 else parts[0]


def _action_schema(schema: dict[str, Any]) -> None:
    # Filled in when a schema is generated, so the listed words are the table's at that moment.
    schema["enum"] = list(ACTION_WORDS)
    schema["description"] = words_description() + "."


def _check_word(value: str) -> str:
    if value not in ACTION_WORDS:
        expected = ", ".join(f"'{w}'" for w in list(ACTION_WORDS)[:-1]) + f" or '{list(ACTION_WORDS)[-1]}'"
        raise PydanticCustomError("literal_error", "Input should be {expected}", {"expected": expected})
    return value


OPTIONS_DESCRIPTION = ("With select on a multi-select (a list box, <select multiple>, a tag picker): every option "
                       "to choose, by its text, instead of text. The result says which are selected.")
Options = list[Annotated[str, Field(max_length=1000)]] | None


class OverlayActArgs(ToolArgs):
    index: int = Field(ge=1, description="The element's number in the latest listing.")
    action: str = Field("click", json_schema_extra=_action_schema)
    text: str | None = Field(None, max_length=10_000, description="Text to type, or the option to select.")
    submit: bool = Field(False, description="With type: press Enter afterwards (search boxes, chat inputs).")
    options: Options = Field(None, max_length=100, description=OPTIONS_DESCRIPTION)
    limit: int | None = Field(None, ge=1, le=LISTING_MAX_LIMIT, description="The limit of the listing the "
                              "number comes from; if it differs from the latest listing's, the page is re-listed "
                              "with it first.")
    offset: int | None = Field(None, ge=0, description="The offset of the listing the number comes from (see "
                               "limit).")

    _action = field_validator("action")(_check_word)

    @property
    def element(self) -> ElementRef:
        """The element the call names (``index``): its number or id, as every layer below calls it."""
        return self.index


def _by_id_action_schema(schema: dict[str, Any]) -> None:
    schema["enum"] = list(ACTION_WORDS)
    schema["description"] = ", ".join(list(ACTION_WORDS)[:-1]) + f" or {list(ACTION_WORDS)[-1]}, as in " \
        "browser_overlay_act."


class ActByIdArgs(ToolArgs):
    id: str = Field(description="The element's stable id (data-blind-id) from a listing, e.g. 'b12' or 'f1b3'.")
    action: str = Field("click", json_schema_extra=_by_id_action_schema)
    text: str | None = Field(None, max_length=10_000, description="Text to type, or the option to select.")
    submit: bool = Field(False, description="With type: press Enter afterwards.")
    options: Options = Field(None, max_length=100, description=OPTIONS_DESCRIPTION)

    _action = field_validator("action")(_check_word)

    @field_validator("id")
    @classmethod
    def _blind_id(cls, value: str) -> str:
        if not BLIND_ID_PATTERN.match(value):
            raise ValueError("not an element id; use an id from browser_list_interactives, e.g. 'b12'")
        return value

    @property
    def element(self) -> ElementRef:
        """The element the call names (``id``): its number or id, as every layer below calls it."""
        return self.id


class PressArgs(ToolArgs):
    key: str = Field(max_length=64, description="A key or chord: Enter, Tab, Escape, ArrowDown, Space, k, "
                     "Control+a, Shift+Tab…")
    id: int | str | None = Field(None, description="Element to focus first (number or id); omit to press on "
                                 "whatever has the focus.")

    @field_validator("key")
    @classmethod
    def _key(cls, value: str) -> str:
        return normalise_key(value)

    @property
    def element(self) -> ElementRef | None:
        """The element the call names (``id``): its number or id, as every layer below calls it."""
        return self.id


class ScrollArgs(ToolArgs):
    to: Literal["top", "bottom", "left", "right"] | None = Field(None, description="Scroll all the way.")
    by_x: int | None = Field(None, ge=-100_000, le=100_000, description="Pixels right (negative: left).")
    by_y: int | None = Field(None, ge=-100_000, le=100_000, description="Pixels down (negative: up).")
    element_id: int | str | None = Field(None, description="Number or id of a scrollable container, or of an "
                                         "element inside one or inside an iframe (that container/frame scrolls); "
                                         "alone, it scrolls that element into view.")
    behavior: Literal["auto", "smooth", "instant"] = Field("auto", description="smooth animates (and waits).")

    @property
    def element(self) -> ElementRef | None:
        """The element the call names (``element_id``): its number or id, as every layer below calls it."""
        return self.element_id


OVERLAY_ACT = ToolDef(
    name="browser_overlay_act",
    handler="browserops.tools.actions:overlay_act",
    args=OverlayActArgs,
    description=(
        "Act on an element by its number from the latest browser_list_interactives (or browser_find): "
        "click it, type into it (it is focused first; the text replaces what is there; the result says what "
        "the field now holds; a date/time field takes dates as people write them, 11/21/2016 or 1:23 PM, "
        "and refuses ambiguous ones), or select an option by its text in a drop-down, ARIA combobox, list box or "
        "autocomplete field (typed, then the suggestion picked); several at once with options. "
        "Pass the listing's limit/offset if you paged. A number from an older listing is refused with "
        "BROWSER_STALE_INDEX: list again and use the new number. Elements under a banner or dialog are refused "
        "too: close it first. One under another page element is activated as a screen reader does (focus + "
        "default action; the result says activated_under_cover)."
    ),
    traits=ToolTraits(side_effect=SideEffect.BROWSER_ACT, target_arg="index", banners="action",
                      navigates_on_action=True, activation="by_action", plan_verb="act"),
)
ACT_BY_INDEX = ToolDef(
    # The requirement's catalogue names it browser_act_by_index; it addresses the element by its stable id (the
    # index the numbering engine stamped on it), and was called browser_act_by_id for a while: kept as an alias.
    name="browser_act_by_index",
    handler="browserops.tools.actions:act_by_index",
    aliases=("browser_act_by_id",),
    args=ActByIdArgs,
    description=(
        "Last resort: like browser_overlay_act, but addresses the element by its stable id "
        "(data-blind-id, e.g. 'b12') instead of its number. Use numbers whenever you can."
    ),
    traits=ToolTraits(side_effect=SideEffect.BROWSER_ACT, target_arg="id", banners="action",
                      navigates_on_action=True, activation="by_action"),
)
PRESS = ToolDef(
    name="browser_press",
    handler="browserops.tools.actions:press",
    args=PressArgs,
    description=(
        "Press a key or chord (Enter, Tab, Escape, ArrowDown, Space, k, Control+a, Shift+Tab…) on the "
        "focused element, or on the element given by number or id (focused first). Use it to confirm, move "
        "through menus and lists, control media, or reach a field by Tab. Reports where the focus is after."
    ),
    traits=ToolTraits(side_effect=SideEffect.BROWSER_ACT, target_arg="id", acts_on_focus=True,
                      navigates_on_action=True, activation="by_key"),
)
SCROLL = ToolDef(
    name="browser_scroll",
    handler="browserops.tools.actions:scroll",
    args=ScrollArgs,
    description=(
        "Scroll the page (by default one screen down), a scrollable container or the page inside an "
        "iframe (give element_id of the container or of an element in it), by pixels or all the way "
        "(to=top/bottom/left/right); element_id alone scrolls that element into view. Reports the position "
        "and how many pixels remain above and below."
    ),
    traits=ToolTraits(side_effect=SideEffect.READ_ONLY, changes_viewport=True, activation="never"),
)

DEFINITIONS: tuple[ToolDef[Any], ...] = (OVERLAY_ACT, ACT_BY_INDEX, PRESS, SCROLL)
