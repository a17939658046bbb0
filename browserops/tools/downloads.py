"""browser_click_and_wait_download, browser_download_wait."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from browserops.browser.act import downloads
from browserops.contract import SideEffect, ToolTraits
from browserops.tools.base import ToolArgs, ToolContext, ToolDef
from browserops.tools.element_arg import ElementId

TimeoutMs = Field(30_000, ge=100, le=600_000, description="How long to wait for the download to start (ms).")


class ClickDownloadArgs(ToolArgs):
    id: ElementId
    timeout_ms: int = TimeoutMs


class DownloadWaitArgs(ToolArgs):
    timeout_ms: int = TimeoutMs


def _finish(ctx: ToolContext, saved: downloads.SavedDownload, started_before: bool) -> dict[str, Any]:
    data = saved.to_dict(ctx.workspace)
    data["conflict_strategy"] = ctx.settings.download_conflict
    if started_before:
        data["started_before_wait"] = True
    ctx.signals["downloaded"] = data["path"]
    return data


async def _click_and_wait(ctx: ToolContext, args: ClickDownloadArgs) -> dict[str, Any]:
    timeout = ctx.settings.tool_timeout_ms
    download, before = await downloads.wait_for_download(
        ctx.session, args.timeout_ms, trigger=lambda: downloads.click(ctx.session, args.id, timeout)
    )
    folder = ctx.workspace_path(ctx.settings.downloads_dir)
    saved = await downloads.save_download(download, folder, ctx.settings.download_conflict)
    return _finish(ctx, saved, before)


async def _download_wait(ctx: ToolContext, args: DownloadWaitArgs) -> dict[str, Any]:
    download, before = await downloads.wait_for_download(ctx.session, args.timeout_ms)
    folder = ctx.workspace_path(ctx.settings.downloads_dir)
    saved = await downloads.save_download(download, folder, ctx.settings.download_conflict)
    return _finish(ctx, saved, before)


_RESULT = (
    "Returns path, size and sha256 of the saved file. Files go to the workspace's downloads folder "
    "(setting downloads_dir) under a sanitised name; an existing name gets ' (1)' added unless "
    "download_conflict='overwrite'."
)

TOOLS: list[ToolDef[Any]] = [
    ToolDef(
        name="browser_click_and_wait_download",
        args=ClickDownloadArgs,
        description="Click an element (by number or id) that downloads a file, and wait for the file. " + _RESULT,
        side_effect=SideEffect.EXPORT,
        handler=_click_and_wait,
        timeout_from_args="timeout_ms",
        traits=ToolTraits(target_arg="id", activation="never", plan_verb="download"),
    ),
    ToolDef(
        name="browser_download_wait",
        args=DownloadWaitArgs,
        description=(
            "Wait for a download the last action started (or the next one, in any tab) and save it. " + _RESULT
        ),
        side_effect=SideEffect.EXPORT,
        handler=_download_wait,
        timeout_from_args="timeout_ms",
        traits=ToolTraits(pure_read=True, dialog_safe=True, activation="never"),
    ),
]
