"""Files in and out: browser_click_and_wait_download, browser_download_wait, browser_upload."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from browserops.contract import UPLOAD_MAX_FILES, ElementRef, SideEffect, ToolTraits
from browserops.tools.definitions.core import ElementId, ToolArgs, ToolDef

TimeoutMs = Field(30_000, ge=100, le=600_000, description="How long to wait for the download to start (ms).")


class ClickDownloadArgs(ToolArgs):
    id: ElementId
    timeout_ms: int = TimeoutMs

    @property
    def element(self) -> ElementRef:
        """The element the call names (``id``): its number or id, as every layer below calls it."""
        return self.id


class DownloadWaitArgs(ToolArgs):
    timeout_ms: int = TimeoutMs


_RESULT = (
    "Returns path, size and sha256 of the saved file. Files go to the workspace's downloads folder "
    "(setting downloads_dir) under a sanitised name; an existing name gets ' (1)' added unless "
    "download_conflict='overwrite'."
)


CLICK_AND_WAIT_DOWNLOAD = ToolDef(
    name="browser_click_and_wait_download",
    handler="browserops.tools.downloads:click_and_wait_download",
    args=ClickDownloadArgs,
    description="Click an element (by number or id) that downloads a file, and wait for the file. " + _RESULT,
    timeout_from_args="timeout_ms",
    traits=ToolTraits(side_effect=SideEffect.EXPORT, target_arg="id", activation="never", plan_verb="download"),
)


DOWNLOAD_WAIT = ToolDef(
    name="browser_download_wait",
    handler="browserops.tools.downloads:download_wait",
    args=DownloadWaitArgs,
    description="Wait for a download the last action started (or the next one, in any tab) and save it. " + _RESULT,
    timeout_from_args="timeout_ms",
    traits=ToolTraits(side_effect=SideEffect.EXPORT, pure_read=True, dialog_safe=True, activation="never"),
)


class UploadArgs(ToolArgs):
    id: ElementId
    files: list[str] = Field(
        min_length=1, max_length=UPLOAD_MAX_FILES,
        description="Paths of the files to attach (relative paths are taken from the workspace). Only these "
        "files are read.",
    )

    @property
    def element(self) -> ElementRef:
        """The element the call names (``id``): its number or id, as every layer below calls it."""
        return self.id


UPLOAD = ToolDef(
    name="browser_upload",
    handler="browserops.tools.uploads:upload",
    args=UploadArgs,
    description=(
        "Attach files to a file field (by number or id): the file input itself, its label, or the button "
        "that opens the file picker. Attaching does not submit the form. A missing file is an error and "
        "nothing is attached."
    ),
    traits=ToolTraits(side_effect=SideEffect.BROWSER_ACT, target_arg="id", activation="never", plan_verb="upload"),
)

DEFINITIONS: tuple[ToolDef[Any], ...] = (CLICK_AND_WAIT_DOWNLOAD, DOWNLOAD_WAIT, UPLOAD)
