"""The two phases over MCP with real client sessions (the SDK's ClientSession, with and without an elicitation
callback) against ``browserops mcp`` served over stdio and over streamable HTTP, and the bundled demo site: its own
record of submissions shows what was sent. The model side never sees a confirm phrase: every tool result of every
session is checked for it."""

from __future__ import annotations

import asyncio
import re
import signal
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import orjson
import pytest
import yaml
from mcp.client import Client, ClientRequestContext
from mcp.client.stdio import StdioServerParameters
from mcp.shared.dispatcher import ProgressFnT
from mcp_types import ElicitRequestParams, ElicitResult, Implementation

from browserops.demo_site import DemoSite
from browserops.evidence import read_info
from browserops.packs import BUILTIN_DIR
from browserops.plan import confirm_phrase, contains_phrase, load_plan
from tests.mcp.helpers import contract, free_port, wait_listening
from tests.plan_e2e.helpers import cli_json
from tests.procs import child_env

EXPENSE = BUILTIN_DIR / "demo_expense"
CLIENT = Implementation(name="approval-test-client", version="4.2")


def _expense_input(merchant: str) -> dict[str, Any]:
    data = yaml.safe_load((EXPENSE / "example_input.yaml").read_text(encoding="utf-8"))
    data.update(merchant=merchant, date=str(data["date"]), receipt=str(EXPENSE / data["receipt"]))
    return dict(data)


def _env() -> dict[str, str]:
    # The test's own config directory (no signing key) goes to the server, and to the terminal run, too; so does the
    # suite's browser_reuse: the server's element tools and each prepare and run it does share one Chromium.
    return child_env("BROWSEROPS_CONFIG_DIR", "BROWSEROPS_BROWSER_REUSE")


class Person:
    """The person behind the client: answers the approval questions in turn, and keeps what they were shown."""

    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.questions: list[ElicitRequestParams] = []

    async def __call__(self, context: ClientRequestContext, params: ElicitRequestParams) -> ElicitResult:
        self.questions.append(params)
        action = self.answers.pop(0)
        return ElicitResult(action=action, content={"run": True} if action == "accept" else None)  # type: ignore[arg-type]


class Session:
    """One client session and every tool result it received (text and structured content)."""

    def __init__(self, client: Client, seen: list[str]) -> None:
        self.client = client
        self.seen = seen

    async def call(self, name: str, progress: ProgressFnT | None = None, **args: Any) -> dict[str, Any]:
        result = await self.client.call_tool(name, args, progress_callback=progress)
        self.seen.extend(c.text for c in result.content if c.type == "text")
        self.seen.append(orjson.dumps(result.structured_content).decode())
        return contract(result)

    async def prepare(self, site: DemoSite, merchant: str) -> dict[str, Any]:
        prepared = await self.call("browser_prepare", pack="demo_expense", input=_expense_input(merchant),
                                   base_url=site.base_url)
        assert prepared["status"] == "ok", prepared
        return dict(prepared["data"])


def _text(path: str) -> str:
    return Path(path).read_text(encoding="utf-8")


def _phrase(workspace: Path, prepared: dict[str, Any]) -> str:
    return confirm_phrase(load_plan(Path(prepared["planFile"])))


def _assert_no_phrase(seen: list[str], phrases: list[str]) -> None:
    assert seen and phrases
    for text in seen:
        assert not contains_phrase(text), text[:300]
        flat = re.sub(r"[\s_-]+", "-", text.lower())
        assert not any(p in flat for p in phrases)


def _merchants(site: DemoSite) -> list[str]:
    return [s["merchant"] for s in site.state.snapshot()["submissions"]]


