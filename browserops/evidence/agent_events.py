"""The agent's part of a step event (docs/design.md §6.3): what the loop saw, decided and waited for.

One :class:`AgentStep` hangs off :attr:`StepEvent.agent`. Like the rest of the event it is masked by the
model itself: texts the user or the model wrote (questions, answers, progress lines, done reasons) are
PII-masked and cut, and the loop scrubs typed text out of them before they get here; element names are
masked; page text never appears (the gate's "nearby text" is used in memory only).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field, field_validator

from browserops.evidence.models import EventModel
from browserops.privacy import mask_pii


def _masked(value: str | None, limit: int) -> str | None:
    return None if value is None else mask_pii(value)[:limit]


class ElementRef(EventModel):
    role: str = ""
    name: str = ""
    bbox: dict[str, float] | None = None

    @field_validator("name")
    @classmethod
    def _mask(cls, value: str) -> str:
        return mask_pii(value)[:120]


class EnumerateInfo(EventModel):
    did_refresh: bool
    items_count: int | None = None
    summary_top5: list[ElementRef] = Field(default_factory=list)
    overlay_active: bool | None = None
    why: str | None = Field(None, description="Why the page was (or was not) observed again.")


class BannersInfo(EventModel):
    auto_close_started: bool
    found_count: int = 0
    closed_count: int = 0
    spent_ms: float = 0


class WaitInfo(EventModel):
    type: Literal["settled", "dom_quiet", "network_idle", "ms", "selector", "none"]
    value: int | None = None
    completed: bool = True
    timeout: bool = False
    waited_ms: float | None = None


class PolicyInfo(EventModel):
    verdict: Literal["allow", "confirm", "handoff"]
    category: str
    reason: str
    matched: list[str] = Field(default_factory=list)
    outcome: Literal["allowed", "confirmed", "refused", "held", "handoff", "planned"] = "allowed"

    @field_validator("reason")
    @classmethod
    def _mask(cls, value: str) -> str:
        return mask_pii(value)[:300]


class TextRef(EventModel):
    """A text recorded by its length and digest only."""

    text_length: int
    text_digest: str


class AskInfo(EventModel):
    asked: bool = True
    question: TextRef
    user_reply: TextRef | None = None


class FindInfo(EventModel):
    criteria: dict[str, Any] = Field(default_factory=dict, description="Masked like args.")
    count: int | None = None
    top3: list[ElementRef] = Field(default_factory=list)


class DoneInfo(EventModel):
    accepted: bool
    verified: bool
    matched: list[str] = Field(default_factory=list, description="Words of the reason found on the page.")
    reason: str = ""
    url: str = ""
    title: str = ""

    @field_validator("reason", "url", "title")
    @classmethod
    def _mask(cls, value: str) -> str:
        return mask_pii(value)[:500]


class LlmInfo(EventModel):
    calls: int = Field(0, ge=0, description="HTTP attempts this step (retries included).")
    ms: float = 0
    source: Literal["tool_use", "text", "mode"] | None = None
    call_error: str | None = Field(None, description="Why the reply could not be run (no_call, multiple_calls…).")


class AgentStep(EventModel):
    """The fields (docs/design.md §6.3) of one agent iteration that a plan step does not have."""

    iteration: int = Field(ge=0, description="Model turn number in the run (call errors and done checks count).")
    progress: str | None = Field(None, description="The model's progress line, masked; typed text removed.")
    llm: LlmInfo | None = None
    policy: PolicyInfo | None = None
    enumerate: EnumerateInfo | None = None
    banners: BannersInfo | None = None
    wait: WaitInfo | None = None
    find: FindInfo | None = None
    ask: AskInfo | None = None
    done: DoneInfo | None = None
    focused: ElementRef | None = None
    transfer: str | None = None
    timings_ms: dict[str, float] = Field(default_factory=dict, description="model, gate, act, validate, observe, "
                                         "record: where the step's time went.")

    @field_validator("progress", "transfer")
    @classmethod
    def _mask(cls, value: str | None) -> str | None:
        return _masked(value, 300)
