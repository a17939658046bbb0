"""The project's shared vocabulary: error codes, the exception carrying them, side-effect classes and the
tool result contract. It imports nothing of the project, so every layer (evidence, plan, policy, packs, the
front doors) can name these without loading a browser.

Every error a user can hit has a code from :class:`ErrorCode` (documented in ``cli_contract.md``) and a
message that says what to do next. Tools never raise: they turn a :class:`BrowserOpsError` into the
``{"status": "error", "code": ..., "error": ...}`` contract.
"""

from __future__ import annotations

import contextlib
import dataclasses
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal, get_args


class ErrorCode(StrEnum):
    CAPABILITY_DISABLED = "BROWSER_CAPABILITY_DISABLED"
    NOT_INSTALLED = "BROWSER_NOT_INSTALLED"
    LAUNCH_FAILED = "BROWSER_LAUNCH_FAILED"
    CRASHED = "BROWSER_CRASHED"
    CONFIG_INVALID = "BROWSER_CONFIG_INVALID"
    INVALID_ARGS = "BROWSER_INVALID_ARGS"
    UNKNOWN_TOOL = "BROWSER_UNKNOWN_TOOL"
    NAVIGATION_FAILED = "BROWSER_NAVIGATION_FAILED"
    TIMEOUT = "BROWSER_TIMEOUT"
    STALE_INDEX = "BROWSER_STALE_INDEX"
    ELEMENT_NOT_FOUND = "BROWSER_ELEMENT_NOT_FOUND"
    FRAME_NOT_LISTED = "BROWSER_FRAME_NOT_LISTED"
    ACTION_FAILED = "BROWSER_ACTION_FAILED"
    DIALOG_OPEN = "BROWSER_DIALOG_OPEN"
    NO_DIALOG = "BROWSER_NO_DIALOG"
    DOWNLOAD_FAILED = "BROWSER_DOWNLOAD_FAILED"
    UPLOAD_FAILED = "BROWSER_UPLOAD_FAILED"
    FILE_NOT_FOUND = "BROWSER_FILE_NOT_FOUND"
    TAB_NOT_FOUND = "BROWSER_TAB_NOT_FOUND"
    LOGIN_REQUIRED = "BROWSER_LOGIN_REQUIRED"
    CONFIRM_REQUIRED = "BROWSER_CONFIRM_REQUIRED"
    CONFIRM_DECLINED = "BROWSER_CONFIRM_DECLINED"
    CONFIRM_CANCELLED = "BROWSER_CONFIRM_CANCELLED"
    CONFIRM_BY_MODEL = "BROWSER_CONFIRM_BY_MODEL"
    PLAN_STALE = "BROWSER_PLAN_STALE"
    PLAN_INVALID = "BROWSER_PLAN_INVALID"
    PLAN_NOT_FOUND = "BROWSER_PLAN_NOT_FOUND"
    SITE_CHANGED = "BROWSER_SITE_CHANGED"
    TARGET_NOT_FOUND = "BROWSER_TARGET_NOT_FOUND"
    TARGET_AMBIGUOUS = "BROWSER_TARGET_AMBIGUOUS"
    FORM_INVALID = "BROWSER_FORM_INVALID"
    EXPORT_FAILED = "BROWSER_EXPORT_FAILED"
    EXPORT_UNSAFE = "BROWSER_EXPORT_UNSAFE"
    SUBMIT_FAILED = "BROWSER_SUBMIT_FAILED"
    NOT_SAVED = "BROWSER_NOT_SAVED"
    VALUE_MISMATCH = "BROWSER_VALUE_MISMATCH"
    LANE_BUSY = "BROWSER_LANE_BUSY"
    LANE_LOST = "BROWSER_LANE_LOST"
    LANE_UNAVAILABLE = "BROWSER_LANE_UNAVAILABLE"
    EVIDENCE_NOT_FOUND = "BROWSER_EVIDENCE_NOT_FOUND"
    EVIDENCE_MISMATCH = "BROWSER_EVIDENCE_MISMATCH"
    EVIDENCE_KEY_INVALID = "BROWSER_EVIDENCE_KEY_INVALID"
    PACK_NOT_FOUND = "BROWSER_PACK_NOT_FOUND"
    PACK_INVALID = "BROWSER_PACK_INVALID"
    INPUT_INVALID = "BROWSER_INPUT_INVALID"
    LLM_UNAVAILABLE = "BROWSER_LLM_UNAVAILABLE"
    LLM_FAILED = "BROWSER_LLM_FAILED"
    POLICY_REFUSED = "BROWSER_POLICY_REFUSED"
    ORIGIN_BLOCKED = "BROWSER_ORIGIN_BLOCKED"
    LIMIT_REACHED = "BROWSER_LIMIT_REACHED"
    NEEDS_USER = "BROWSER_NEEDS_USER"
    UNAUTHORIZED = "BROWSER_UNAUTHORIZED"
    SERVER_START_FAILED = "BROWSER_SERVER_START_FAILED"
    SESSION_IN_USE = "BROWSER_SESSION_IN_USE"
    INTERNAL = "BROWSER_INTERNAL"
    BANNER_NAVIGATED = "BROWSER_BANNER_NAVIGATED"
    SCREENSHOT_FAILED = "BROWSER_SCREENSHOT_FAILED"


