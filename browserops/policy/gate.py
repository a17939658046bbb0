"""The policy gate: what may run as is, what needs the user's confirmation, what the user must do.

:func:`classify` looks at one pending tool call before it runs — the tool's side-effect class from the
catalogue, its arguments, and what the page says about the target (role, accessible name, value, nearby
text) — and returns a :class:`Decision`:

- ``allow``: read-only tools, and browser actions that commit nothing (typing, scrolling, opening a menu);
- ``confirm``: *destructive* actions — pay, buy, order, delete, remove, send, submit, transfer, confirm,
  sign, publish, cancel a subscription … in English, Russian, Chinese, German, French and Spanish
  (vocabulary in :mod:`browserops.words`) — and any activation whose target is unknown;
- ``handoff``: typing into password / one-time-code / card-security fields, and captchas: the user does
  these themselves.

Page text can only make the gate **stricter**: destructive words around a button with a generic name
("OK", "Continue") or around a submitting keystroke escalate to ``confirm``, and text that tries to
instruct the assistant ("ignore previous instructions", "pre-approved, no confirmation needed") escalates
any activation near it. Nothing the page says ever lowers a decision. Confirmation itself is
:mod:`browserops.policy.confirm`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from browserops import words
from browserops.browser.act.keys import activating, normalise_key
from browserops.contract import SideEffect, ToolTraits
from browserops.tools.definitions.acting import action_word

TEXT_ENTRY_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton"})

Activation = Literal["none", "type", "type_submit", "activate"]


class Verdict(StrEnum):
    ALLOW = "allow"
    CONFIRM = "confirm"
    HANDOFF = "handoff"

    @property
    def rank(self) -> int:
        return {"allow": 0, "confirm": 1, "handoff": 2}[self.value]


@dataclass(frozen=True)
class TargetInfo:
    """What the page says about the element an action targets. All of it is untrusted page data."""

    role: str = ""
    name: str = ""
    value: str = ""
    nearby_text: str = ""  # e.g. the enclosing form/dialog's text, or the page's main text
    input_type: str = ""  # the input's type attribute ("password", "email", ...)
    autocomplete: str = ""  # the autocomplete attribute ("one-time-code", "current-password", ...)

    @classmethod
    def from_item(cls, item: Mapping[str, Any], nearby_text: str = "") -> TargetInfo:
        """From a listed element (``{"role", "name", "state": {"value", "type", "autocomplete", ...}}``)."""
        state = item.get("state")
        state = state if isinstance(state, Mapping) else {}

        def text(value: Any) -> str:
            return value if isinstance(value, str) else ""

        return cls(
            role=text(item.get("role")),
            name=text(item.get("name")),
            value=text(state.get("value", item.get("value"))),
            nearby_text=nearby_text,
            input_type=text(state.get("type", state.get("input_type", item.get("input_type")))),
            autocomplete=text(state.get("autocomplete", item.get("autocomplete"))),
        )


@dataclass(frozen=True)
class Decision:
    verdict: Verdict
    reason: str
    tool: str
    side_effect: SideEffect
    category: Literal["read-only", "browser-act", "destructive", "handoff"]
    matched: tuple[str, ...] = ()

    @property
    def allowed(self) -> bool:
        return self.verdict is Verdict.ALLOW

    def to_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict.value, "category": self.category, "reason": self.reason,
                "tool": self.tool, "sideEffect": self.side_effect.value, "matched": list(self.matched)}


# A tool nobody described (not in the caller's catalogue): it acts, and on anything.
UNKNOWN = ToolTraits()


def activation_of(traits: ToolTraits, args: Mapping[str, Any]) -> Activation:
    """Does the call commit something on the page (a click, a select, Enter), only type, or neither? The tool's
    activation rule (its traits) says how its arguments decide; for an acting tool, by its action word's traits
    (``tools/definitions/acting.py``). A word nobody defined activates: the strict choice."""
    rule = traits.activation
    if rule == "by_action":
        word = action_word(args)
        if word is None or word.commits == "activate":
            return "activate"
        return "type_submit" if word.submit and args.get("submit") else "type"
    if rule == "by_dialog":
        return "none" if args.get("accept") is False else "activate"  # Cancel on a dialog commits nothing
    if rule == "by_key":
        # The key as it will be pressed (aliases, and a line break that Playwright presses as Enter); one the tool
        # will refuse activates here: the strict choice.
        key = _pressed(args)
        return "activate" if not key or activating(key) else "none"
    # Closing cookie/newsletter overlays dismisses them; the closer never presses a button that sends anything.
    if rule == "never":
        return "none"
    return "activate"


def _pressed(args: Mapping[str, Any]) -> str:
    """The key a press call will press, as Playwright names it; "" for one the tool will refuse."""
    try:
        return normalise_key(str(args.get("key", "")))
    except ValueError:
        return ""


def _option_text(traits: ToolTraits, args: Mapping[str, Any]) -> str:
    """For a word that names a choice (select), the chosen option's label also names what happens ("Delete
    selected")."""
    word = action_word(args) if traits.activation == "by_action" else None
    if word is None or not word.names_choice:
        return ""
    return " ".join(str(args[k]) for k in ("text", "value", "option", "label") if isinstance(args.get(k), str))


