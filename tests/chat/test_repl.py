"""The REPL: in-process over the engine with the scripted-plan Brain, and as a real process on a
pseudo-terminal (prompts, Ctrl+C). Plus --speak with the real espeak-ng, and the server's clean shutdown."""

from __future__ import annotations

import asyncio
import os
import pty
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from browserops.chat.engine import ChatEngine
from browserops.cli import cli
from browserops.cli.chat_runtime import chat_runtime
from browserops.cli.context import CliState
from browserops.cli.options import BrowserMode
from browserops.cli.repl import run_repl
from browserops.cli.speech import MISSING_MESSAGE, Speaker
from browserops.config import Settings
from browserops.demo_site import DemoSite
from browserops.tools.context import ToolContext
from browserops.tools.runner import ToolRunner
from tests.chat.scripted_brain import ScriptedPlanBrain, demo_plans

ROOT = Path(__file__).resolve().parents[2]
SID = "default"


class Lines:
    """A LineSource the test feeds."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()

    async def read(self) -> str | None:
        return await self.queue.get()

    def send(self, line: str | None) -> None:
        self.queue.put_nowait(line)


class Screen:
    """Collects the REPL's output; lets the test wait for a text."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._changed = asyncio.Event()

    def write(self, text: str) -> None:
        self.lines.extend(text.splitlines() or [""])
        self._changed.set()

    @property
    def text(self) -> str:
        return "\n".join(self.lines)

    async def wait_for(self, needle: str, *, count: int = 1) -> None:
        async with asyncio.timeout(30):
            while self.text.count(needle) < count:
                self._changed.clear()
                await self._changed.wait()


@pytest.fixture
async def repl(engine: ChatEngine) -> AsyncIterator[tuple[Lines, Screen, asyncio.Task[None]]]:
    lines, screen = Lines(), Screen()
    task = asyncio.create_task(run_repl(engine, SID, lines, screen.write))
    yield lines, screen, task
    if not task.done():
        lines.send(None)
        await asyncio.wait_for(task, 30)


async def test_repl_modes_report_continue_confirm_and_exit(
    repl: tuple[Lines, Screen, asyncio.Task[None]], engine: ChatEngine, demo_site: DemoSite
) -> None:
    lines, screen, task = repl
    await screen.wait_for("/help for commands")
    lines.send("hello there")
    await screen.wait_for("You are in command mode")
    lines.send("/chat")
    await screen.wait_for("Chat mode:")
    lines.send("do the twelve steps")
    await screen.wait_for("Reply to continue")
    assert "→ step 10: browser_navigate" in screen.text and "→ step 11" not in screen.text
    # Progress lines were printed before the report.
    assert screen.text.index("→ step 10") < screen.text.index("Agent: Report")
    lines.send("go on")
    await screen.wait_for("All twelve searches done")
    lines.send("confirm the search")
    await screen.wait_for("Answer /yes or /no")
    lines.send("/status")
    await screen.wait_for("waiting for /yes or /no: browser_navigate")
    lines.send("/yes")
    await screen.wait_for("Searched after your confirmation")
    assert demo_site.state.searches.count("confirmed-once") == 1
    lines.send("/exit")
    await screen.wait_for("Left chat mode")
    lines.send("/exit")  # outside chat mode /exit ends the REPL
    await asyncio.wait_for(task, 10)
    assert engine.session(SID).mode == "cmd"


async def test_repl_stop_and_end_of_input_while_running(
    repl: tuple[Lines, Screen, asyncio.Task[None]], engine: ChatEngine
) -> None:
    lines, screen, task = repl
    lines.send("/chat")
    lines.send("open the slow pages")
    await screen.wait_for("→ step 1:")
    lines.send("/stop")
    await screen.wait_for("Stopped:")
    assert "■ stop requested" in screen.text and "Stopping after the current step" in screen.text
    lines.send("slow again")
    await screen.wait_for("→ step 1:", count=2)
    lines.send(None)  # end of input while a task runs: it is stopped, then the REPL ends
    await asyncio.wait_for(task, 30)
    assert "Stopping the running task before leaving" in screen.text
    state = engine.session(SID)
    assert state.status == "idle" and state.last_outcome == "stopped"
    assert [e.data["during"] for e in engine.bus.recent(SID) if e.type == "manual_stop"] == ["running", "running"]


async def test_repl_speaks_progress_but_never_typed_text(engine: ChatEngine, tmp_path: Path) -> None:
    spoken = tmp_path / "spoken.txt"
    # A real subprocess in espeak-ng's place that records what it is given on stdin.
    speaker = Speaker([shutil.which("tee") or "tee", "-a", str(spoken)])
    lines, screen = Lines(), Screen()
    task = asyncio.create_task(run_repl(engine, SID, lines, screen.write, speaker=speaker))
    lines.send("/chat")
    lines.send("search for chat-demo xyzzy-secret-words")
    await screen.wait_for("Agent: Searched")
    lines.send(None)
    await asyncio.wait_for(task, 30)
    await speaker.close()
    said = spoken.read_text()
    assert "Working." in said and "Step 1." in said and "Searched the catalogue" in said
    assert "xyzzy" not in said


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng not installed (scripts/setup.sh installs it)")
async def test_real_espeak_ng_speaks_to_a_wav_file(tmp_path: Path) -> None:
    wav = tmp_path / "out.wav"
    speaker = Speaker.find(extra_args=["-w", str(wav)])
    assert speaker is not None
    speaker.say("Working. Step 1.")
    await asyncio.wait_for(speaker.drain(), 30)
    await speaker.close()
    data = wav.read_bytes()
    assert data[:4] == b"RIFF" and data[8:12] == b"WAVE" and len(data) > 10_000


