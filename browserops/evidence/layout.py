"""Where things live in an evidence bundle, how files are named, and how they are written.

``<workspace>/artifacts/browser/YYYY-MM-DD/<requestId>/`` — the date folder is taken from the request id, so a
bundle can be found from its id alone without scanning other folders (or other workspaces).

Every write is atomic (a temporary file in the same folder, fsync, rename, fsync of the folder): a reader, or a
crash, sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
import secrets
from collections.abc import Container
from pathlib import Path

from browserops.contract import BrowserOpsError, ErrorCode

ARTIFACTS_DIR = Path("artifacts") / "browser"
PLAN_FILE = "plan.json"
INFO_FILE = "bundle.json"
EVENTS_FILE = "events.jsonl"
SUMMARY_FILE = "summary.md"
REPORT_FILE = "report.html"  # `evidence report`: derived from the other files, sealed into the manifest
MANIFEST_FILE = "manifest-sha256.txt"
SIGNATURE_FILE = MANIFEST_FILE + ".sig"  # detached Ed25519 signature of the manifest (evidence/signing.py)
ATTESTATION_FILE = "attestation.intoto.jsonl"  # the same seal as an in-toto statement in DSSE (evidence/attestation.py)
SEALS = (MANIFEST_FILE, SIGNATURE_FILE, ATTESTATION_FILE)  # the files the manifest cannot list (they seal it)
SNAPSHOTS_DIR = "snapshots"
SCREENSHOTS_DIR = "screenshots"
EXPORTS_DIR = "exports"
TMP_PREFIX = ".tmp-"

REQUEST_ID_PATTERN = re.compile(r"^req-(\d{8})-(\d{6})-([0-9a-f]{4})$")
_SLUG_DROP = re.compile(r"[^a-z0-9]+")
_EXPORT_NAME = re.compile(r"[^A-Za-z0-9._ -]+")


def new_request_id(now: dt.datetime | None = None) -> str:
    """``req-YYYYMMDD-HHMMSS-xxxx`` in UTC; 4 random hex digits keep two ids of the same second apart."""
    now = (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC)
    return f"req-{now:%Y%m%d-%H%M%S}-{secrets.token_hex(2)}"


def check_request_id(request_id: str) -> dt.date:
    """Validate a request id (it becomes a folder name) and return its date."""
    match = REQUEST_ID_PATTERN.match(request_id)
    if match:
        try:
            return dt.datetime.strptime(match.group(1), "%Y%m%d").date()
        except ValueError:
            pass
    raise BrowserOpsError(
        ErrorCode.INVALID_ARGS,
        f"{request_id[:80]!r} is not a request id (expected req-YYYYMMDD-HHMMSS-xxxx, "
        "see `browserops evidence list`).",
    )


def artifacts_root(workspace: Path) -> Path:
    return workspace / ARTIFACTS_DIR


def bundle_dir(workspace: Path, request_id: str) -> Path:
    day = check_request_id(request_id)
    return artifacts_root(workspace) / day.isoformat() / request_id


def slug(label: str, fallback: str = "step") -> str:
    out = _SLUG_DROP.sub("-", label.lower()).strip("-")[:40].strip("-")
    return out or fallback


def screenshot_relpath(step: int, phase: str, label: str) -> str:
    """``screenshots/NNN_<phase>_<label>.png``, e.g. ``screenshots/011_before_submit.png``."""
    return f"{SCREENSHOTS_DIR}/{step:03d}_{slug(phase, 'shot')}_{slug(label)}.png"


def snapshot_relpath(n: int, page_name: str) -> str:
    """``snapshots/NNN_<page>.aria.txt``, e.g. ``snapshots/001_expense.aria.txt``."""
    return f"{SNAPSHOTS_DIR}/{n:03d}_{slug(page_name, 'page')}.aria.txt"


def export_relpath(name: str) -> str:
    """``exports/<name>`` with the name reduced to a plain file name (no folders, no hidden files)."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    base = _EXPORT_NAME.sub("_", base).strip(" .")[:120]
    return f"{EXPORTS_DIR}/{base or 'export'}"


def unique_relpath(root: Path, relpath: str, taken: Container[str] = ()) -> str:
    """Evidence is never overwritten: a second file of the same name gets ``-2``, ``-3``… before its suffix.
    ``taken``: names in use without a file of their own (screenshots stored once under another name)."""
    if not (root / relpath).exists() and relpath not in taken:
        return relpath
    folder, _, name = relpath.rpartition("/")
    stem, dot, suffix = name.partition(".")
    n = 2
    while True:
        candidate = f"{folder}/{stem}-{n}{dot}{suffix}" if folder else f"{stem}-{n}{dot}{suffix}"
        if not (root / candidate).exists() and candidate not in taken:
            return candidate
        n += 1


def fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that a crash leaves either the old file or the complete new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.parent / f"{TMP_PREFIX}{path.name}.{secrets.token_hex(4)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    try:
        view = memoryview(data)
        while view:
            written = os.write(fd, view)
            view = view[written:]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    os.close(fd)
    os.replace(tmp, path)
    fsync_dir(path.parent)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()
