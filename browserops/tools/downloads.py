"""browser_click_and_wait_download, browser_download_wait."""

from __future__ import annotations

from typing import Any

from browserops.browser.act import downloads
from browserops.tools.context import ToolContext
from browserops.tools.definitions import files as defs


def _finish(ctx: ToolContext, saved: downloads.SavedDownload, started_before: bool) -> dict[str, Any]:
    data = saved.to_dict(ctx.workspace)
    data["conflict_strategy"] = ctx.settings.download_conflict
    if started_before:
        data["started_before_wait"] = True
    ctx.signals.downloaded = data["path"]
    return data


async def click_and_wait_download(ctx: ToolContext, args: defs.ClickDownloadArgs) -> dict[str, Any]:
    timeout = ctx.settings.tool_timeout_ms
    download, before = await downloads.wait_for_download(
        ctx.session, args.timeout_ms, trigger=lambda: downloads.click(ctx.session, args.element, timeout)
    )
    folder = ctx.workspace_path(ctx.settings.downloads_dir)
    saved = await downloads.save_download(download, folder, ctx.settings.download_conflict)
    return _finish(ctx, saved, before)


async def download_wait(ctx: ToolContext, args: defs.DownloadWaitArgs) -> dict[str, Any]:
    download, before = await downloads.wait_for_download(ctx.session, args.timeout_ms)
    folder = ctx.workspace_path(ctx.settings.downloads_dir)
    saved = await downloads.save_download(download, folder, ctx.settings.download_conflict)
    return _finish(ctx, saved, before)
