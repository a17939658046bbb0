"""Uploads: attach exactly the files the caller named, through a file input or a file chooser.

The caller's list is the whole permission: no globbing, no ``~`` expansion, no folders, nothing else is read.
Relative paths are taken from the workspace. Every file is checked before anything is attached, so a missing
file leaves the page untouched.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeout

from browserops.browser.act.effects import action_error
from browserops.browser.act.element_ops import label_of
from browserops.browser.errors import first_line
from browserops.browser.js import element as element_js
from browserops.browser.launch.session import BrowserSession
from browserops.browser.numbering.locate import element_call, locate
from browserops.contract import UPLOAD_MAX_FILES, BrowserOpsError, ElementRef, ErrorCode

MAX_FILES = UPLOAD_MAX_FILES  # the tool definitions check it too (contract.py)


def check_files(files: list[str], base: Path) -> list[Path]:
    """Resolve and check every named file; raise before anything is attached."""
    if not files:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, "files is empty: name at least one file to upload.")
    if len(files) > MAX_FILES:
        raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"At most {MAX_FILES} files per upload ({len(files)} given).")
    out: list[Path] = []
    missing: list[str] = []
    for raw in files:
        if not raw or not raw.strip() or "\x00" in raw:
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, "A file name is empty or invalid.")
        path = Path(raw)
        if not path.is_absolute():
            path = base / path
        if not path.exists():
            missing.append(raw)
            continue
        if path.is_dir():
            raise BrowserOpsError(
                ErrorCode.INVALID_ARGS, f"{raw!r} is a folder; name the files inside it one by one."
            )
        if not path.is_file():
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, f"{raw!r} is not a regular file.")
        resolved = path.resolve()
        if resolved not in out:
            out.append(resolved)
    if missing:
        raise BrowserOpsError(
            ErrorCode.FILE_NOT_FOUND,
            f"File not found: {', '.join(repr(m) for m in missing)} (relative paths are taken from the "
            f"workspace {base}). Nothing was attached; fix the path and try again.",
            details={"missing": missing},
        )
    return out


def _attached(paths: list[Path]) -> list[dict[str, Any]]:
    return [{"name": p.name, "size": p.stat().st_size} for p in paths]


async def upload_files(session: BrowserSession, element: ElementRef, paths: list[Path],
                       timeout_ms: int) -> dict[str, Any]:
    """Attach ``paths`` to the element (a number or blind id): directly when it is (the label of) a file input,
    visible or hidden; otherwise click it and fill the file chooser it opens."""
    page = session.page
    try:
        located, kind = await locate(session, element, element_js.file_info())
    except PlaywrightError as exc:
        raise action_error(label_of(element), exc) from exc
    locator = located.locator
    files = [str(p) for p in paths]
    if kind["kind"] in ("input", "label"):
        if kind.get("disabled"):
            raise BrowserOpsError(ErrorCode.UPLOAD_FAILED, "That file input is disabled; the page does not accept "
                                  "a file there right now.")
        if len(paths) > 1 and not kind.get("multiple"):
            raise _single_file_error(len(paths))
        try:
            await locator.set_input_files(files, timeout=timeout_ms)
            count = await element_call(located, element_js.file_count())
        except PlaywrightError as exc:
            raise BrowserOpsError(ErrorCode.UPLOAD_FAILED, f"Attaching the files failed: {first_line(exc)}.") from exc
        return {"via": "file input", "attached": _attached(paths), "input_file_count": count,
                "accept": kind.get("accept", "")}
    try:
        async with page.expect_file_chooser(timeout=timeout_ms) as chooser_info:
            await locator.click(timeout=timeout_ms)
        chooser = await chooser_info.value
    except PlaywrightTimeout as exc:
        raise BrowserOpsError(
            ErrorCode.UPLOAD_FAILED,
            f"Clicking the element did not open a file chooser within {timeout_ms} ms. Use the file input "
            "itself, or the button or label that opens the file picker.",
        ) from exc
    except PlaywrightError as exc:
        raise BrowserOpsError(ErrorCode.UPLOAD_FAILED, f"Clicking the element failed: {first_line(exc)}.") from exc
    if len(paths) > 1 and not chooser.is_multiple():
        # The chooser is open now; close it empty so the page is not left waiting.
        await chooser.set_files([])
        raise _single_file_error(len(paths))
    try:
        await chooser.set_files(files, timeout=timeout_ms)
    except PlaywrightError as exc:
        raise BrowserOpsError(ErrorCode.UPLOAD_FAILED, f"Attaching the files failed: {first_line(exc)}.") from exc
    return {"via": "file chooser", "attached": _attached(paths), "multiple": chooser.is_multiple()}


def _single_file_error(count: int) -> BrowserOpsError:
    return BrowserOpsError(
        ErrorCode.UPLOAD_FAILED, f"This file field takes one file, but {count} were given. Upload them one at a time "
        "or use a field that accepts several.",
    )
