"""The chat REPL over :class:`ChatEngine`: reads lines, prints replies, progress and the agent's answers.

Input is read concurrently with a running task, so ``/stop`` (or Ctrl+C) interrupts it between steps.
``/quit`` — or ``/exit`` outside chat mode, or end of input — ends the REPL; a running task is stopped
first. Progress lines come from the session's events, so the REPL shows exactly what the HTTP server shows.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import threading
from collections.abc import Callable
from typing import Protocol, TextIO

from browserops.chat.api import Event, TurnOutcome
from browserops.chat.engine import ChatEngine, Reply
from browserops.cli.speech import Speaker, spoken_text
from browserops.contract import BrowserOpsError

Write = Callable[[str], None]
PROGRESS_TYPES = frozenset({"observation", "tool_call", "tool_result", "error", "manual_stop", "status",
                            "agent_message", "agent_question"})


class LineSource(Protocol):
    async def read(self) -> str | None:
        """The next line, or None at end of input."""
        ...


class StdinLines:
    """Lines from a text stream, read by a daemon thread so a blocked read never keeps the process alive."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream or sys.stdin
        self._queue: asyncio.Queue[str | None] = asyncio.Queue()
        self._thread: threading.Thread | None = None

    def _pump(self, loop: asyncio.AbstractEventLoop) -> None:
        while True:
            try:
                line = self._stream.readline()
            except (OSError, ValueError):
                line = ""
            loop.call_soon_threadsafe(self._queue.put_nowait, line.rstrip("\r\n") if line else None)
            if not line:
                return

    async def read(self) -> str | None:
        if self._thread is None:
            loop = asyncio.get_running_loop()
            self._thread = threading.Thread(target=self._pump, args=(loop,), daemon=True, name="repl-stdin")
            self._thread.start()
        return await self._queue.get()


def format_reply(reply: Reply) -> str:
    if not isinstance(reply, TurnOutcome):
        return reply
    text = reply.message
    if reply.kind == "confirm" and reply.pending is not None:
        return f"Agent: {text}\n  Needs your confirmation: {reply.pending.describe()}\n  Answer /yes or /no."
    if reply.kind == "manual":
        return f"Agent: {text}\n  (Write 'done' when you have finished in the browser.)"
    if reply.kind == "report":
        return f"Agent: {text}\n  (Reply to continue — e.g. 'go on' — or give feedback.)"
    if reply.kind == "stopped":
        return f"Stopped: {text}"
    if reply.kind == "error":
        return f"Error: {text}"
    return f"Agent: {text}"


def format_progress(event: Event) -> str | None:
    """One short progress line for an event (typed text is already masked in events)."""
    d = event.data
    if event.type == "observation":
        items = d.get("items") or []
        return f"  · page: {d.get('title') or d.get('url') or '?'} ({len(items)} numbered items)"
    if event.type == "tool_call":
        args = ", ".join(f"{k}={v}" for k, v in (d.get("args") or {}).items() if not isinstance(v, dict))
        return f"  → step {d.get('step')}: {d.get('tool')}" + (f" {args}" if args else "")
    if event.type == "tool_result":
        return "    ok" if d.get("status") == "ok" else f"    failed [{d.get('code')}]: {d.get('error')}"
    if event.type == "error" and not d.get("fatal"):
        return f"  ! [{d.get('code')}] {d.get('error')}"
    if event.type == "manual_stop":
        return "  ■ stop requested"
    return None


class _Follower:
    """Prints (and speaks) the session's events; lets replies wait until progress has caught up."""

    def __init__(self, engine: ChatEngine, session_id: str, out: Write, speaker: Speaker | None) -> None:
        self.engine = engine
        self.session_id = session_id
        self.out = out
        self.speaker = speaker
        self.seen = engine.bus.last_seq(session_id)
        self._moved = asyncio.Condition()
        self._sub = engine.bus.subscribe(session_id, types=PROGRESS_TYPES)

    async def run(self) -> None:
        async for event in self._sub:
            line = format_progress(event)
            if line:
                self.out(line)
            if self.speaker is not None and (spoken := spoken_text(event)):
                self.speaker.say(spoken)
            async with self._moved:
                self.seen = event.seq
                self._moved.notify_all()

    async def caught_up(self) -> None:
        target = self.engine.bus.last_seq(self.session_id)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(2), self._moved:
                await self._moved.wait_for(lambda: self.seen >= target or self._sub.closed)

    def close(self) -> None:
        self._sub.close()