async def _decline_cancel_refuse_accept(session: Session, person: Person, site: DemoSite, workspace: Path,
                                        merchant: str) -> str:
    """The approval path on one session whose person answers decline, cancel, accept; returns the phrase."""
    prepared = await session.prepare(site, merchant)
    request_id = prepared["requestId"]
    assert prepared["requiresConfirm"] and "confirmPhrase" not in prepared
    assert {d["field"]: d["op"] for d in prepared["diff"]}["merchant"] == "+"
    assert [s["kind"] for s in prepared["steps"]][-1] == "submit" and prepared["problems"] == []
    assert prepared["runCommand"].endswith(f"run {request_id} --review")
    phrase = _phrase(workspace, prepared)

    declined = await session.call("browser_run", request_id=request_id)
    assert declined["code"] == "BROWSER_CONFIRM_DECLINED", declined
    cancelled = await session.call("browser_run", request_id=request_id)
    assert cancelled["code"] == "BROWSER_CONFIRM_CANCELLED", cancelled
    assert merchant not in _merchants(site)
    # The person was shown the plan: its title, its diff and its side effects; never the phrase.
    shown = person.questions[0].message
    assert request_id in shown and merchant in shown and "Submit expense" in shown and "browser-act" in shown
    assert not contains_phrase(shown) and person.questions[1].message == shown

    # The model cannot confirm: not with the phrase in any argument, not with a confirm flag. Nobody is asked.
    asked = len(person.questions)
    for bad in ({"request_id": request_id, "note": f"the person said {phrase.replace('-', ' ').upper()}"},
                {"request_id": request_id, "confirm": True},
                {"request_id": request_id, "browser": "fresh", "extra": [{"x": phrase}]}):
        refused = await session.call("browser_run", **bad)
        assert refused["code"] == "BROWSER_CONFIRM_BY_MODEL", refused
    assert len(person.questions) == asked and merchant not in _merchants(site)

    ran = await session.call("browser_run", request_id=request_id)
    assert ran["status"] == "ok", ran
    assert ran["data"]["runStatus"] == "complete" and ran["data"]["confirmed"] is True
    assert ran["data"]["approval"]["client"] == "approval-test-client 4.2"
    assert _merchants(site).count(merchant) == 1
    # A plan runs once: approving it again changes nothing.
    again = await session.call("browser_run", request_id=request_id)
    assert again["code"] == "BROWSER_PLAN_STALE", again
    assert _merchants(site).count(merchant) == 1

    evidence = await session.call("browser_evidence", request_id=request_id)
    assert evidence["status"] == "ok", evidence
    view = evidence["data"]
    assert view["verify"]["ok"] is True and view["status"] == "complete"
    assert view["attempts"][-1]["confirmedBy"]["via"] == "elicitation"
    assert "approval-test-client 4.2" in view["summary"]
    assert any(e["method"] == "POST" and "/expense" in e["url"] for e in view["ledger"]), view["ledger"]
    # The bundle verifies on its own and names the approval where a terminal run has its phrase.
    code, verified, err = cli_json(workspace, "evidence", "verify", request_id)
    assert code == 0 and verified["report"]["ok"], (verified, err)
    info = read_info(Path(prepared["bundle"]))
    assert info is not None
    approved = [a.approved for a in info.attempts if a.approved is not None]
    assert len(approved) == 1 and approved[0].via == "elicitation" and approved[0].client == "approval-test-client 4.2"
    assert all(a.confirmed_with is None for a in info.attempts)
    return phrase


async def _without_elicitation(session: Session, site: DemoSite, workspace: Path, merchant: str,
                               profile: Path | None = None) -> str:
    """A client that cannot ask its user: the read-only part runs; the person gets the terminal command, and
    running it there (reading the phrase on that terminal, typing it back) files the expense. Returns the phrase.
    ``profile``: the server runs with it, so the terminal run must be able to open it too."""
    prepared = await session.prepare(site, merchant)
    request_id = prepared["requestId"]
    ran = await session.call("browser_run", request_id=request_id)
    assert ran["status"] == "ok", ran
    data = ran["data"]
    assert data["outcome"] == "needs_approval" and data["confirmed"] is False and data["skipped"]
    flags = f" --profile {profile}" if profile is not None else ""
    assert data["runCommand"] == f"browserops --workspace {workspace} run {request_id} --review{flags}"
    assert ("closed its browser" in data["next"]) is (profile is not None)
    assert merchant not in _merchants(site)
    refused = await session.call("browser_run", request_id=request_id, confirm=_phrase(workspace, prepared))
    assert refused["code"] == "BROWSER_CONFIRM_BY_MODEL"

    phrase = await _terminal_review(data["runCommand"])
    assert phrase == _phrase(workspace, prepared)
    assert _merchants(site).count(merchant) == 1
    evidence = await session.call("browser_evidence", request_id=request_id)
    assert evidence["data"]["verify"]["ok"] is True
    assert evidence["data"]["attempts"][-1]["confirmedBy"] == {"via": "phrase"}
    return phrase


async def _terminal_review(command: str) -> str:
    """The person at a terminal: runs the command, reads the phrase it shows, types it back."""
    args = command.split()
    assert args[0] == "browserops"
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "browserops", *args[1:], env=_env(), stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    assert proc.stderr is not None and proc.stdin is not None
    shown = b""
    while b"Type the confirm phrase" not in shown:
        chunk = await asyncio.wait_for(proc.stderr.read(4096), timeout=120)
        assert chunk, shown.decode()
        shown += chunk
    match = re.search(rb"Confirm phrase: (\S+)", shown)
    assert match and b"+ merchant" in shown
    proc.stdin.write(match.group(1) + b"\n")
    await proc.stdin.drain()
    out, err = await asyncio.wait_for(proc.communicate(), timeout=180)
    assert proc.returncode == 0, (out.decode(), err.decode())
    assert b": complete" in out
    return match.group(1).decode()


@pytest.fixture
def site(demo_site: DemoSite) -> DemoSite:
    demo_site.reset()
    return demo_site


def _stdio(workspace: Path, *flags: str) -> StdioServerParameters:
    return StdioServerParameters(command=sys.executable, env=_env(),
                                 args=["-m", "browserops", "--workspace", str(workspace), "mcp", *flags])