def test_speak_without_espeak_says_so_clearly(workspace: Path) -> None:
    result = CliRunner().invoke(cli, ["--workspace", str(workspace), "chat", "--speak"],
                                env={"PATH": str(workspace), "ANTHROPIC_API_KEY": "", "ANTHROPIC_AUTH_TOKEN": ""})
    assert MISSING_MESSAGE in result.output
    assert Speaker.find(which=lambda _: None) is None


def test_chat_and_serve_need_a_model_and_fail_before_starting_a_browser(workspace: Path) -> None:
    runner = CliRunner()
    env = {"ANTHROPIC_API_KEY": "", "ANTHROPIC_AUTH_TOKEN": ""}
    for args in (["chat"], ["serve", "--port", "0"], ["--json", "serve"]):
        started = time.monotonic()
        result = runner.invoke(cli, ["--workspace", str(workspace), *args], env=env)
        assert result.exit_code == 1, args
        assert "BROWSER_LLM_UNAVAILABLE" in result.output and "ANTHROPIC_API_KEY" in result.output
        assert time.monotonic() - started < 3  # no Chromium was launched
    bad = runner.invoke(cli, ["--workspace", str(workspace), "chat", "--session", "../etc"], env=env)
    assert bad.exit_code == 1 and "BROWSER_INVALID_ARGS" in bad.output
    both = runner.invoke(cli, ["--workspace", str(workspace), "serve", "--profile", str(workspace / "p"),
                               "--cdp-url", "http://127.0.0.1:9"], env=env)
    assert both.exit_code == 1 and "Choose one browser mode" in both.output
    for command in ("chat", "serve"):
        assert "Examples:" in runner.invoke(cli, [command, "--help"]).output


async def test_chat_runtime_opens_the_url_and_uses_the_settings(workspace: Path, demo_site: DemoSite) -> None:
    demo_site.reset()
    made: list[ToolContext] = []

    def factory(settings: Settings, tools: ToolRunner) -> ScriptedPlanBrain:
        made.append(tools.ctx)
        return ScriptedPlanBrain(tools.ctx, demo_plans(demo_site.base_url),
                                 steps_per_message=settings.chat_steps_per_message)

    state = CliState(workspace=workspace, overrides={"chat_steps_per_message": 3})
    async with chat_runtime(state, url=demo_site.base_url + "/search?q=runtime", browser=BrowserMode(),
                            brain_factory=factory) as engine:
        assert engine.steps_per_message == 3
        assert demo_site.state.searches == ["runtime"]
        assert made[0].session.page.url.endswith("/search?q=runtime")
        await engine.submit(SID, "/chat")
        outcome = (await engine.submit(SID, "do the twelve steps"))[-1]
        assert getattr(outcome, "kind", None) == "report"
    assert not made[0].session.alive


def _read_until(fd: int, needle: bytes, buffer: bytearray, timeout: float = 40) -> None:
    deadline = time.monotonic() + timeout
    while needle not in buffer:
        left = deadline - time.monotonic()
        if left <= 0:
            raise AssertionError(f"{needle!r} not seen; output so far:\n{buffer.decode(errors='replace')}")
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            try:
                buffer.extend(os.read(fd, 65536))
            except OSError:
                break


def test_repl_on_a_pseudo_terminal_with_ctrl_c(tmp_path: Path) -> None:
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "tests.chat.frontdoor_main", "repl", str(tmp_path)],
                            stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, start_new_session=True)
    os.close(slave)
    out = bytearray()
    try:
        _read_until(master, b"cmd> ", out)
        os.write(master, b"/chat\n")
        _read_until(master, b"chat> ", out)
        os.write(master, b"open the slow pages\n")
        _read_until(master, "→ step 1:".encode(), out)
        proc.send_signal(signal.SIGINT)  # Ctrl+C while running: stop between steps, stay in the REPL
        _read_until(master, b"Stopped:", out)
        assert b"Stopping after the current step" in out
        os.write(master, b"/status\n")
        _read_until(master, b"chat mode, idle", out)
        proc.send_signal(signal.SIGINT)  # Ctrl+C while idle: quit
        _read_until(master, b"BYE", out)
        assert proc.wait(timeout=30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


async def test_serve_process_shuts_down_cleanly_on_ctrl_c_with_open_streams(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "tests.chat.frontdoor_main", "serve", str(tmp_path),
        stdout=asyncio.subprocess.PIPE, cwd=ROOT)
    assert proc.stdout is not None
    try:
        async with asyncio.timeout(40):
            line = (await proc.stdout.readline()).decode()
        _, url, _, token = line.split()
        async with httpx.AsyncClient(base_url=url, trust_env=False, timeout=20) as client, \
                client.stream("GET", f"/events?token={token}") as stream:
            assert stream.status_code == 200
            proc.send_signal(signal.SIGINT)
            async with asyncio.timeout(20):
                async for _ in stream.aiter_lines():
                    pass  # ends when the server closes the stream
        async with asyncio.timeout(30):
            rest = (await proc.stdout.read()).decode()
            assert await proc.wait() == 0
        assert "BYE" in rest
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
