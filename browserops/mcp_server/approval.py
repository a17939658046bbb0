"""Who approves a plan over MCP: the person, through their client's own question (MCP elicitation), never the
model that calls the tools.

``browser_run`` asks before it changes a site. Its approval is a resolver (the SDK's ``Resolve``): it runs before the
tool's body and returns the question — the plan's title, its diff and side effects in short — as an ``Elicit``
marker, which the SDK sends as ``elicitation/create`` mid-call on a 2025-era connection, or as an
``input_required`` result the client answers and retries with on a 2026-07-28 one. Either way the answer goes from the
person's client to this server; the model sees neither the question's answer nor any phrase. When nothing needs
asking (no side effects, an error, a client that cannot be asked) the resolver returns a :class:`Gate` saying why,
and the body acts on it.

A model may not confirm in the person's place: an argument shaped like a confirm phrase (any plan's), or one named
like a confirmation (``confirm``, ``phrase``…), is refused before anything else (``BROWSER_CONFIRM_BY_MODEL``).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import Context
from mcp.server.mcpserver.resolve import Elicit
from mcp_types.version import is_version_at_least
from pydantic import BaseModel, Field

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence import Approval, confirmed_run, read_info
from browserops.plan import BrowserPlan, contains_phrase, plan_digest, render_diff, resolve_plan

# Argument names that mean "I, the caller, confirm" — refused whatever their value (`confirm: true` included).
CONFIRM_KEYS = frozenset({"confirm", "confirmed", "confirmation", "phrase", "confirm_phrase", "confirmphrase",
                          "approve", "approved", "approval"})
# The first revision whose tools/call carries elicitation inside an input_required result (no mid-call request).
INPUT_REQUIRED_VERSION = "2026-07-28"
MAX_DIFF_LINES = 30


class Approve(BaseModel):
    """The question's form: one pre-set switch, so that Accept alone approves (a form with no field at all is
    answered differently by different clients)."""

    run: bool = Field(True, title="Run these changes now",
                      description="Accept runs exactly this plan, once; Decline runs nothing.")


def _strings(value: Any, key: str = "") -> Iterator[tuple[str, str]]:
    """Every (key, text) in a JSON-like value, keys included, at any depth."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield str(k), str(k)
            yield from _strings(v, str(k))
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v, key)


def refuse_phrase(arguments: Mapping[str, Any]) -> None:
    """BROWSER_CONFIRM_BY_MODEL when any argument (of any of the plan tools) carries something shaped like a confirm
    phrase: the caller, a model, must never hold one, so one in its hands is a leak to stop, not to use."""
    if any(contains_phrase(text) for _, text in _strings(dict(arguments))):
        raise BrowserOpsError(
            ErrorCode.CONFIRM_BY_MODEL,
            "An argument holds a confirm phrase. The phrase is for a person in a terminal, never for the caller of "
            "these tools, so nothing ran. Leave it out; browser_run asks the person to approve.",
        )


def refuse_model_confirmation(arguments: Mapping[str, Any]) -> None:
    """BROWSER_CONFIRM_BY_MODEL when an argument of browser_run carries a confirm phrase or is named like a
    confirmation."""
    for key in arguments:
        if str(key).replace("-", "_").lower() in CONFIRM_KEYS:
            raise BrowserOpsError(
                ErrorCode.CONFIRM_BY_MODEL,
                f"browser_run takes no {key!r} argument: a plan's side effects are confirmed by the person, not by "
                "the caller. Nothing ran. Call browser_run with request_id only; the server asks the person.",
            )
    refuse_phrase(arguments)


