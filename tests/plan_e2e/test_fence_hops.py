"""Every hop under the rules in prepare's fence too (issue 36.2): prepare rehearses clicks on a page of the allowed
site that reach a partner origin only by ways no route sees — a fetch and an image through the site's open redirect,
a form post answered 302, WebSockets opened by dedicated workers (from a blob and from a script), and a beacon as the
page is left — and the partner, a raw TCP listener recording every connection, receives nothing."""

from __future__ import annotations

from pathlib import Path

from browserops.demo_site import DemoSite
from tests.partner import Partner
from tests.plan_e2e.helpers import cli_json, write_steps


def _open(url: str) -> dict[str, object]:
    return {"kind": "navigate", "url": url}


def _act(name: str) -> dict[str, object]:
    return {"kind": "act", "target": {"role": "button", "names": [name]}}


def _chat(name: str) -> dict[str, object]:
    # The worker says how its chat went on the page: the step waits for that, so the next step's navigation cannot
    # end the worker before it tried (under load it had not, and its refusal was missing).
    return {**_act(name), "expect": {"text": ["worker chat refused"]}}


def test_prepares_rehearsal_sends_nothing_to_a_refused_partner(demo_site: DemoSite, workspace: Path,
                                                              partner: Partner) -> None:
    start = f"/origins/hops?partner={partner.url}"
    # A refused request the page may have needed (a worker's chat, the post) leaves the rest of its page unread:
    # each such step gets a page of its own. Leaving a page sends its beacon.
    steps = write_steps(workspace, "hops.yaml", {"title": "Partner hops", "startUrl": start, "steps": [
        _act("Fetch through a redirect"), _act("Show the redirected logo"), _act("Chat from a worker"),
        _open(start), _act("Chat from a worker script"), _open(start), _act("Post and follow"),
        {"kind": "navigate", "url": "/origins"},
    ]})
    code, prepared, err = cli_json(workspace, "--allowed-origins", demo_site.base_url, "prepare", "--steps",
                                   str(steps), "--base-url", demo_site.base_url)
    assert code == 2, (prepared, err)
    assert set(prepared["rehearsed"]) >= {1, 2, 3, 5, 7}, (prepared["rehearsed"], prepared["notRead"])
    assert partner.received == []
    refused = " | ".join(prepared["refused"])
    assert refused.count("WebSocket connection of a worker") == 2, refused
    assert "POST request" in refused and "beacon" in refused, refused


def test_a_workers_websocket_messages_are_in_the_runs_ledger(demo_site: DemoSite, workspace: Path) -> None:
    """A worker's WebSocket to an allowed site connects in a run (its guard lets it), and what it sends is in the
    run's side-effect ledger, once; prepare's fence refused that WebSocket outright (it cannot see its messages)."""
    start = f"/origins/hops?partner={demo_site.base_url}"  # the workers chat with this site itself
    steps = write_steps(workspace, "chat.yaml", {"title": "Worker chat", "startUrl": start, "steps": [
        {**_act("Chat from a worker"), "expect": {"text": ["worker chat open"]}},
    ]})
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", demo_site.base_url)
    assert code == 2, (prepared, err)
    assert any("WebSocket connection of a worker" in r for r in prepared["refused"]), prepared["refused"]
    code, run, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    sent = [r for s in run["steps"] for r in s.get("sent", [])]
    assert [(r["method"], r["url"].rsplit("/", 1)[1], r["kind"]) for r in sent] == [
        ("WS", "blob-worker", "websocket")], sent


def test_a_worker_whose_page_navigates_before_its_guard_is_in_sends_nothing(
        demo_site: DemoSite, workspace: Path, partner: Partner, late_guard: float) -> None:
    """Each worker's guard is late (``late_guard``) and the next step navigates at once: Chromium lets go of a held
    worker whose document is being replaced, so the navigation waits in the tap until the guard is in."""
    start = f"/origins/hops?partner={partner.url}"
    steps = write_steps(workspace, "race.yaml", {"title": "Worker then leave", "startUrl": start, "steps": [
        _act("Chat from a worker"), _open(start), _act("Chat from a worker script"), _open(start),
    ]})
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", demo_site.base_url)
    assert code == 2, (prepared, err)
    assert set(prepared["rehearsed"]) >= {1, 3}, (prepared["rehearsed"], prepared["notRead"])
    assert partner.received == []
