"""Typed calls of ``js/element.js``: operations on one element, found by its blind id in the same call.

Each function here builds an :class:`~browserops.browser.scripts.ElementCall` (or a
:class:`~browserops.browser.scripts.PageCall`) naming a function of ``element.js`` and the type of what it
returns; run it with :func:`browserops.browser.numbering.locate.locate` (find a target and run the call) or
:func:`browserops.browser.numbering.locate.element_call` (an element already found).
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

from browserops.browser.scripts import ElementCall, PageCall

Kinds = bool | list[str]
ControlKind = Literal["native-select", "checkable", "file", "button", "fill", "combobox-input", "text", "editable",
                      "combobox", "listbox", "option", "other"]


class Desc(TypedDict):
    """What an element is: role, accessible name and the kind of control (see ``controlKind``)."""

    role: str
    name: str
    kind: str
    state: NotRequired[dict[str, Any]]
    type: NotRequired[str]  # the input type when it says more than the role
    opens_tab: NotRequired[bool]  # a link with a target that opens another tab
    # A widget standing for a hidden field (a tag input, a custom select): what that field holds — ``values`` (a
    # <select>'s chosen labels) or ``text`` (a text field's value; ``asShown``: its items are the tags the widget
    # shows, not ids) — and ``described``, the words describing it.
    stands_for: NotRequired[dict[str, Any]]
    # A combobox no hidden field stands behind: the chips its widget shows as chosen (a multiple select of a UI kit).
    chips: NotRequired[list[str]]


class Inspected(TypedDict, total=False):
    """:class:`Desc` plus what the element belongs to (for the policy gate)."""

    role: str
    name: str
    kind: str
    state: dict[str, Any]
    type: str
    opens_tab: bool
    autocomplete: str
    described_by: str
    context: str
    focused: bool  # only from inspect_focused


class Flags(TypedDict):
    readonly: bool
    disabled: bool


class NativePick(TypedDict, total=False):
    index: int  # the matching <option>'s index, with its label and value (what a form sends)
    label: str
    value: str
    options: list[str]  # no match: the first option labels


class PrepareResult(TypedDict):
    desc: Desc
    native: NotRequired[NativePick]
    visible: NotRequired[bool]
    cover: NotRequired[str | None]  # what lies on the element's visible centre
    cover_layer: NotRequired[Literal["dialog", "banner", "element"]]  # what kind of thing that is
    cover_still: NotRequired[str | None]  # where that thing is (null while the page animates): unchanged = still
    label_on_top: NotRequired[bool]  # its own label's decoration (or its widget's shown value) is drawn over it
    lands: NotRequired[list[float] | None]  # the centre point, when a press there lands on it (before the pointer came)
    drawn_by_widget: NotRequired[bool]  # of no size, drawn by its widget beside it: activated, never clicked
    focused: NotRequired[bool]
    flags: NotRequired[Flags]
    plain: NotRequired[bool]  # a plain <input>/<textarea> without inline key handlers


class After(TypedDict):
    value: str
    desc: Desc
    lang: str  # the language its text is written in (its nearest lang attribute, else the document's)


class Held(TypedDict):
    value: str
    lang: str


class FileInfo(TypedDict):
    kind: Literal["input", "label", "other"]
    multiple: NotRequired[bool]
    disabled: NotRequired[bool]
    accept: NotRequired[str]


class PopupOption(TypedDict, total=False):
    open: bool
    id: str  # the stamped blind id of the best-matching option
    label: str
    seq: int
    options: list[str]  # no match: the visible options
    ambiguous: list[str]  # only part of several options' names matched: those options
    selected: bool  # the option found is already chosen (in a multiple select a click would take it away)
    exact: bool  # the option found is named (or valued) exactly as the text, not only starting with or holding it
    typing: bool  # no options yet, and the focus is in a text box other than the widget (a search box it opened)
    focus: int  # no options yet: a mark of the focused element, the same while the focus stays on it
    about: bool  # an option found: every option shown holds the text (a searching list has applied it)
    shown: int  # an option found: how many options the list shows


class PopupState(TypedDict):
    open: bool
    focusHere: bool  # the focus is on the widget or in the list it opened
    typing: bool  # the focus is in a text field other than the widget (a search box it opened)
    tagField: bool  # a text box standing for a hidden text input (tag-it): typed text can become a tag
    textTags: bool  # ... whose hidden input keeps the tags as the text shown (not as ids): typed = picked
    nativeValue: str  # what the hidden native control the widget stands for holds
    value: str


def popup_open() -> ElementCall[PopupState]:
    return ElementCall("element", "popupOpen")


class Activated(TypedDict):
    focused: bool


class Visibility(TypedDict):
    visible: bool


def describe() -> ElementCall[Desc]:
    return ElementCall("element", "describe")


def inspect(max_chars: int) -> ElementCall[Inspected]:
    return ElementCall("element", "inspect", {"max": max_chars})


def inspect_focused(max_chars: int) -> PageCall[Inspected]:
    """The focused element of the frame (through shadow roots), or ``{"focused": False}``."""
    return PageCall("element", "inspectFocused", {"max": max_chars})


def is_focused() -> ElementCall[bool]:
    return ElementCall("element", "isFocused")


def select_content() -> ElementCall[Flags]:
    return ElementCall("element", "selectContent")


def current_value() -> ElementCall[str]:
    return ElementCall("element", "currentValue")


def held_value() -> ElementCall[Held]:
    return ElementCall("element", "heldValue")


def prepare(*, kinds: list[str] | None, reach: Kinds, focus: Kinds, clear: Kinds, native: str | None,
            scroll: bool) -> ElementCall[PrepareResult]:
    """Everything an action needs before acting, in one round trip; see ``prepare`` in ``element.js``."""
    return ElementCall("element", "prepare", {"kinds": kinds, "reach": reach, "focus": focus, "clear": clear,
                                              "native": native, "scroll": scroll})


def after_action() -> ElementCall[After]:
    return ElementCall("element", "afterAction")


def file_info() -> ElementCall[FileInfo]:
    return ElementCall("element", "fileInfo")


def file_count() -> ElementCall[int | None]:
    return ElementCall("element", "fileCount")


def popup_option(text: str, prefix: str, seq: int) -> ElementCall[PopupOption]:
    return ElementCall("element", "popupOption", {"text": text, "prefix": prefix, "seq": seq})


def link_address() -> ElementCall[str | None]:
    return ElementCall("element", "linkAddress")


def visibility() -> ElementCall[Visibility]:
    return ElementCall("element", "visibility")


def activate() -> ElementCall[Activated]:
    """Focus the element and run its default action, as a screen reader activates it (not a click at a point)."""
    return ElementCall("element", "activate")


def is_multiple() -> ElementCall[bool]:
    return ElementCall("element", "isMultiple")


def selected_labels() -> ElementCall[list[str] | None]:
    """A native ``<select>``'s selected options (labels); ``None`` for anything else."""
    return ElementCall("element", "selectedLabels")


