"""``browserops agent`` on a real pseudo-terminal: the y/N confirmation of a destructive action (yes runs it once,
the default no refuses it) and a question answered at the prompt."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browserops.agent.model_api import ModelTurn, tool_turn
from browserops.agent.scripted import ModelRequest
from browserops.demo_site import DemoSite
from tests.agent.fake_messages_server import FakeMessagesServer
from tests.agent_loop.helpers import act, last_result_text, wire_responder
from tests.chat.test_repl import _read_until

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def fake() -> Iterator[FakeMessagesServer]:
    with FakeMessagesServer() as server:
        yield server


def run_on_tty(workspace: Path, fake: FakeMessagesServer, url: str, goal: str,
               dialogue: list[tuple[bytes, bytes]]) -> tuple[int, str]:
    """Start the agent on a pty; for each (prompt, answer) wait for the prompt and type the answer."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("BROWSEROPS_", "ANTHROPIC_"))}
    env.update(ANTHROPIC_BASE_URL=fake.base_url, COLUMNS="200")
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "browserops", "--workspace", str(workspace), "agent", goal,
                             "--url", url], stdin=slave, stdout=slave, stderr=slave, cwd=ROOT, env=env,
                            start_new_session=True)
    os.close(slave)
    out = bytearray()
    try:
        for prompt, answer in dialogue:
            _read_until(master, prompt, out, timeout=60)
            os.write(master, answer)
        code = proc.wait(timeout=60)
        _read_until(master, b"Evidence:", out, timeout=5)
        return code, out.decode(errors="replace")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)


def after(check: str, then: Any) -> Any:
    def respond(request: ModelRequest) -> ModelTurn:
        assert check in last_result_text(request), last_result_text(request)
        return then if isinstance(then, ModelTurn) else then(request)
    return respond


def test_yes_on_the_terminal_runs_the_destructive_step_once(
    workspace: Path, fake: FakeMessagesServer, demo_site: DemoSite
) -> None:
    demo_site.reset()
    fake.responder = wire_responder([act("button", "Pay now", progress="Paying."),
                                     tool_turn("assistant_done", {"reason": "The page says Payment sent."})])
    code, out = run_on_tty(workspace, fake, demo_site.base_url + "/injection", "pay the invoice",
                           [(b"Do it? [y/N]", b"y\n")])
    assert code == 0, out
    assert 'Confirm: browser_overlay_act click on button "Pay now"' in out and "Done: The page says" in out
    assert len(demo_site.state.payments) == 1


def test_the_default_no_refuses_and_a_question_is_answered_at_the_prompt(
    workspace: Path, fake: FakeMessagesServer, demo_site: DemoSite
) -> None:
    demo_site.reset()
    fake.responder = wire_responder([
        act("button", "Pay now", progress="Paying."),
        after("declined", tool_turn("assistant_ask", {"question": "What should I do instead?"})),
        after('"user_answer": "nothing"', tool_turn("assistant_done", {"reason": "Office tips: nothing was paid."})),
    ])
    code, out = run_on_tty(workspace, fake, demo_site.base_url + "/injection", "pay the invoice",
                           [(b"Do it? [y/N]", b"\n"), (b"Your answer", b"nothing\n")])
    assert code == 0, out
    assert "Question: What should I do instead?" in out
    assert demo_site.state.payments == []
