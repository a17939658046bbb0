"""BundleWriter: the one way files get into an evidence bundle.

Life of a bundle (one per request id)::

    create(ws, id, phase="prepare")  -> status "open"      prepare writes plan.json, snapshots
    finish("prepared")               -> manifest written   reviewable; `evidence verify` passes
    open(ws, id, confirmed_with=…)   -> status "open"      run: manifest removed first, attempt 2 begins
                                                           (approved=…: a person's approval through MCP instead)
    log_event / add_screenshot / add_export …
    finish("complete" | "incomplete")-> summary.md, bundle.json, then manifest-sha256.txt last

``bundle.json`` is the status marker. It says ``open`` from the moment a writer starts until ``finish``, and the
manifest exists only after ``finish``: a writer killed half-way leaves ``open`` and no manifest, which
``verify_bundle`` reports as incomplete — never a bundle that looks whole. Used as a context manager, a block
that raises finishes the bundle ``incomplete`` with the error's code.

Evidence is append-only: nothing already in the bundle is overwritten (a repeated name gets ``-2``), events are
appended one whole line at a time with fsync, and every other file is written atomically.
"""

from __future__ import annotations

import datetime as dt
import getpass
import logging
import os
import time
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import Any, Literal

import orjson
from pydantic import BaseModel

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence import layout
from browserops.evidence.attestation import seal
from browserops.evidence.events import StepEvent
from browserops.evidence.manifest import render_manifest, write_manifest
from browserops.evidence.models import Approval, Attempt, BundleInfo, FinalStatus, Phase, confirmed_run
from browserops.evidence.signing import SIGNATURE_FILE, Signer, load_signer
from browserops.evidence.summary import render_summary
from browserops.privacy import mask_pii, use_workspace

log = logging.getLogger(__name__)

