"""StepEvent: one line of ``events.jsonl`` per step (docs/design.md §6.2).

Privacy is enforced by the model, not by the caller's good manners: ``args`` always pass through
:func:`browserops.privacy.mask_args` (typed text becomes length + digest) and free text (errors, page titles,
URLs) through :func:`browserops.privacy.mask_pii`, whatever the caller put in.

Typical use by the runner::

    ev = StepEvent.begin(step=3, tool="browser_overlay_act", args={"index": 7, "action": "type", "text": v})
    result = await call_tool(...)
    ev.end(result, page_url=url, page_title=title)
    writer.log_event(ev)
"""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import Field, PrivateAttr, field_validator

from browserops.contract import SideEffect
from browserops.evidence.agent_events import AgentStep
from browserops.evidence.models import EventModel, Phase
from browserops.privacy import mask_args, mask_pii

EventStatus = Literal["ok", "error", "skipped", "running"]


class PageInfo(EventModel):
    url: str = ""
    title: str = ""
    nav_type: Literal["full", "spa", "none"] | None = None

    @field_validator("url", "title")
    @classmethod
    def _mask(cls, value: str) -> str:
        return mask_pii(value)[:2000]


class StepTarget(EventModel):
    """How the step's semantic target was resolved on the page (no page text beyond role and name)."""

    role: str | None = None
    name: str | None = None
    number: int | None = Field(None, description="Element number in the listing the step acted on.")
    matched: bool = True
    box: list[float] | None = Field(None, min_length=4, max_length=4, description="[x, y, width, height] in "
                                    "viewport CSS pixels when the step resolved it (what the before screenshot shows).")
    viewport: list[int] | None = Field(None, min_length=2, max_length=2, description="[width, height] of the viewport.")

    @field_validator("name")
    @classmethod
    def _mask(cls, value: str | None) -> str | None:
        return None if value is None else mask_pii(value)[:200]


class SentRequest(EventModel):
    """One entry of the side-effect ledger: a request a page sent that could change a server (any method but
    GET/HEAD/OPTIONS, a beacon, a form post, a WebSocket message; and the GET a submit navigated by, kind
    ``navigation``), never its content."""

    id: int = Field(ge=1, description="Order in which the session's pages sent them.")
    method: str = Field(max_length=16, description="POST, PUT, PATCH, DELETE…; WS for a WebSocket message.")
    url: str = Field(max_length=2000, description="Origin and path; every query value, and every path segment that "
                     "holds one of the plan's input values, replaced by '…'.")
    kind: str = Field(max_length=32, description="fetch, xhr, document (a form post), ping (sendBeacon), websocket, "
                      "navigation (a GET the page navigated by while a submit ran)…")
    step: int | None = Field(None, ge=0, description="The plan step that was running when it left.")
    started: str
    ended: str | None = None
    status: int | None = Field(None, description="The HTTP status of the answer; null: none (failed, in flight, WS).")
    failure: str | None = Field(None, max_length=200, description="Why no answer came (blocked, network error).")
    in_flight: bool = Field(False, description="Still unanswered when the step was recorded.")
    unloading: bool = Field(False, description="Sent by a document as it went away (a pagehide/unload listener's "
                            "sendBeacon or keepalive fetch), which only the browser's DevTools interception sees.")
    body_bytes: int = Field(0, ge=0)
    body_digest: str | None = Field(
        None, pattern=r"^hmac-sha256:[0-9a-f]{64}$",
        description="HMAC-SHA256 of the body keyed by the workspace's secret (comparable within the workspace, "
        "testing nothing for whoever holds the bundle alone); never the body itself. Null: no body, or one that "
        "carries a secret.")
    body_secret: bool = Field(False, description="The body carries a secret the run entered: no digest is kept.")
    save: bool = Field(False, description="It carried the step's change: sent by the page after the step acted, to "
                       "the page's own site (or a form's post to its target), of a kind that carries data (a form "
                       "post, fetch, XHR, a beacon to the own site, a WebSocket message other than a heartbeat, "
                       "the GET a submit navigated by). The others are listed but neither make nor break the save.")
    body_sha256: str | None = Field(None, pattern=r"^[0-9a-f]{64}$",
                                    description="Bundles written before keyed digests: the body's plain SHA-256.")

    @field_validator("url")
    @classmethod
    def _mask(cls, value: str) -> str:
        return mask_pii(value)[:2000]


