"""Uploads in real Chromium: visible input, hidden input, file chooser; only the named files; clear errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from browserops.browser.launch.session import BrowserSession
from browserops.config import Settings
from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from tests.tools2.helpers import call, goto, stamp


@pytest.fixture
def files(workspace: Path) -> dict[str, Path]:
    out = {"receipt": workspace / "receipt.txt", "photo": workspace / "docs" / "photo.png"}
    out["receipt"].write_text("receipt 42.00\n")
    out["photo"].parent.mkdir()
    out["photo"].write_bytes(b"\x89PNG fake image")
    return out


async def _file_count(session: BrowserSession, css: str) -> int:
    return int(await session.page.locator(css).evaluate("(el) => el.files.length"))


async def _submit(session: BrowserSession) -> None:
    async with session.page.expect_navigation():
        await session.page.locator("#upload-form button[type=submit]").click()


async def test_visible_file_input(tool_ctx: ToolContext, demo_site: DemoSite, files: dict[str, Path]) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/upload")
    field = await stamp(session, "#document", "t-doc")
    result = await call(tool_ctx, "browser_upload", id=field, files=["receipt.txt"])  # relative: from the workspace
    assert result["status"] == "ok", result
    assert result["data"]["via"] == "file input" and result["data"]["input_file_count"] == 1
    assert result["data"]["attached"] == [{"name": "receipt.txt", "size": files["receipt"].stat().st_size}]
    await _submit(session)
    uploads = demo_site.state.snapshot()["uploads"]
    assert [(u["field"], u["name"], u["size"]) for u in uploads] == [("document", "receipt.txt", 14)]


async def test_button_that_opens_a_file_chooser(tool_ctx: ToolContext, demo_site: DemoSite,
                                                files: dict[str, Path]) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/upload")
    button = await stamp(session, "#choose-file", "t-choose")
    result = await call(tool_ctx, "browser_upload", id=button, files=[str(files["photo"])])
    assert result["status"] == "ok", result
    assert result["data"]["via"] == "file chooser"
    assert await session.page.locator("#chosen-file").text_content() == "Selected: photo.png"
    await _submit(session)
    uploads = demo_site.state.snapshot()["uploads"]
    assert [(u["field"], u["name"]) for u in uploads] == [("attachment", "photo.png")]


async def test_hidden_file_input(tool_ctx: ToolContext, demo_site: DemoSite, files: dict[str, Path]) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/upload")
    hidden = await stamp(session, "#hidden-file", "t-hidden")
    assert not await session.page.locator("#hidden-file").is_visible()
    result = await call(tool_ctx, "browser_upload", id=hidden, files=["docs/photo.png"])
    assert result["status"] == "ok", result
    assert result["data"]["via"] == "file input" and await _file_count(session, "#hidden-file") == 1


async def test_missing_file_attaches_nothing(tool_ctx: ToolContext, demo_site: DemoSite,
                                            files: dict[str, Path]) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/upload")
    field = await stamp(session, "#document", "t-doc")
    result = await call(tool_ctx, "browser_upload", id=field, files=["receipt.txt", "no-such-file.pdf"])
    assert result["code"] == "BROWSER_FILE_NOT_FOUND"
    assert "no-such-file.pdf" in result["error"] and "Nothing was attached" in result["error"]
    assert result["data"]["missing"] == ["no-such-file.pdf"]
    assert await _file_count(session, "#document") == 0


async def test_bad_file_lists(tool_ctx: ToolContext, demo_site: DemoSite, files: dict[str, Path]) -> None:
    session = tool_ctx.session
    await goto(tool_ctx, demo_site.base_url + "/upload")
    field = await stamp(session, "#document", "t-doc")
    folder = await call(tool_ctx, "browser_upload", id=field, files=["docs"])
    assert folder["code"] == "BROWSER_INVALID_ARGS" and "folder" in folder["error"]
    empty = await call(tool_ctx, "browser_upload", id=field, files=[])
    assert empty["code"] == "BROWSER_INVALID_ARGS" and "files" in empty["error"]
    glob = await call(tool_ctx, "browser_upload", id=field, files=["*.txt"])
    assert glob["code"] == "BROWSER_FILE_NOT_FOUND"  # patterns are not expanded: only named files
    two = await call(tool_ctx, "browser_upload", id=field, files=["receipt.txt", "docs/photo.png"])
    assert two["code"] == "BROWSER_UPLOAD_FAILED" and "one file" in two["error"]
    assert await _file_count(session, "#document") == 0


async def test_element_that_opens_no_chooser(tool_ctx: ToolContext, demo_site: DemoSite,
                                            files: dict[str, Path]) -> None:
    await goto(tool_ctx, demo_site.base_url + "/upload")
    heading = await stamp(tool_ctx.session, "h1", "t-heading")
    # Only the upload gets the short time: it is what must give up on a chooser that never opens (the
    # navigation before it, under a loaded CI, may take longer than 1 s).
    tool_ctx.settings = Settings(tool_timeout_ms=1000)
    result = await call(tool_ctx, "browser_upload", id=heading, files=["receipt.txt"])
    assert result["code"] == "BROWSER_UPLOAD_FAILED" and "file chooser" in result["error"]