class ChooserOption(TypedDict, total=False):
    id: str  # the stamped option in the chooser's other list
    label: str
    seq: int
    options: list[str]  # no match: the other list's options


def chooser_option(text: str, prefix: str, seq: int) -> ElementCall[ChooserOption]:
    """In a two-list chooser, the other list's option best matching ``text`` (stamped), or its options; ``{}``
    when the list has no partner."""
    return ElementCall("element", "chooserOption", {"text": text, "prefix": prefix, "seq": seq})


def option_labels() -> ElementCall[list[str]]:
    return ElementCall("element", "optionLabels")


class FieldPopup(TypedDict, total=False):
    """The focused field whose own open popup lies over an element (``fieldPopupOver`` in element_choices.js)."""

    id: str  # the field, stamped
    seq: int
    role: str
    name: str
    value: str  # what it holds now
    lang: str


def field_popup_over(prefix: str, seq: int) -> ElementCall[FieldPopup]:
    """The focused field whose own popup (aria-controls / aria-owns, aria-expanded) covers the element; ``{}`` when
    what covers it is anything else."""
    return ElementCall("element", "fieldPopupOver", {"prefix": prefix, "seq": seq})


def native_pick(text: str) -> ElementCall[NativePick]:
    """The ``<option>`` of a native ``<select>`` best matching ``text`` (index + label), or the option labels."""
    return ElementCall("element", "nativePick", {"text": text})