class BrowserOpsError(Exception):
    """An error with a stable code and a message telling the user what to do next."""

    def __init__(self, code: ErrorCode, message: str, *, details: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details or {}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code.value, "error": self.message}
        if self.details:
            out["details"] = self.details
        return out

    def __str__(self) -> str:
        return f"{self.code.value}: {self.message}"


class SideEffect(StrEnum):
    """What a tool (or a plan step) may change: nothing, files in the bundle, the workspace, or the site."""

    READ_ONLY = "read-only"
    EXPORT = "export"
    LOCAL_WRITE = "local-write"
    BROWSER_ACT = "browser-act"


# How a call's arguments decide whether it commits something on the page (policy.activation_of):
# "by_action": its ``action`` word says, by that word's traits (tools/definitions/acting.py ACTION_WORDS);
# "by_key": a key press activates on Enter/Space; "by_dialog": answering a dialog, unless it cancels;
# "never": moves focus, scrolls, waits, attaches files or dismisses overlays; "always": any call activates.
ActivationRule = Literal["by_action", "by_key", "by_dialog", "never", "always"]
# When the post-action banner closer runs for a tool besides a new document: "action" (one pass after an action
# word that says so: click, select, type), "listing" (the first listing on a domain), "none".
BannerTrigger = Literal["none", "action", "listing"]
# The plan verb a tool performs (plan/steps.py derives its verb → tools table from these): "act" covers the
# verbs that act on an element with an action word (click, type, select, check).
PlanVerb = Literal["navigate", "act", "upload", "download", "wait_text", "snapshot"]

# Limits and shapes both sides of the tool boundary enforce: the definitions (args models) and the browser.
LISTING_MAX_LIMIT = 500  # items per listing page
UPLOAD_MAX_FILES = 20  # files per upload
BLIND_ID_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")  # an element's data-blind-id
# An element as a call names it: its number in the latest listing (7) or its stable id ("b12"). One name from the
# tool's argument to the page: the args models offer it as ``args.element`` (whatever their field is called: index,
# id, element_id), handlers and the browser layer pass it on as ``element``, and ``numbering/locate.py`` turns it
# into the element found (``Located``: the listed item, the page's id stamp, the frame).
ElementRef = int | str


