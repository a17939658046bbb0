"""Confirmation: the one pending action, who asks the user about it, and what the answer means.

The gate (:mod:`browserops.policy.gate`) decides; this module applies the decision: :func:`authorize` lets an
allowed action run, asks a :class:`Confirmer` chosen by the front door for a ``confirm`` (a y/N prompt on a TTY,
``/yes`` in chat, :class:`RefuseConfirmer` when nobody can answer) and hands a ``handoff`` back to the user.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

from pydantic import BaseModel, Field

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.policy.gate import Decision, TargetInfo, Verdict
from browserops.privacy import mask_args, mask_pii


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