class StepEvent(EventModel):
    """One step of one run attempt."""

    format_version: Literal[1] = Field(1, alias="format_version")
    request_id: str | None = Field(None, description="Filled in by BundleWriter.log_event.")
    attempt: int | None = Field(None, ge=1, description="Which run of this bundle (1 = prepare's own attempt).")
    phase: Phase = "run"
    step: int = Field(ge=0, description="Plan step number; 0 for events outside a step (e.g. opening the start URL).")
    kind: str | None = None
    side_effect: SideEffect | None = None
    started: dt.datetime
    ended: dt.datetime | None = None
    duration_ms: float | None = Field(None, ge=0)
    elapsed_ms: float | None = Field(None, ge=0, description="Time since the attempt began (scenario total).")
    tool: str | None = None
    args: dict[str, Any] = Field(default_factory=dict, description="Masked: typed text as textLength/textDigest.")
    status: EventStatus = "running"
    code: str | None = Field(None, description="BROWSER_* error code.")
    error: str | None = Field(None, description="Error text with emails/phones/cards masked.")
    retries: int = Field(0, ge=0)
    page: PageInfo | None = None
    target: StepTarget | None = None
    screenshots: list[str] = Field(default_factory=list, description="Bundle paths of this step's screenshots.")
    exports: list[str] = Field(default_factory=list, description="Bundle paths of files this step exported.")
    note: str | None = Field(None, max_length=500, description="Why a step was skipped, what was checked…")
    sent: list[SentRequest] = Field(default_factory=list, description="The side-effect ledger of this step: what "
                                    "the page sent that could change a server while the step ran.")
    agent: AgentStep | None = Field(None, description="Agent runs only: the loop's view of this iteration.")

    _t0: float | None = PrivateAttr(default=None)

    @field_validator("args", mode="before")
    @classmethod
    def _mask_args(cls, value: Any) -> Any:
        return mask_args(value) if isinstance(value, Mapping) else value

    @field_validator("error", "note")
    @classmethod
    def _mask_text(cls, value: str | None) -> str | None:
        return None if value is None else mask_pii(value)[:2000]

    @classmethod
    def begin(cls, *, step: int, tool: str | None = None, args: Mapping[str, Any] | None = None,
              **fields: Any) -> StepEvent:
        event = cls(step=step, tool=tool, args=dict(args or {}), started=dt.datetime.now(dt.UTC), **fields)
        event._t0 = time.monotonic()
        return event

    def end(
        self,
        result: Mapping[str, Any] | None = None,
        *,
        status: EventStatus | None = None,
        page_url: str | None = None,
        page_title: str | None = None,
        **fields: Any,
    ) -> StepEvent:
        """Close the event from a tool result (``{"status", "code"?, "error"?}``) or an explicit status."""
        self.ended = dt.datetime.now(dt.UTC)
        if self._t0 is not None:
            self.duration_ms = round((time.monotonic() - self._t0) * 1000, 1)
        else:
            self.duration_ms = round((self.ended - self.started).total_seconds() * 1000, 1)
        if result is not None:
            self.status = "ok" if result.get("status") == "ok" else "error"
            if result.get("code"):
                self.code = str(result["code"])
            if result.get("error"):
                self.error = mask_pii(str(result["error"]))[:2000]
        if status is not None:
            self.status = status
        if page_url is not None or page_title is not None:
            self.page = PageInfo(url=page_url or "", title=page_title or "")
        for key, value in fields.items():
            setattr(self, key, value)
        return self

    def sanitized(self) -> StepEvent:
        """A re-validated copy: whatever was assigned after construction gets masked too."""
        return StepEvent.model_validate(self.model_dump(by_alias=True))
