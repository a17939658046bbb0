"""The project's shared vocabulary: error codes, the exception carrying them, side-effect classes and the
tool result contract. It imports nothing of the project, so every layer (evidence, plan, policy, packs, the
front doors) can name these without loading a browser.

Every error a user can hit has a code from :class:`ErrorCode` (documented in ``cli_contract.md``) and a
message that says what to do next. Tools never raise: they turn a :class:`BrowserOpsError` into the
``{"status": "error", "code": ..., "error": ...}`` contract.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


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
    ACTION_FAILED = "BROWSER_ACTION_FAILED"
    DIALOG_OPEN = "BROWSER_DIALOG_OPEN"
    NO_DIALOG = "BROWSER_NO_DIALOG"
    DOWNLOAD_FAILED = "BROWSER_DOWNLOAD_FAILED"
    UPLOAD_FAILED = "BROWSER_UPLOAD_FAILED"
    FILE_NOT_FOUND = "BROWSER_FILE_NOT_FOUND"
    TAB_NOT_FOUND = "BROWSER_TAB_NOT_FOUND"
    LOGIN_REQUIRED = "BROWSER_LOGIN_REQUIRED"
    CONFIRM_REQUIRED = "BROWSER_CONFIRM_REQUIRED"
    PLAN_STALE = "BROWSER_PLAN_STALE"
    PLAN_INVALID = "BROWSER_PLAN_INVALID"
    PLAN_NOT_FOUND = "BROWSER_PLAN_NOT_FOUND"
    SITE_CHANGED = "BROWSER_SITE_CHANGED"
    EXPORT_FAILED = "BROWSER_EXPORT_FAILED"
    SUBMIT_FAILED = "BROWSER_SUBMIT_FAILED"
    LANE_BUSY = "BROWSER_LANE_BUSY"
    LANE_LOST = "BROWSER_LANE_LOST"
    LANE_UNAVAILABLE = "BROWSER_LANE_UNAVAILABLE"
    EVIDENCE_NOT_FOUND = "BROWSER_EVIDENCE_NOT_FOUND"
    EVIDENCE_MISMATCH = "BROWSER_EVIDENCE_MISMATCH"
    PACK_NOT_FOUND = "BROWSER_PACK_NOT_FOUND"
    PACK_INVALID = "BROWSER_PACK_INVALID"
    INPUT_INVALID = "BROWSER_INPUT_INVALID"
    LLM_UNAVAILABLE = "BROWSER_LLM_UNAVAILABLE"
    LLM_FAILED = "BROWSER_LLM_FAILED"
    POLICY_REFUSED = "BROWSER_POLICY_REFUSED"
    LIMIT_REACHED = "BROWSER_LIMIT_REACHED"
    NEEDS_USER = "BROWSER_NEEDS_USER"
    UNAUTHORIZED = "BROWSER_UNAUTHORIZED"
    SERVER_START_FAILED = "BROWSER_SERVER_START_FAILED"
    SESSION_IN_USE = "BROWSER_SESSION_IN_USE"
    INTERNAL = "BROWSER_INTERNAL"


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


# Every tool call returns ``{"status": "ok"|"error", "error"?: str, "code"?: "BROWSER_…", "data"?: {...}}``.
ToolResult = dict[str, Any]


def ok(data: dict[str, Any] | None = None) -> ToolResult:
    return {"status": "ok", "data": data or {}}


def error(code: ErrorCode, message: str, data: dict[str, Any] | None = None) -> ToolResult:
    out: ToolResult = {"status": "error", "code": code.value, "error": message}
    if data:
        out["data"] = data
    return out


def error_from(exc: BrowserOpsError) -> ToolResult:
    return error(exc.code, exc.message, exc.details or None)


def result_error(result: ToolResult) -> BrowserOpsError:
    """A failed tool result as an exception carrying the same code and message."""
    try:
        code = ErrorCode(str(result.get("code")))
    except ValueError:
        code = ErrorCode.INTERNAL
    data = result.get("data")
    return BrowserOpsError(code, str(result.get("error") or "the tool failed"),
                           details=data if isinstance(data, dict) else None)
