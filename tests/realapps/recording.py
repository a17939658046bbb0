"""Recording a corpus task while a scripted person does it, as ``browserops record --cdp-url`` does: the person's
own Chromium runs with a DevTools port on their (signed-in) profile, the person drives it through their own
Playwright connection, and browserops attaches over CDP and only watches (``record_session``, what the ``record``
command runs). The step file it writes is then replayed through prepare -> run --confirm -> evidence verify with the
same profile, and the app's database must show the person's change.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.async_api import Page, async_playwright

from browserops.browser.launch.discovery import find_chromium, launch_args
from browserops.browser.launch.session import BrowserSession, SessionOptions
from browserops.cli.record_cmd import record_session, write_recording
from browserops.config import Settings
from browserops.plan.record.recorder import Recorder, Recording
from browserops.tools.context import ToolContext
from tests.realapps.harness import free_port


async def until(check: Callable[[], bool], what: str, timeout_s: float = 60.0) -> None:
    """Poll an in-process condition (the recorder's progress) until it holds."""
    deadline = time.monotonic() + timeout_s
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.02)


@dataclass
class Watched:
    """What the person can see of the recorder: its progress lines and the recorder itself."""

    lines: list[str] = field(default_factory=list)
    recorders: list[Recorder] = field(default_factory=list)
    job: asyncio.Task[Recording] | None = None  # the recorder's task: its own error ends the person's waiting

    async def _until(self, check: Callable[[], bool], what: str) -> None:
        """:func:`until`, except that a recorder that stopped (its error, or it ended) is said at once: a person
        waiting 60 s for a recorder that died only hides why."""
        job = self.job
        await until(lambda: check() or (job is not None and job.done()), what)
        if not check() and job is not None and job.done():
            job.result()  # the recorder's own error, raised here
            raise AssertionError(f"the recorder ended while waiting for {what}")

    @property
    def recorder(self) -> Recorder:
        return self.recorders[0]

    def said(self, prefix: str, times: int = 1) -> bool:
        return sum(1 for line in self.lines if line.startswith(prefix)) >= times

    async def saw(self, prefix: str, times: int = 1) -> None:
        await self._until(lambda: self.said(prefix, times), f"the recorder to say {prefix!r} {times}x: {self.lines}")

    async def fields(self, count: int) -> None:
        """The person waits until the recorder took in ``count`` changed fields (as a person sees a form react)."""
        await self._until(lambda: len(self.recorder.pending_fields) >= count,
                          f"{count} fields seen: {self.recorder.pending_fields}")


Person = Callable[[Page, Watched], Awaitable[None]]


@contextlib.contextmanager
def devtools_chromium(profile: Path) -> Iterator[str]:
    """The person's Chromium on ``profile`` with a DevTools port; yields its http:// endpoint. Closed gracefully
    afterwards (SIGTERM: Chromium writes its cookies out), so the profile can be used by the replay."""
    profile.mkdir(parents=True, exist_ok=True)
    port = free_port()
    args = [find_chromium().path, "--headless=new", "--no-sandbox", f"--remote-debugging-port={port}",
            "--remote-debugging-address=127.0.0.1", f"--user-data-dir={profile}", *launch_args(), "about:blank"]
    proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    endpoint = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert proc.poll() is None, "Chromium exited before its DevTools port answered"
            try:
                with urllib.request.urlopen(endpoint + "/json/version", timeout=2) as response:
                    if response.status == 200:
                        break
            except (urllib.error.URLError, OSError):
                assert time.monotonic() < deadline, "Chromium's DevTools port did not answer"
                time.sleep(0.1)  # polling a starting browser's port
        yield endpoint
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


@contextlib.asynccontextmanager
async def persons_page(endpoint: str, url: str) -> AsyncIterator[Page]:
    """The person's own connection to their browser, on the tab browserops opened at ``url``."""
    async with async_playwright() as pw:
        browser = await pw.chromium.connect_over_cdp(endpoint)
        try:
            def tab() -> Page | None:
                return next((p for c in browser.contexts for p in c.pages if p.url.startswith(url)), None)

            await until(lambda: tab() is not None, f"a tab at {url}")
            page = tab()
            assert page is not None
            page.set_default_timeout(20_000)
            yield page
        finally:
            with contextlib.suppress(Exception):  # disconnecting leaves the browser running
                await browser.close()


async def record_by_cdp(profile: Path, url: str, person: Person, workspace: Path) -> Recording:
    """``browserops record --cdp-url`` attached to the person's Chromium while ``person`` does the task."""
    with devtools_chromium(profile) as endpoint:
        async with BrowserSession(SessionOptions(mode="cdp", cdp_url=endpoint)) as session:
            ctx = ToolContext(session=session, settings=Settings(), workspace=workspace)
            watched = Watched()
            stop = asyncio.Event()
            job = asyncio.create_task(record_session(session, ctx, url, watched.lines.append, stop,
                                                     watched.recorders))
            watched.job = job
            await until(lambda: watched.said("Recording:") or job.done(), "the recorder")
            if job.done():
                job.result()  # the recorder's own error
            try:
                async with persons_page(endpoint, url) as page:
                    await person(page, watched)
            finally:
                stop.set()
            return await asyncio.wait_for(job, 60)


def write(recording: Recording, folder: Path, name: str, **secrets: str) -> tuple[Path, dict[str, Any]]:
    """The recording written as ``record`` writes it; (step file, the inputs with the secrets filled in)."""
    steps = folder / f"{name}.yaml"
    write_recording(recording, steps, folder / f"{name}.input.yaml")
    return steps, {**recording.inputs, **secrets}
