"""browser_upload: attach the files the caller named to a file field."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from browserops.browser.act import uploads
from browserops.contract import SideEffect, ToolTraits
from browserops.tools.base import ToolArgs, ToolContext, ToolDef
from browserops.tools.element_arg import ElementId


class UploadArgs(ToolArgs):
    id: ElementId
    files: list[str] = Field(
        min_length=1, max_length=uploads.MAX_FILES,
        description="Paths of the files to attach (relative paths are taken from the workspace). Only these "
        "files are read.",
    )


async def _upload(ctx: ToolContext, args: UploadArgs) -> dict[str, Any]:
    # Check the files first: a missing one must leave the page untouched.
    paths = uploads.check_files(args.files, ctx.workspace)
    # Leave room inside the tool's own timeout to report "no file chooser opened" clearly.
    wait_ms = max(300, min(5_000, ctx.settings.tool_timeout_ms // 2))
    data = await uploads.upload_files(ctx.session, args.id, paths, wait_ms)
    ctx.signals["uploaded"] = len(paths)
    return data


TOOLS: list[ToolDef[Any]] = [
    ToolDef(
        name="browser_upload",
        args=UploadArgs,
        description=(
            "Attach files to a file field (by number or id): the file input itself, its label, or the button "
            "that opens the file picker. Attaching does not submit the form. A missing file is an error and "
            "nothing is attached."
        ),
        side_effect=SideEffect.BROWSER_ACT,
        handler=_upload,
        traits=ToolTraits(target_arg="id", activation="never", plan_verb="upload"),
    ),
]
