"""Finding bundles — only ever inside the given workspace.

A request id maps to exactly one folder (its date is in the id), and the resolved folder must lie under this
workspace's ``artifacts/browser``: a symlink pointing into another workspace is refused, not followed.
"""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict
from pydantic.alias_generators import to_camel

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence import layout
from browserops.evidence.bundle import read_info, read_plan

_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


class BundleSummary(BaseModel):
    """One line of ``evidence list``: from bundle.json and plan.json, without re-hashing (that is verify)."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    request_id: str
    path: str
    status: str  # prepared, complete, incomplete; "open" while a writer runs
    interrupted: bool = False  # no manifest: the writer died (or is still running)
    has_manifest: bool
    created: dt.datetime | None = None
    updated: dt.datetime | None = None
    title: str | None = None
    steps: int | None = None
    attempts: int = 0


def _inside(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def find_bundle(workspace: Path, request_id: str) -> Path:
    """The bundle folder of ``request_id`` in this workspace, or BROWSER_EVIDENCE_NOT_FOUND."""
    path = layout.bundle_dir(workspace, request_id)  # validates the id: no '..', no slashes
    if not path.is_dir() or not _inside(path, layout.artifacts_root(workspace)):
        raise BrowserOpsError(
            ErrorCode.EVIDENCE_NOT_FOUND,
            f"No evidence bundle {request_id} in workspace {workspace}. Run `browserops evidence list`.",
        )
    return path


def summarize(bundle: Path) -> BundleSummary:
    info = read_info(bundle)
    plan = read_plan(bundle)
    has_manifest = (bundle / layout.MANIFEST_FILE).is_file()
    status: str = info.status if info else "unreadable"
    interrupted = not has_manifest
    if status == "open" or (interrupted and status != "unreadable"):
        status = "incomplete"
    actions = plan.get("actions") if plan else None
    title = plan.get("title") if plan else None
    return BundleSummary(
        request_id=bundle.name,
        path=str(bundle),
        status=status,
        interrupted=interrupted,
        has_manifest=has_manifest,
        created=info.created if info else None,
        updated=info.updated if info else None,
        title=str(title) if title is not None else None,
        steps=len(actions) if isinstance(actions, list) else None,
        attempts=len(info.attempts) if info else 0,
    )


def list_bundles(workspace: Path) -> list[BundleSummary]:
    """Every bundle of this workspace, oldest first."""
    root = layout.artifacts_root(workspace)
    if not root.is_dir():
        return []
    out: list[BundleSummary] = []
    for day in sorted(p for p in root.iterdir() if p.is_dir() and _DAY.match(p.name)):
        for bundle in sorted(p for p in day.iterdir() if p.is_dir() and layout.REQUEST_ID_PATTERN.match(p.name)):
            if _inside(bundle, root):
                out.append(summarize(bundle))
    return out
