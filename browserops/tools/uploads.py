"""browser_upload: attach the files the caller named to a file field."""

from __future__ import annotations

from typing import Any

from browserops.browser.act import uploads
from browserops.tools.context import ToolContext
from browserops.tools.definitions import files as defs


async def upload(ctx: ToolContext, args: defs.UploadArgs) -> dict[str, Any]:
    # Check the files first: a missing one must leave the page untouched.
    paths = uploads.check_files(args.files, ctx.workspace)
    # Leave room inside the tool's own timeout to report "no file chooser opened" clearly.
    wait_ms = max(300, min(5_000, ctx.settings.tool_timeout_ms // 2))
    data = await uploads.upload_files(ctx.session, args.element, paths, wait_ms)
    ctx.signals.uploaded = len(paths)
    return data