def banner(engine: ChatEngine, session_id: str) -> str:
    state = engine.session(session_id)
    lines = ["browserops chat — /chat to talk to the agent, /help for commands, /quit to leave."]
    if state.history:
        lines.append(f"Resumed session {session_id!r}: {state.mode} mode, {state.status}.")
        if state.pending_kind == "confirm" and state.pending_action is not None:
            lines.append(f"Waiting for your confirmation: {state.pending_action.describe()} — /yes or /no.")
        elif state.status == "waiting_user" and state.waiting_reason:
            lines.append(f"Waiting for you: {state.waiting_reason}")
    return "\n".join(lines)


async def run_repl(engine: ChatEngine, session_id: str, lines: LineSource, out: Write, *,
                   speaker: Speaker | None = None, prompt: Write | None = None, handle_sigint: bool = False) -> None:
    """Run until /quit or end of input. ``prompt`` (interactive terminals) shows ``cmd>``/``chat>``."""
    out(banner(engine, session_id))
    follower = _Follower(engine, session_id, out, speaker)
    following = asyncio.create_task(follower.run())
    tasks: set[asyncio.Task[None]] = set()
    quit_now = asyncio.Event()

    async def submit(text: str) -> None:
        try:
            replies = await engine.submit(session_id, text)
        except BrowserOpsError as exc:
            out(f"Error [{exc.code.value}]: {exc.message}")
            return
        await follower.caught_up()
        for reply in replies:
            out(format_reply(reply))
        if prompt is not None and any(isinstance(r, TurnOutcome) for r in replies):
            show_prompt()  # the turn ran in the background: offer the prompt again

    def show_prompt() -> None:
        if prompt is not None:
            prompt("chat> " if engine.session(session_id).mode == "chat" else "cmd> ")

    stopping: list[asyncio.Task[list[Reply]]] = []

    def on_sigint() -> None:
        # First Ctrl+C stops the running task (like /stop); a second one, or one while idle, quits.
        if engine.is_running(session_id) and not stopping:
            out("\nStopping after the current step… (Ctrl+C again quits)")
            stopping.append(asyncio.get_running_loop().create_task(engine.submit(session_id, "/stop")))
        else:
            quit_now.set()

    loop = asyncio.get_running_loop()
    if handle_sigint:
        loop.add_signal_handler(signal.SIGINT, on_sigint)
    try:
        while not quit_now.is_set():
            if not engine.is_running(session_id):
                show_prompt()
            reader = asyncio.ensure_future(lines.read())
            stopper = asyncio.ensure_future(quit_now.wait())
            done, _ = await asyncio.wait({reader, stopper}, return_when=asyncio.FIRST_COMPLETED)
            stopper.cancel()
            if reader not in done:
                reader.cancel()
                break
            line = reader.result()
            if line is None:
                break
            text = line.strip()
            if not text:
                continue
            if text.lower() in ("/quit", "/q") or (text.lower() == "/exit"
                                                    and engine.session(session_id).mode != "chat"):
                break
            task = asyncio.create_task(submit(text))
            tasks.add(task)
            task.add_done_callback(tasks.discard)
            stopping.clear()
            # Quick commands answer before the next prompt; a task that started a turn goes on while we read.
            while not engine.is_running(session_id):
                finished, _ = await asyncio.wait({task}, timeout=0.01)
                if finished:
                    break
    finally:
        if handle_sigint:
            loop.remove_signal_handler(signal.SIGINT)
        if engine.is_running(session_id):
            out("Stopping the running task before leaving…")
            await engine.submit(session_id, "/stop")
        if tasks or stopping:
            await asyncio.wait([*tasks, *stopping])
        follower.close()
        await following
        if speaker is not None:
            await speaker.drain()