@dataclass(frozen=True)
class ToolTraits:
    """What a tool does, as the layers above need to know it without running it (or loading a browser).

    Set on each tool's definition in ``browserops/tools/definitions/``; served to MCP clients in ``_meta`` (the
    side effect under its own key, the rest as :meth:`to_meta`) and read back by :meth:`from_meta`. The defaults
    are the strict choice for a tool nobody described: it acts on the site.
    """

    side_effect: SideEffect = SideEffect.BROWSER_ACT
    # Afterwards the active tab shows another document, or another tab is active (navigate, back, switch tab…).
    new_document: bool = False
    # The result's ``data.index`` is a tab the call opened (the banner closer looks there).
    opens_tab: bool = False
    # Acting may navigate (the handler then sets ``signals.navigated``): a new document if it did.
    navigates_on_action: bool = False
    # Moves the viewport, so the viewport-first listing order changes (scroll, focus moves).
    changes_viewport: bool = False
    # Never changes the page (reading, waiting, drawing badges): nothing to settle, nothing to look at again.
    pure_read: bool = False
    # May run while a JavaScript dialog blocks the active tab (it answers, inspects or leaves that tab).
    dialog_safe: bool = False
    # The argument that names the element acted on (a number or data-blind-id), if any.
    target_arg: str | None = None
    # With no element named it acts on the focused element, or on the open dialog.
    acts_on_focus: bool = False
    banners: BannerTrigger = "none"
    activation: ActivationRule = "always"
    # The plan verb this tool performs (plan/steps.py), or None: the plan never calls it to act.
    plan_verb: PlanVerb | None = None

    def to_meta(self) -> dict[str, Any]:
        """The traits besides the side effect, which MCP ``_meta`` sends once, under its own key."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name != "side_effect" and value != f.default:
                out[f.name] = value
        return out

    @classmethod
    def from_meta(cls, meta: Any, side_effect: SideEffect | None = None) -> ToolTraits:
        """Traits sent as :meth:`to_meta` with the side effect sent beside them (a ``side_effect`` inside ``meta``
        is read too); anything missing or malformed falls back to the strict default."""
        raw = meta if isinstance(meta, dict) else {}
        out = cls() if side_effect is None else cls(side_effect=side_effect)
        for f in dataclasses.fields(cls):
            if f.name not in raw:
                continue
            value = raw[f.name]
            if f.name == "side_effect":
                with contextlib.suppress(ValueError):
                    out = dataclasses.replace(out, side_effect=SideEffect(str(value)))
            elif _valid_trait(f.name, value):
                out = dataclasses.replace(out, **{f.name: value})
        return out


_CHOICES: dict[str, tuple[Any, ...]] = {"banners": get_args(BannerTrigger), "activation": get_args(ActivationRule),
                                        "plan_verb": (*get_args(PlanVerb), None)}


def _valid_trait(name: str, value: Any) -> bool:
    if name in _CHOICES:
        return value in _CHOICES[name]
    if name == "target_arg":
        return value is None or isinstance(value, str)
    return isinstance(value, bool)


@dataclass(frozen=True, eq=False)
class ToolResult(Mapping[str, Any]):
    """What every tool call returns: ``ok`` with ``data``, or ``error`` with a stable ``code`` and a message that
    says what to do next (and sometimes ``data``). It never carries an exception.

    On the wire (MCP, JSON events) it is ``{"status": "ok", "data": {...}}`` or ``{"status": "error", "code":
    "BROWSER_…", "error": "...", "data"?: {...}}`` — :meth:`to_wire`, the only place it becomes a dict; the front
    doors call it. Read-only mapping access (``result["data"]``, ``result.get("code")``) reads that wire form, for
    callers that handle results from both sides of a wire alike.
    """

    status: Literal["ok", "error"]
    data: dict[str, Any] = dataclasses.field(default_factory=dict)
    code: str | None = None  # a BROWSER_* code (ErrorCode's value), errors only
    error: str | None = None

    @property
    def failed(self) -> bool:
        return self.status == "error"

    def with_data(self, **extra: Any) -> ToolResult:
        """The same result with more in ``data`` (post-action hooks, the crash policy)."""
        return dataclasses.replace(self, data={**self.data, **extra})

    def to_wire(self) -> dict[str, Any]:
        if self.status == "ok":
            return {"status": "ok", "data": self.data}
        out: dict[str, Any] = {"status": "error", "code": self.code, "error": self.error}
        if self.data:
            out["data"] = self.data
        return out

    @classmethod
    def from_wire(cls, raw: Mapping[str, Any]) -> ToolResult:
        """A result read back from the wire (an MCP server's structured content)."""
        data = raw.get("data")
        data = dict(data) if isinstance(data, Mapping) else {}
        if raw.get("status") == "ok":
            return cls("ok", data)
        code = raw.get("code")
        return cls("error", data, code=str(code) if code is not None else None, error=str(raw.get("error") or ""))

    def raised(self) -> BrowserOpsError:
        """A failed result as an exception carrying the same code and message."""
        try:
            code = ErrorCode(str(self.code))
        except ValueError:
            code = ErrorCode.INTERNAL
        return BrowserOpsError(code, self.error or "the tool failed", details=self.data or None)

    # -- the wire form, read-only ------------------------------------------------------------------------------
    def __getitem__(self, key: str) -> Any:
        return self.to_wire()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_wire())

    def __len__(self) -> int:
        return len(self.to_wire())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self.to_wire() == dict(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # data is a dict


def ok(data: dict[str, Any] | None = None) -> ToolResult:
    return ToolResult("ok", data or {})


def error(code: ErrorCode, message: str, data: dict[str, Any] | None = None) -> ToolResult:
    return ToolResult("error", data or {}, code=code.value, error=message)


def error_from(exc: BrowserOpsError) -> ToolResult:
    return error(exc.code, exc.message, exc.details or None)


def result_error(result: Mapping[str, Any]) -> BrowserOpsError:
    """A failed tool result (typed, or its wire form) as an exception carrying the same code and message."""
    typed = result if isinstance(result, ToolResult) else ToolResult.from_wire(result)
    return typed.raised()
