"""The policy gate: which tool calls run as they are, which need the user's yes, which the user does.

``gate`` classifies one pending call (side-effect class, the action word's traits, what the page says about the
target); ``confirm`` holds the one pending action and asks whoever can answer; ``words`` is the multilingual
vocabulary both read. Nothing here drives a browser or calls a tool: the front doors and the agent call the gate
before they call the runner.
"""

from browserops.policy.confirm import (
    CallbackConfirmer,
    Confirmer,
    Outcome,
    PendingAction,
    RefuseConfirmer,
    authorize,
    refusal_error,
)
from browserops.policy.gate import UNKNOWN, Activation, Decision, TargetInfo, Verdict, activation_of, classify

__all__ = [
    "UNKNOWN", "Activation", "CallbackConfirmer", "Confirmer", "Decision", "Outcome", "PendingAction",
    "RefuseConfirmer", "TargetInfo", "Verdict", "activation_of", "authorize", "classify", "refusal_error",
]
