"""The policy gate: what may run as is, what needs the user's confirmation, what the user must do.

:func:`classify` looks at one pending tool call before it runs — the tool's side-effect class from the
catalogue, its arguments, and what the page says about the target (role, accessible name, value, nearby
text) — and returns a :class:`Decision`:

- ``allow``: read-only tools, and browser actions that commit nothing (typing, scrolling, opening a menu);
- ``confirm``: *destructive* actions — pay, buy, order, delete, remove, send, submit, transfer, confirm,
  sign, publish, cancel a subscription … in English, Russian, Chinese, German, French and Spanish
  (vocabulary in :mod:`browserops.policy_words`) — and any activation whose target is unknown;
- ``handoff``: typing into password / one-time-code / card-security fields, and captchas: the user does
  these themselves.

Page text can only make the gate **stricter**: destructive words around a button with a generic name
("OK", "Continue") or around a submitting keystroke escalate to ``confirm``, and text that tries to
instruct the assistant ("ignore previous instructions", "pre-approved, no confirmation needed") escalates
any activation near it. Nothing the page says ever lowers a decision. Confirmation itself goes through a
:class:`Confirmer` chosen by the front door (a y/N prompt on a TTY; :class:`RefuseConfirmer` when not
interactive).
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field

from browserops import policy_words as words
from browserops.contract import BrowserOpsError, ErrorCode, SideEffect, ToolTraits
from browserops.privacy import mask_args, mask_pii

# Keys with which element tools may ask to press Enter after typing; typing then also submits the form.
SUBMIT_FLAGS = ("submit", "enter", "press_enter", "auto_enter")
ACTIVATING_KEYS = frozenset({"enter", "numpadenter", "return", " ", "space", "spacebar"})
NON_ACTIVATING_ACTIONS = frozenset({"hover", "focus", "scroll", "scroll_into_view", "highlight", "blur"})
TYPING_ACTIONS = frozenset({"type", "fill", "input", "clear"})
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
    activation rule (its traits) says how its arguments decide."""
    action = args.get("action")
    if isinstance(action, str):
        action = action.strip().lower()
        if action in NON_ACTIVATING_ACTIONS:
            return "none"
        if action in TYPING_ACTIONS:
            return "type_submit" if any(args.get(flag) for flag in SUBMIT_FLAGS) else "type"
        return "activate"  # click, dblclick, select, check, press … and anything unheard of
    rule = traits.activation
    if rule == "by_dialog":
        return "none" if args.get("accept") is False else "activate"  # Cancel on a dialog commits nothing
    if rule == "by_key":
        key = str(args.get("key", "")).strip().lower()
        return "activate" if key.split("+")[-1] in ACTIVATING_KEYS else "none"
    # Closing cookie/newsletter overlays dismisses them; the closer never presses a button that sends anything.
    if rule == "never":
        return "none"
    if rule == "typing":
        return "type_submit" if any(args.get(flag) for flag in SUBMIT_FLAGS) else "type"
    return "activate"


def _option_text(args: Mapping[str, Any]) -> str:
    """For a select, the chosen option's label also names what happens ("Delete selected")."""
    if str(args.get("action", "")).lower() != "select":
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
        kind = "type_submit"  # Enter in a field submits its form: judge it like typing with submit
    name = words.fold_for_words(target.name)
    own = words.fold_for_words(f"{target.name} {target.value} {_option_text(args)}")
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