def approval_message(plan: BrowserPlan) -> str:
    """The question the person reads: what will change, where, and that Accept runs exactly this once. The diff's
    values are the plan's (typed values, the page's current ones), quoted as the CLI shows them."""
    diff = render_diff(plan).replace(", needs --confirm]", "]").splitlines()
    if len(diff) > MAX_DIFF_LINES + 2:
        diff = [*diff[:MAX_DIFF_LINES], f"  … {len(diff) - MAX_DIFF_LINES - 2} more lines (browserops evidence show "
                f"{plan.request_id})", *diff[-2:]]
    problems = [f"  step {p.step}: {p.code}: {p.message}" for p in plan.problems]
    needs = [f"  {r.kind}: {r.detail}" for r in plan.requirements]
    return "\n".join([
        "browserops asks you before it changes a web site (the assistant cannot answer this for you).",
        "",
        f"Plan {plan.request_id}: {plan.title}",
        f"Site: {plan.start_url}",
        "",
        *diff,
        *(["", "Problems found while rehearsing (the run may fail):", *problems] if problems else []),
        *(["", "It needs:", *needs] if needs else []),
        "",
        "Accept runs exactly these steps, once, and records your approval in the evidence bundle. Decline runs "
        "nothing.",
    ])


def can_elicit(ctx: Context[Any, Any]) -> bool:
    """Whether the client can ask its user: it declared form elicitation, and this connection can carry the question
    (a 2026-07-28 one as an input_required result; an older one as a request mid-call, which a stateless HTTP
    connection cannot)."""
    caps = ctx.client_capabilities
    elicitation = caps.elicitation if caps is not None else None
    if elicitation is None or (elicitation.form is None and elicitation.url is not None):
        return False
    version = ctx.protocol_version
    if version is not None and is_version_at_least(version, INPUT_REQUIRED_VERSION):
        return True
    return bool(ctx.session.can_send_request)


def client_name(ctx: Context[Any, Any]) -> str:
    params = ctx.session.client_params
    info = params.client_info if params is not None else None
    if info is None:
        return "an MCP client that did not name itself"
    return f"{info.name} {info.version}".strip()[:300]


def approval_of(plan: BrowserPlan, ctx: Context[Any, Any]) -> Approval:
    """The record of the person's Accept, for the bundle: the client, the time, the plan's digest."""
    return Approval(client=client_name(ctx), at=dt.datetime.now(dt.UTC), plan_digest=plan_digest(plan))


@dataclass
class Gate:
    """What ``browser_run`` does when nobody is asked (the resolver's plain answer): refuse (``error``), run a plan
    that needs no confirmation, or run the read-only part for a client that cannot ask its user."""

    error: BrowserOpsError | None = None
    plan: BrowserPlan | None = None
    bundle: Path | None = None
    can_ask: bool = False


def _not_run_yet(plan: BrowserPlan, bundle: Path) -> None:
    """A confirmed plan runs once: say so before asking anyone to approve it again."""
    info = read_info(bundle)
    done = confirmed_run(info) if info is not None else None
    if done is not None:
        raise BrowserOpsError(ErrorCode.PLAN_STALE, f"Plan {plan.request_id} already ran with confirmation (attempt "
                              f"{done.number}). A plan runs once: prepare a new one for another change.")


def gate(workspace: Path, request_id: Any, arguments: Mapping[str, Any], ctx: Context[Any, Any]) -> Gate:
    """Refusals first (a phrase or a confirmation from the caller, an unknown plan), then whether to ask."""
    try:
        refuse_model_confirmation(arguments)
        if not isinstance(request_id, str) or not request_id:
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, "request_id: the plan's request id (from browser_prepare) "
                                  "is required.")
        plan, bundle = resolve_plan(workspace, request_id)
        _not_run_yet(plan, bundle)
    except BrowserOpsError as exc:
        return Gate(error=exc)
    return Gate(plan=plan, bundle=bundle, can_ask=plan.side_effects.requires_confirm and can_elicit(ctx))


def question(the_gate: Gate) -> Elicit[Approve] | Gate:
    """The resolver's answer: the question for the person, or the gate when nobody is to be asked."""
    if the_gate.plan is not None and the_gate.can_ask:
        return Elicit(approval_message(the_gate.plan), Approve)
    return the_gate