ScreenshotPhase = Literal["before", "after", "error"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def read_info(bundle: Path) -> BundleInfo | None:
    try:
        return BundleInfo.model_validate_json((bundle / layout.INFO_FILE).read_bytes())
    except (OSError, ValueError):
        return None


def read_events(bundle: Path) -> tuple[list[StepEvent], list[str]]:
    """All readable events, and a note for each line that is not one (e.g. a torn last line)."""
    events: list[StepEvent] = []
    problems: list[str] = []
    try:
        raw = (bundle / layout.EVENTS_FILE).read_bytes()
    except FileNotFoundError:
        return events, problems
    lines = raw.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    elif lines:
        problems.append(f"{layout.EVENTS_FILE}: last line is incomplete (the writer stopped mid-line)")
        lines.pop()
    for i, line in enumerate(lines, start=1):
        try:
            events.append(StepEvent.model_validate_json(line))
        except ValueError:
            problems.append(f"{layout.EVENTS_FILE}: line {i} is not a step event")
    return events, problems


def read_plan(bundle: Path) -> dict[str, Any] | None:
    """plan.json as plain data (the evidence layer does not depend on the plan model)."""
    try:
        data = orjson.loads((bundle / layout.PLAN_FILE).read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None
    return data if isinstance(data, dict) else None


def _login() -> str | None:
    try:
        return getpass.getuser()
    except (KeyError, OSError):  # no passwd entry and no LOGNAME/USER: a container's anonymous uid
        return None


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class BundleWriter:
    """Writes one attempt (prepare or run) into a bundle. Get one from :meth:`create` or :meth:`open`."""

    def __init__(self, workspace: Path, path: Path, info: BundleInfo, signer: Signer | None = None) -> None:
        self.workspace = workspace
        self.signer = signer
        self.path = path
        self._info = info
        self._t0 = time.monotonic()
        self._events_fd: int | None = None
        self._finished = False
        self._last_shot: tuple[str, bytes] | None = None  # the latest stored screenshot: (path, PNG bytes)

    # ------------------------------------------------------------------ opening

    @classmethod
    def create(cls, workspace: Path, request_id: str, *, phase: Phase = "prepare") -> BundleWriter:
        """A new bundle for ``request_id`` in this workspace (an existing one is an error: use :meth:`open`)."""
        workspace = workspace.resolve()
        use_workspace(workspace)  # what its events digest is keyed by the workspace's secret
        path = layout.bundle_dir(workspace, request_id)
        signer = load_signer()  # a broken key is refused before anything is written
        if path.exists():
            raise BrowserOpsError(
                ErrorCode.INVALID_ARGS, f"An evidence bundle for {request_id} already exists at {path}."
            )
        path.mkdir(parents=True)
        for sub in (layout.SNAPSHOTS_DIR, layout.SCREENSHOTS_DIR, layout.EXPORTS_DIR):
            (path / sub).mkdir()
        now = _now()
        info = BundleInfo(request_id=request_id, workspace=str(workspace), created=now, updated=now, status="open",
                          attempts=[Attempt(number=1, phase=phase, started=now, pid=os.getpid(), user=_login())])
        writer = cls(workspace, path, info, signer)
        writer._save_info()
        layout.fsync_dir(path.parent)
        return writer

    @classmethod
    def open(
        cls, workspace: Path, request_id: str, *, phase: Phase = "run", confirmed_with: str | None = None,
        approved: Approval | None = None, lane: Mapping[str, Any] | None = None,
    ) -> BundleWriter:
        """Continue an existing bundle with a new attempt (a run after prepare, or a retry after a crash)."""
        workspace = workspace.resolve()
        use_workspace(workspace)  # what its events digest is keyed by the workspace's secret
        path = layout.bundle_dir(workspace, request_id)
        signer = load_signer()
        info = read_info(path) if path.is_dir() else None
        if info is None or info.request_id != request_id:
            raise BrowserOpsError(
                ErrorCode.EVIDENCE_NOT_FOUND,
                f"No readable evidence bundle for {request_id} in {workspace}. Run `browserops evidence list`.",
            )
        done = confirmed_run(info)
        if (confirmed_with is not None or approved is not None) and done is not None:
            # A confirmed plan changes the world once; a second confirmed run would file the form twice.
            raise BrowserOpsError(
                ErrorCode.PLAN_STALE,
                f"Plan {request_id} already ran with confirmation (attempt {done.number}, finished "
                f"{done.ended:%Y-%m-%d %H:%M:%S} UTC). A plan runs once: run `browserops prepare` for a new one.",
            )
        # Order matters for crash safety: the manifest goes first, so from here on the bundle reads as unfinished.
        (path / layout.MANIFEST_FILE).unlink(missing_ok=True)
        (path / SIGNATURE_FILE).unlink(missing_ok=True)
        (path / layout.ATTESTATION_FILE).unlink(missing_ok=True)
        (path / layout.REPORT_FILE).unlink(missing_ok=True)  # derived from the bundle; it would describe the past
        layout.fsync_dir(path)
        _remove_partial_files(path)
        _repair_events(path)
        info.status = "open"
        info.attempts.append(Attempt(number=len(info.attempts) + 1, phase=phase, started=_now(),
                                     confirmed_with=confirmed_with, approved=approved, pid=os.getpid(),
                                     user=_login(),
                                     lane=dict(lane) if lane is not None else None))
        writer = cls(workspace, path, info, signer)
        writer._save_info()
        return writer

    # ------------------------------------------------------------------ state

    @property
    def request_id(self) -> str:
        return self._info.request_id

    @property
    def attempt(self) -> int:
        return self._info.attempts[-1].number

    @property
    def phase(self) -> Phase:
        return self._info.attempts[-1].phase

    @property
    def finished(self) -> bool:
        return self._finished

    @property
    def info(self) -> BundleInfo:
        return self._info.model_copy(deep=True)

    def elapsed_ms(self) -> float:
        return round((time.monotonic() - self._t0) * 1000, 1)

    def _check_open(self) -> None:
        if self._finished:
            raise BrowserOpsError(ErrorCode.INTERNAL, f"The evidence bundle {self.request_id} is already finished.")

    def _save_info(self) -> None:
        self._info.updated = _now()
        layout.atomic_write(self.path / layout.INFO_FILE,
                            orjson.dumps(self._info.model_dump(mode="json", by_alias=True), option=orjson.OPT_INDENT_2))

    def _write_new(self, relpath: str, data: bytes) -> str:
        self._check_open()
        relpath = layout.unique_relpath(self.path, relpath)
        layout.atomic_write(self.path / relpath, data)
        return relpath

    # ------------------------------------------------------------------ content

    def write_plan(self, plan: BaseModel | Mapping[str, Any] | bytes) -> str:
        """Write plan.json (prepare). Pass the plan model, its JSON-ready dict, or its bytes."""
        self._check_open()
        if isinstance(plan, BaseModel):
            data = orjson.dumps(plan.model_dump(mode="json", by_alias=True), option=orjson.OPT_INDENT_2) + b"\n"
        elif isinstance(plan, bytes):
            data = plan
        else:
            data = orjson.dumps(dict(plan), option=orjson.OPT_INDENT_2) + b"\n"
        if (self.path / layout.PLAN_FILE).exists():
            raise BrowserOpsError(
                ErrorCode.INTERNAL, f"{self.request_id} already has a plan.json; a plan is never replaced."
            )
        layout.atomic_write(self.path / layout.PLAN_FILE, data)
        return layout.PLAN_FILE

    def add_snapshot(self, n: int, page_name: str, text: str) -> str:
        """``snapshots/NNN_<page>.aria.txt``; returns the bundle-relative path."""
        return self._write_new(layout.snapshot_relpath(n, page_name), text.encode("utf-8"))

    def add_screenshot(self, step: int, phase: ScreenshotPhase, png: bytes, label: str = "") -> str:
        """``screenshots/NNN_<phase>_<label>.png``; returns its bundle-relative name.

        A screenshot byte-identical to the previous one (a step's "before" is usually the last step's "after") is
        not stored again: its name goes into ``bundle.json`` ``sameAs`` pointing at the stored file, so events and
        the plan's evidence list keep their names and ``verify`` checks that every such name leads to a file."""
        self._check_open()
        if not png.startswith(PNG_SIGNATURE):
            raise BrowserOpsError(ErrorCode.INVALID_ARGS, "add_screenshot expects PNG bytes.")
        wanted = layout.screenshot_relpath(step, phase, label or f"step{step}")
        last = self._last_shot
        if last is not None and last[1] == png and (self.path / last[0]).is_file():
            rel = layout.unique_relpath(self.path, wanted, taken=self._info.same_as)
            self._info.same_as[rel] = last[0]
            self._save_info()
            return rel
        rel = layout.unique_relpath(self.path, wanted, taken=self._info.same_as)
        layout.atomic_write(self.path / rel, png)
        self._last_shot = (rel, png)
        return rel

    def stored_as(self, relpath: str) -> str:
        """The file that holds ``relpath`` (itself, or the identical screenshot it was not stored apart from)."""
        return self._info.same_as.get(relpath, relpath)

    def evidence_names(self) -> list[str]:
        """Every name in the bundle: its files and the screenshots stored once under another name."""
        files = [p.relative_to(self.path).as_posix() for p in self.path.rglob("*") if p.is_file()]
        return sorted([*files, *self._info.same_as])

    def add_export(self, name: str, source: Path | bytes) -> str:
        """Copy a downloaded file (or bytes) to ``exports/<name>``; returns the bundle-relative path."""
        if isinstance(source, Path):
            try:
                data = source.read_bytes()
            except OSError as exc:
                raise BrowserOpsError(ErrorCode.EXPORT_FAILED,
                                      f"Cannot copy the export {source.name}: {exc.strerror}.") from exc
        else:
            data = source
        return self._write_new(layout.export_relpath(name), data)

    def add_trace(self, data: bytes) -> str:
        """``trace.zip``: a Playwright trace of this attempt, typed values already masked (evidence/trace.py)."""
        return self._write_new("trace.zip", data)

    def log_event(self, event: StepEvent) -> StepEvent:
        """Append one event as one line (flushed and fsynced); fills requestId, attempt, phase, elapsedMs."""
        self._check_open()
        clean = event.sanitized()
        clean.request_id = self.request_id
        clean.attempt = self.attempt
        clean.phase = self.phase
        if clean.elapsed_ms is None:
            clean.elapsed_ms = self.elapsed_ms()
        line = orjson.dumps(clean.model_dump(mode="json", by_alias=True, exclude_none=True)) + b"\n"
        if self._events_fd is None:
            self._events_fd = os.open(self.path / layout.EVENTS_FILE, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o644)
        view = memoryview(line)
        while view:
            written = os.write(self._events_fd, view)
            view = view[written:]
        os.fsync(self._events_fd)
        return clean

    # ------------------------------------------------------------------ finishing

    def finish(self, status: FinalStatus, *, reason: str | None = None) -> Path:
        """Close the attempt: summary.md, bundle.json, then manifest-sha256.txt (and its signature when the user
        has a key). Returns the manifest path."""
        self._check_open()
        if self._events_fd is not None:
            os.close(self._events_fd)
            self._events_fd = None
        attempt = self._info.attempts[-1]
        attempt.ended = _now()
        attempt.status = status
        attempt.reason = mask_pii(reason)[:2000] if reason else None
        self._info.status = status
        self._info.signed_by = self.signer.fingerprint if self.signer else None
        self._info.attestation = layout.ATTESTATION_FILE if self.signer else None
        events, problems = read_events(self.path)
        files = sorted(p.relative_to(self.path).as_posix() for p in self.path.rglob("*") if p.is_file())
        summary = render_summary(self._info, read_plan(self.path), events, files, problems)
        layout.atomic_write(self.path / layout.SUMMARY_FILE, summary.encode("utf-8"))
        self._save_info()
        data = render_manifest(self.path)
        if self.signer is not None:
            # Signature before manifest: a crash in between leaves no manifest, which reads as interrupted.
            seal(self.path, self.signer, data, request_id=self._info.request_id, status=status)
        manifest = write_manifest(self.path, data)
        self._finished = True
        return manifest

    def abandon(self, reason: str) -> None:
        """Finish ``incomplete`` unless already finished (used on errors; never raises a second error)."""
        if not self._finished:
            self.finish("incomplete", reason=reason)

    def __enter__(self) -> BundleWriter:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._finished:
            return
        if exc is None:
            self.finish("incomplete", reason="the writer was closed without finish()")
            return
        if isinstance(exc, BrowserOpsError):
            reason = f"{exc.code.value}: {exc.message}"
        else:
            reason = f"{type(exc).__name__}: {exc}"
        try:
            self.finish("incomplete", reason=reason)
        except Exception:  # the block's own error is the one to report; the bundle stays unfinished (no manifest)
            log.exception("could not finish evidence bundle %s", self.request_id)

    async def __aenter__(self) -> BundleWriter:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        self.__exit__(exc_type, exc, tb)


def _remove_partial_files(bundle: Path) -> None:
    """Temporary files of a writer that died mid-write are not evidence (the rename never happened)."""
    for tmp in bundle.rglob(f"{layout.TMP_PREFIX}*"):
        if tmp.is_file():
            tmp.unlink()


def _repair_events(bundle: Path) -> None:
    """Cut a torn last line (a writer killed mid-append) so the next event starts on a line of its own."""
    events = bundle / layout.EVENTS_FILE
    try:
        raw = events.read_bytes()
    except FileNotFoundError:
        return
    if raw and not raw.endswith(b"\n"):
        keep = raw.rfind(b"\n") + 1
        with events.open("r+b") as fh:
            fh.truncate(keep)
            os.fsync(fh.fileno())
