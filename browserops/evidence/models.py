"""The evidence records' common base and ``bundle.json`` (:class:`BundleInfo`): plain pydantic models that the
writer (:mod:`~browserops.evidence.bundle`), the events and the summary all build on.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from browserops.evidence import layout

Phase = Literal["prepare", "run"]


class EventModel(BaseModel):
    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)


# partial: a run that finished without error but skipped steps for want of --confirm (never called complete).
BundleStatus = Literal["open", "prepared", "complete", "partial", "incomplete"]
FinalStatus = Literal["prepared", "complete", "partial", "incomplete"]


class Approval(EventModel):
    """A person's approval of a run given outside the terminal, where a CLI run records its confirm phrase: through
    the MCP client's own question to its user (``elicitation/create``), answered by the person and sent by the client
    to the server, never through the model. It names the plan it approved by digest."""

    via: Literal["elicitation"] = "elicitation"
    client: str = Field(max_length=300, description="The MCP client that asked its user: its name and version, as "
                        "it introduced itself (a client's own claim).")
    at: dt.datetime = Field(description="When the answer reached the server (UTC).")
    plan_digest: str = Field(pattern=r"^[0-9a-f]{64}$", description="SHA-256 of the canonical plan that was shown.")


class Attempt(EventModel):
    """One writer session on the bundle: prepare, then each run."""

    number: int = Field(ge=1)
    phase: Phase
    started: dt.datetime
    ended: dt.datetime | None = None
    status: FinalStatus | None = Field(None, description="Null while the writer is running (or if it died).")
    confirmed_with: str | None = Field(None, description="The confirm phrase this run was given (not a secret).")
    approved: Approval | None = Field(None, description="The person's approval through an MCP client, where a run "
                                      "from the terminal has its confirm phrase.")
    reason: str | None = Field(None, max_length=2000, description="Why it ended incomplete, or what a partial run "
                               "left out (\"10 steps need --confirm\").")
    pid: int | None = None
    user: str | None = Field(None, max_length=200, description="The OS login that ran this attempt (who confirmed).")
    lane: dict[str, Any] | None = Field(
        None, description="The workspace lane this run held: backend, fencing token, lease (lane.py).")

    @property
    def confirmed(self) -> bool:
        """Whether a person confirmed this attempt's side effects (a phrase in a terminal, or an approval)."""
        return self.confirmed_with is not None or self.approved is not None


class BundleInfo(EventModel):
    """``bundle.json``: the bundle's status marker (hashed in the manifest like every other file)."""

    format_version: Literal[1] = Field(1, alias="format_version")
    request_id: str = Field(pattern=layout.REQUEST_ID_PATTERN.pattern)
    workspace: str
    created: dt.datetime
    updated: dt.datetime
    status: BundleStatus
    attempts: list[Attempt] = Field(default_factory=list)
    same_as: dict[str, str] = Field(
        default_factory=dict,
        description="Screenshots not stored because they were byte-identical to the one taken just before: "
        "name -> the stored file (e.g. a step's before = the previous step's after).")
    signed_by: str | None = Field(
        None, description="Fingerprint of the Ed25519 key that signed the manifest (see evidence/signing.py).")
    attestation: str | None = Field(
        None, description="The in-toto attestation (DSSE envelope) sealed beside the signature, when signed "
        "(see evidence/attestation.py).")


def confirmed_run(info: BundleInfo) -> Attempt | None:
    """The run attempt that completed with a confirm phrase or a person's approval, if any."""
    for attempt in info.attempts:
        if attempt.phase == "run" and attempt.status == "complete" and attempt.confirmed:
            return attempt
    return None
