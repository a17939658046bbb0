"""Downloads in real Chromium: saved in the workspace's downloads folder with path, size and SHA-256."""

from __future__ import annotations

import hashlib
from pathlib import Path

from browserops.config import Settings
from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from tests.tools2.helpers import call, goto, stamp


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _text(path: Path) -> str:
    return path.read_text()


def _size(path: Path) -> int:
    return path.stat().st_size


async def test_click_and_wait_download(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await goto(tool_ctx, demo_site.base_url + "/statements")
    link = await stamp(tool_ctx.session, "a[href='/statements/export.csv?month=2026-01']", "t-csv")
    result = await call(tool_ctx, "browser_click_and_wait_download", id=link)
    assert result["status"] == "ok", result
    data = result["data"]
    path = Path(data["path"])
    assert path == (tool_ctx.workspace / "artifacts" / "downloads" / "statements_2026-01.csv").resolve()
    assert data["relative_path"] == "artifacts/downloads/statements_2026-01.csv"
    assert data["size"] == _size(path) > 0 and data["sha256"] == _sha(path)
    assert "2026-01" in _text(path)
    assert data["renamed"] is False and data["conflict_strategy"] == "rename"
    assert demo_site.state.snapshot()["downloads"][-1] == "statements_2026-01.csv"
    assert not list(path.parent.glob(".browserops-*"))  # no partial files left behind


async def test_hostile_name_and_conflict(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await goto(tool_ctx, demo_site.base_url + "/statements")
    link = await stamp(tool_ctx.session, "a[href='/statements/hostile']", "t-hostile")
    first = await call(tool_ctx, "browser_click_and_wait_download", id=link)
    assert first["status"] == "ok", first
    folder = (tool_ctx.workspace / "artifacts" / "downloads").resolve()
    saved = Path(first["data"]["path"])
    assert saved.parent == folder and ".." not in saved.name and "/" not in first["data"]["name"]
    assert "?" not in saved.name and saved.name.endswith("evil name_.csv")
    assert not (tool_ctx.workspace.parent / "etc").exists()
    # The same name again: kept side by side under a new name (the default strategy).
    second = await call(tool_ctx, "browser_click_and_wait_download", id=link)
    assert second["data"]["renamed"] is True
    assert Path(second["data"]["path"]).name == saved.stem + " (1)" + saved.suffix
    assert second["data"]["sha256"] == first["data"]["sha256"]
    assert sorted(p.name for p in folder.iterdir()) == sorted([saved.name, Path(second["data"]["path"]).name])


async def test_absolute_server_path_lands_in_the_folder(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await goto(tool_ctx, demo_site.base_url + "/statements")
    link = await stamp(tool_ctx.session, "a[href='/statements/hostile?abs=1']", "t-abs")
    result = await call(tool_ctx, "browser_click_and_wait_download", id=link)
    assert result["status"] == "ok"
    assert Path(result["data"]["path"]).parent == (tool_ctx.workspace / "artifacts" / "downloads").resolve()
    assert "/" not in result["data"]["name"] and result["data"]["name"].endswith("x.csv")


async def test_overwrite_strategy_and_custom_folder(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    tool_ctx.settings = Settings(download_conflict="overwrite", downloads_dir="exports")
    await goto(tool_ctx, demo_site.base_url + "/statements")
    link = await stamp(tool_ctx.session, "a[href='/statements/export.csv?month=2026-01']", "t-csv")
    first = await call(tool_ctx, "browser_click_and_wait_download", id=link)
    second = await call(tool_ctx, "browser_click_and_wait_download", id=link)
    assert first["data"]["path"] == second["data"]["path"]
    assert Path(first["data"]["path"]).parent == (tool_ctx.workspace / "exports").resolve()
    assert (first["data"]["overwritten"], second["data"]["overwritten"]) == (False, True)
    assert len(list((tool_ctx.workspace / "exports").iterdir())) == 1


async def test_download_wait_takes_a_download_the_page_started(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await goto(tool_ctx, demo_site.base_url + "/statements")
    # The page starts a download itself (a script-made blob link), without any tool waiting for it.
    await tool_ctx.session.page.locator("#export-script").click()
    result = await call(tool_ctx, "browser_download_wait", timeout_ms=10_000)
    assert result["status"] == "ok", result
    path = Path(result["data"]["path"])
    assert path.name == "statements_script.csv" and _text(path).startswith("month,total")
    assert result["data"]["sha256"] == _sha(path)
    # It was claimed: a second wait finds nothing and says what to check.
    again = await call(tool_ctx, "browser_download_wait", timeout_ms=300)
    assert again["code"] == "BROWSER_DOWNLOAD_FAILED" and "300 ms" in again["error"]


async def test_an_element_that_downloads_nothing(tool_ctx: ToolContext, demo_site: DemoSite) -> None:
    await goto(tool_ctx, demo_site.base_url + "/statements")
    heading = await stamp(tool_ctx.session, "h1", "t-heading")
    result = await call(tool_ctx, "browser_click_and_wait_download", id=heading, timeout_ms=500)
    assert result["code"] == "BROWSER_DOWNLOAD_FAILED" and "No download started after the click" in result["error"]
    assert not (tool_ctx.workspace / "artifacts" / "downloads").exists() or not list(
        (tool_ctx.workspace / "artifacts" / "downloads").iterdir()
    )