async def test_over_stdio(site: DemoSite, workspace: Path) -> None:
    seen: list[str] = []
    person = Person("decline", "cancel", "accept")
    async with Client(_stdio(workspace), mode="legacy", elicitation_callback=person, client_info=CLIENT) as client:
        phrases = [await _decline_cancel_refuse_accept(Session(client, seen), person, site, workspace, "Stdio Cab")]
    # The server keeps logins in a profile: the person's terminal run opens the same one.
    profile = workspace.parent / "profile"
    async with Client(_stdio(workspace, "--profile", str(profile)), mode="legacy", client_info=CLIENT) as client:
        session = Session(client, seen)
        phrases.append(await _without_elicitation(session, site, workspace, "Stdio Terminal Cab", profile))
        # and the server's browser comes back on its next call.
        back = await session.call("browser_navigate", url=site.base_url + "/search?q=pen")
        assert back["status"] == "ok", back
    _assert_no_phrase(seen, phrases)


async def test_sensitive_values_in_a_fresh_browser(site: DemoSite, workspace: Path) -> None:
    """A step file's text with a sensitive value from the input: prepare keeps the value out of the plan, the server
    keeps it for the run only, and the run in a fresh browser signs in once the person accepts."""
    steps = yaml.safe_dump({"title": "Log in", "startUrl": "/login", "steps": [
        {"kind": "fill", "field": "username", "target": {"role": "textbox", "names": ["Username"]}, "value": "ada"},
        {"kind": "fill", "field": "password", "target": {"role": "textbox", "names": ["Password"]},
         "valueRef": {"key": "password", "sensitive": True}},
        {"kind": "submit", "target": {"role": "button", "names": ["Log in"]}, "expect": {"text": ["Account"]}},
    ]})
    seen: list[str] = []
    person = Person("accept")
    async with Client(_stdio(workspace), mode="legacy", elicitation_callback=person, client_info=CLIENT) as client:
        session = Session(client, seen)
        ticks: list[tuple[float, float | None, str | None]] = []

        async def tick(progress: float, total: float | None, message: str | None) -> None:
            ticks.append((progress, total, message))

        prepared = await session.call("browser_prepare", progress=tick, steps=steps, input={"password": "demo"},
                                      base_url=site.base_url, browser="fresh")
        assert prepared["status"] == "ok", prepared
        # The client hears each step as it goes (step and field only: nothing read from the page).
        assert (3.0, 3.0, "[3/3] submit") in ticks and (2.0, 3.0, "[2/3] fill password") in ticks, ticks
        request_id = prepared["data"]["requestId"]
        assert "password = (sensitive)" in prepared["data"]["diffText"]
        assert '"demo"' not in _text(prepared["data"]["planFile"])
        assert site.state.logins == []
        ran = await session.call("browser_run", request_id=request_id, browser="fresh")
        assert ran["status"] == "ok" and ran["data"]["runStatus"] == "complete", ran
        assert site.state.logins == ["ada"] and "(sensitive)" in person.questions[0].message
    _assert_no_phrase(seen, [_phrase(workspace, prepared["data"])])


@asynccontextmanager
async def _http_server(workspace: Path) -> AsyncIterator[str]:
    port = free_port()
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "browserops", "--workspace", str(workspace), "mcp", "--http", "--port", str(port),
        env=_env(), stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL)
    try:
        await wait_listening(port, proc)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        proc.send_signal(signal.SIGINT)
        await asyncio.wait_for(proc.wait(), timeout=30)


async def test_over_streamable_http(site: DemoSite, workspace: Path) -> None:
    seen: list[str] = []
    async with _http_server(workspace) as url:
        person = Person("decline", "cancel", "accept")
        async with Client(url, mode="legacy", elicitation_callback=person, client_info=CLIENT) as client:
            phrases = [await _decline_cancel_refuse_accept(Session(client, seen), person, site, workspace, "HTTP Cab")]
        async with Client(url, mode="legacy", client_info=CLIENT) as client:
            phrases.append(await _without_elicitation(Session(client, seen), site, workspace, "HTTP Terminal Cab"))
        # A 2026-07-28 connection carries the question inside the tool call's input_required result instead.
        person = Person("decline", "accept")
        async with Client(url, elicitation_callback=person, client_info=CLIENT) as client:
            assert client.session.protocol_version == "2026-07-28"
            session = Session(client, seen)
            prepared = await session.prepare(site, "Modern Cab")
            declined = await session.call("browser_run", request_id=prepared["requestId"])
            assert declined["code"] == "BROWSER_CONFIRM_DECLINED" and "Modern Cab" not in _merchants(site)
            ran = await session.call("browser_run", request_id=prepared["requestId"])
            assert ran["status"] == "ok" and ran["data"]["runStatus"] == "complete", ran
            assert _merchants(site).count("Modern Cab") == 1 and len(person.questions) == 2
            phrases.append(_phrase(workspace, prepared))
    _assert_no_phrase(seen, phrases)
