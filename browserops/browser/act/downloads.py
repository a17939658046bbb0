"""Downloads: wait for one, give it a safe name in the downloads folder, report path, size and SHA-256.

The file name comes from the server (``Content-Disposition``) or the page (``<a download>``), so it is
untrusted: :func:`sanitise_filename` keeps only a plain base name (no directories, no ``..``, no control or
reserved characters, bounded length). :func:`place_file` applies the conflict strategy (``rename`` keeps
both files as ``name (1).ext``; ``overwrite`` replaces) and moves the finished file into place atomically.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
import re
import unicodedata
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from playwright.async_api import Download
from playwright.async_api import Error as PlaywrightError

from browserops.browser.act.element_ops import click_ready, prepare
from browserops.browser.errors import first_line
from browserops.browser.launch.session import BrowserSession
from browserops.contract import BrowserOpsError, ElementRef, ErrorCode

Conflict = Literal["rename", "overwrite"]

MAX_NAME_BYTES = 200
FALLBACK_NAME = "download"
_RESERVED_CHARS = re.compile(r'[<>:"/\\|?*]')
_WINDOWS_DEVICES = re.compile(r"^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$", re.IGNORECASE)


def sanitise_filename(raw: str, fallback: str = FALLBACK_NAME) -> str:
    """A server-sent file name reduced to a safe base name that cannot leave the target folder."""
    name = unicodedata.normalize("NFC", raw or "")
    # Only the last path component counts, whichever separator the server used.
    name = re.split(r"[/\\]", name)[-1]
    name = "".join(ch for ch in name if not unicodedata.category(ch).startswith("C"))
    name = _RESERVED_CHARS.sub("_", name)
    # Browsers turn "../../x" into "_.._x"; no ".." survives, even as a harmless-looking part of a name.
    name = re.sub(r"[._]*\.\.[._]*", "_", name)
    name = re.sub(r"\s+", " ", name).strip(" .")  # no hidden files, no "..", no trailing dots (Windows)
    if _WINDOWS_DEVICES.match(name):
        name = "_" + name
    if len(name.encode("utf-8")) > MAX_NAME_BYTES:
        stem, dot, ext = name.rpartition(".")
        if not dot or len(ext.encode("utf-8")) > 16:
            stem, ext = name, ""
        budget = MAX_NAME_BYTES - len(ext.encode("utf-8")) - (1 if ext else 0)
        stem = stem.encode("utf-8")[:budget].decode("utf-8", "ignore").rstrip(" .")
        name = f"{stem}.{ext}" if ext else stem
    return name or fallback


def _numbered(name: str, n: int) -> str:
    stem, dot, ext = name.rpartition(".")
    if not dot or not stem:
        return f"{name} ({n})"
    return f"{stem} ({n}).{ext}"


def place_file(source: Path, directory: Path, name: str, conflict: Conflict) -> tuple[Path, bool, bool]:
    """Move ``source`` to ``directory/name`` (already sanitised). Returns (path, renamed, overwritten)."""
    element = directory / name
    if conflict == "overwrite":
        overwritten = element.exists() or element.is_symlink()
        # os.replace swaps the directory entry itself: a symlink planted at the target is replaced, not followed.
        os.replace(source, element)
        return element, False, overwritten
    n = 0
    while True:
        candidate = element if n == 0 else directory / _numbered(name, n)
        try:
            # O_EXCL reserves the name, so two downloads finishing at once cannot pick the same one.
            fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        except FileExistsError:
            n += 1
            if n > 10_000:
                raise BrowserOpsError(ErrorCode.DOWNLOAD_FAILED, f"Too many files named like {name!r}.") from None
            continue
        os.close(fd)
        os.replace(source, candidate)
        return candidate, n > 0, False


def file_digest(path: Path) -> tuple[int, str]:
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 16):
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()


@dataclass(frozen=True)
class SavedDownload:
    path: Path
    name: str
    suggested_name: str
    size: int
    sha256: str
    url: str
    renamed: bool
    overwritten: bool

    def to_dict(self, workspace: Path | None = None) -> dict[str, Any]:
        out: dict[str, Any] = {
            "path": str(self.path),
            "name": self.name,
            "suggested_name": self.suggested_name,
            "size": self.size,
            "sha256": self.sha256,
            "url": self.url,
            "renamed": self.renamed,
            "overwritten": self.overwritten,
        }
        if workspace is not None:
            with contextlib.suppress(ValueError):
                out["relative_path"] = str(self.path.relative_to(workspace.resolve()))
        return out


def _new_partial(directory: Path) -> Path:
    directory = directory.resolve()
    directory.mkdir(parents=True, exist_ok=True)
    return directory / f".browserops-{uuid.uuid4().hex}.part"


def _finish(partial: Path, name: str, conflict: Conflict) -> tuple[Path, bool, bool, int, str]:
    try:
        path, renamed, overwritten = place_file(partial, partial.parent, name, conflict)
    finally:
        partial.unlink(missing_ok=True)
    size, sha = file_digest(path)
    return path, renamed, overwritten, size, sha


async def save_download(download: Download, directory: Path, conflict: Conflict) -> SavedDownload:
    """Wait for the download to finish and place it under ``directory`` with a sanitised name."""
    partial = await asyncio.to_thread(_new_partial, directory)
    suggested = download.suggested_filename
    name = sanitise_filename(suggested)
    try:
        await download.save_as(partial)
    except PlaywrightError as exc:
        failure = None
        with contextlib.suppress(PlaywrightError):
            failure = await download.failure()
        raise BrowserOpsError(
            ErrorCode.DOWNLOAD_FAILED,
            f"The download of {name!r} failed: {failure or first_line(exc)}. "
            "Check that the site still serves the file, then try again.",
        ) from exc
    # File work (the move, hashing a large export) runs off the event loop.
    path, renamed, overwritten, size, sha = await asyncio.to_thread(_finish, partial, name, conflict)
    return SavedDownload(path=path, name=path.name, suggested_name=suggested, size=size, sha256=sha,
                         url=download.url, renamed=renamed, overwritten=overwritten)


async def wait_for_download(session: BrowserSession, timeout_ms: int,
                            trigger: Callable[[], Awaitable[Any]] | None = None) -> tuple[Download, bool]:
    """The next download in any tab, claimed so no other wait takes it. Without a ``trigger``, a download
    that already started and was not claimed yet is returned first. Returns (download, started_before)."""
    if trigger is None and session.downloads:
        return session.downloads.pop(0), True
    loop = asyncio.get_running_loop()
    arrived: asyncio.Future[Download] = loop.create_future()

    def listener(download: Download) -> None:
        if not arrived.done():
            arrived.set_result(download)

    session.download_listeners.append(listener)
    try:
        if trigger is not None:
            await trigger()
        try:
            download = await asyncio.wait_for(asyncio.shield(arrived), timeout=timeout_ms / 1000)
        except TimeoutError:
            what = "after the click" if trigger is not None else "in any tab"
            raise BrowserOpsError(
                ErrorCode.DOWNLOAD_FAILED,
                f"No download started {what} within {timeout_ms} ms. Check that the element really downloads "
                "a file (a link may open a page instead), or raise timeout_ms for a slow export.",
            ) from None
    finally:
        with contextlib.suppress(ValueError):
            session.download_listeners.remove(listener)
        if not arrived.done():
            arrived.cancel()
    with contextlib.suppress(ValueError):
        session.downloads.remove(download)
    return download, False


async def click(session: BrowserSession, element: ElementRef, timeout_ms: int) -> None:
    """The trigger of browser_click_and_wait_download: found, scrolled into view and refused when covered, as
    every click is (see :func:`browserops.browser.act.element_ops.prepare`)."""
    await click_ready(await prepare(session, element, reach=True, timeout_ms=timeout_ms), timeout_ms)