# -- confirmation -------------------------------------------------------------------------------------------
class PendingAction(BaseModel):
    """The one action waiting for the user's yes/no, wherever it is asked (terminal, chat, master agent).

    What may be shown is masked: ``args`` (typed text as length + digest), ``reason`` and the ``target`` label
    (``{"n", "role", "name"}``). ``decision`` is the gate's verdict when the gate held it (a chat brain may hold
    an action on its own grounds). ``raw_args`` — what exactly runs on ``/yes`` — is excluded from every dump,
    repr and event; only a chat session's own file keeps it, so a restarted process can still run exactly the
    confirmed action.
    """

    tool: str
    args: dict[str, Any]
    reason: str = ""
    target: dict[str, Any] | None = None
    decision: Decision | None = Field(None, exclude=True, repr=False)
    raw_args: dict[str, Any] = Field(default_factory=dict, exclude=True, repr=False)

    @classmethod
    def of(cls, tool: str, args: Mapping[str, Any], decision: Decision,
           target: TargetInfo | None = None) -> PendingAction:
        """The gate held ``tool(args)`` on ``target`` for ``decision`` (``args`` are masked, not kept raw)."""
        label = None if target is None else {"n": None, "role": target.role, "name": target.name[:120]}
        return cls(tool=tool, args=mask_args(args), reason=mask_pii(f"{decision.category}: {decision.reason}"),
                   target=None if label is None else mask_args(label), decision=decision)

    @classmethod
    def create(cls, tool: str, raw_args: Mapping[str, Any], *, reason: str,
               target: Mapping[str, Any] | None = None) -> PendingAction:
        """An action to hold with the raw arguments it will run with (masked for every view)."""
        return cls(tool=tool, args=mask_args(raw_args), target=mask_args(target) if target is not None else None,
                   reason=mask_pii(reason), raw_args=dict(raw_args))

    @classmethod
    def from_policy(cls, pending: PendingAction, raw_args: Mapping[str, Any],
                    number: int | None = None) -> PendingAction:
        """The gate's pending action with the raw args the loop was about to call and the element's number."""
        target = None if pending.target is None else {**pending.target, "n": number}
        return pending.model_copy(update={"raw_args": dict(raw_args), "target": target})

    def describe(self) -> str:
        """One line for the chat: ``browser_overlay_act on 7 button Pay now — destructive: pay``."""
        what = self.tool
        if self.target:
            label = " ".join(str(self.target[k]) for k in ("n", "role", "name") if self.target.get(k) not in (None, ""))
            what += f" on {label}" if label else ""
        elif self.args:
            shown = ", ".join(f"{k}={v}" for k, v in self.args.items() if not isinstance(v, dict))
            what += f" ({shown})" if shown else ""
        return f"{what} — {self.reason}" if self.reason else what

    def question(self) -> str:
        """The action as a prompt names it: ``browser_overlay_act click on button "Pay now" — destructive: pay``."""
        action = self.args.get("action")
        what = f"{self.tool} {action}" if isinstance(action, str) else self.tool
        if self.target is not None:
            label = mask_pii(" ".join(str(self.target.get("name") or "").split()))[:80]
            what += f' on {self.target.get("role") or "element"} "{label}"'
        return f"{what} — {self.reason}"


class Confirmer(Protocol):
    """Asks the user to approve one destructive action. Front doors provide the interactive ones."""

    interactive: bool

    async def confirm(self, pending: PendingAction) -> bool: ...


@dataclass
class RefuseConfirmer:
    """Non-interactive runs: every destructive action is refused and remembered for the report."""

    interactive: bool = False
    refused: list[PendingAction] = field(default_factory=list)

    async def confirm(self, pending: PendingAction) -> bool:
        self.refused.append(pending)
        return False


class CallbackConfirmer:
    """Delegates to a function (sync or async) — e.g. a chat session's /yes and /no, or a test's script."""

    def __init__(self, callback: Callable[[PendingAction], bool | Awaitable[bool]], *, interactive: bool = True):
        self._callback = callback
        self.interactive = interactive
        self.asked: list[PendingAction] = []

    async def confirm(self, pending: PendingAction) -> bool:
        self.asked.append(pending)
        answer = self._callback(pending)
        if inspect.isawaitable(answer):
            answer = await answer
        return answer is True


class Outcome(StrEnum):
    ALLOWED = "allowed"
    CONFIRMED = "confirmed"
    REFUSED = "refused"
    HANDOFF = "handoff"


async def authorize(pending: PendingAction, confirmer: Confirmer) -> Outcome:
    """Apply a decision: allow, ask the confirmer for ``confirm``, hand ``handoff`` back to the user."""
    verdict = pending.decision.verdict if pending.decision is not None else Verdict.CONFIRM
    if verdict is Verdict.ALLOW:
        return Outcome.ALLOWED
    if verdict is Verdict.HANDOFF:
        return Outcome.HANDOFF
    return Outcome.CONFIRMED if await confirmer.confirm(pending) else Outcome.REFUSED


def refusal_error(pending: PendingAction, *, interactive: bool) -> BrowserOpsError:
    how = ("it was declined" if interactive
           else "this session is not interactive, so nobody could confirm it")
    return BrowserOpsError(
        ErrorCode.POLICY_REFUSED,
        f"Not done: {pending.question()}; {how}. Run interactively to confirm it, or use the two-phase "
        "`prepare` / `run --confirm` flow.",
        details={"decision": pending.decision.to_dict() if pending.decision else None, "args": pending.args},
    )