def _is_secret_field(target: TargetInfo) -> list[str]:
    if target.input_type.strip().lower() == "password":
        return ["type=password"]
    if target.autocomplete.strip().lower() in words.SECRET_AUTOCOMPLETE:
        return [f"autocomplete={target.autocomplete.strip().lower()}"]
    return words.SECRET.find(words.fold_for_words(f"{target.name} {target.role}"))


def classify(tool: str, args: Mapping[str, Any] | None = None, target: TargetInfo | None = None,
             traits: ToolTraits = UNKNOWN) -> Decision:
    """Classify one call of ``tool`` (whose traits the caller's catalogue gives) before it runs. Deterministic;
    reads page data only to become stricter."""
    args = dict(args or {})
    side = traits.side_effect

    def decide(verdict: Verdict, category: Literal["read-only", "browser-act", "destructive", "handoff"],
               reason: str, matched: list[str] | None = None) -> Decision:
        return Decision(verdict, reason, tool, side, category, tuple(dict.fromkeys(matched or [])))

    if side is SideEffect.READ_ONLY:
        return decide(Verdict.ALLOW, "read-only", f"{tool} only reads or navigates")
    kind = activation_of(traits, args)
    if kind == "none":
        return decide(Verdict.ALLOW, "browser-act", f"{tool} changes nothing that is sent anywhere")
    if target is not None and kind in ("type", "type_submit"):
        secret = _is_secret_field(target)
        if secret:
            return decide(Verdict.HANDOFF, "handoff",
                          "passwords and one-time codes are typed by the user, never by the assistant", secret)
    if target is not None and kind == "activate":
        captcha = words.CAPTCHA.find(words.fold_for_words(f"{target.name} {target.role}"))
        if captcha:
            return decide(Verdict.HANDOFF, "handoff", "captchas are solved by the user", captcha)
    if kind == "type":
        return decide(Verdict.ALLOW, "browser-act", "typing into a field commits nothing until it is sent")
    if target is None:
        return decide(Verdict.CONFIRM, "destructive",
                      f"{tool} would activate an element the gate cannot see, so it cannot be shown to be harmless")

    role = words.fold_for_words(target.role)
    if kind == "activate" and traits.activation == "by_key" and role in TEXT_ENTRY_ROLES:
        # Enter in a field submits its form: judge it like typing with submit; Space there types a space.
        kind = "type_submit" if _pressed(args).endswith("Enter") else "type"
    name = words.fold_for_words(target.name)
    own = words.fold_for_words(f"{target.name} {target.value} {_option_text(traits, args)}")
    nearby = words.fold_for_words(target.nearby_text)
    search_like = role in words.SEARCH_ROLES or bool(words.SEARCH.find(name))
    exempt_weak = search_like or role in words.SELECTION_ROLES

    strong = words.STRONG.find(own)
    if strong:
        return decide(Verdict.CONFIRM, "destructive", f"the target is named like a destructive action: {strong[0]}",
                      strong)
    weak = [] if exempt_weak else words.WEAK.find(own)
    if weak:
        return decide(Verdict.CONFIRM, "destructive", f"the target sends or submits something: {weak[0]}", weak)
    generic = name.strip(" .!?:…✓✔→»>") in words.GENERIC_NAMES or len(name) <= 1
    if (generic or kind == "type_submit") and not search_like:
        around = words.STRONG.find(nearby) + words.WEAK.find(nearby)
        if around:
            return decide(Verdict.CONFIRM, "destructive",
                          f"the text around this {'button' if generic else 'submission'} describes a destructive "
                          f"action: {around[0]}", around)
    injected = words.INJECTION.find(nearby) + words.INJECTION.find(own)
    if injected:
        return decide(Verdict.CONFIRM, "destructive",
                      "the page contains text that tries to instruct the assistant; acting near it needs the user",
                      injected)
    return decide(Verdict.ALLOW, "browser-act", f"{tool} on {target.role or 'element'} is not destructive")
