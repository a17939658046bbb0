"""Digests that hold against whoever holds the bundle (issue 36.1), through the real CLI in real Chromium.

Someone handed a bundle tries what an attacker would: hash guessed passwords and user names the ways an unkeyed
digest would have been made (the text, the sign-in form's body, the input file) and look for them in every file of
the bundle. Nothing may match. Inside the workspace, digests stay comparable (the same value gives the same
digest), and the secret itself gets no digest at all, not even a keyed one.
"""

from __future__ import annotations

import hashlib
import hmac
import stat
from pathlib import Path
from typing import Any

import orjson
import pytest

from browserops.demo_site import DemoSite
from browserops.privacy import digest_key_path, keyed_digest, text_digest, use_workspace, workspace_key
from tests.plan_e2e.helpers import bundle_of, cli_json, events, write_steps

PASSWORD, USER = "demo", "admin"
LOGIN_BODY = f"next=%2Faccount&username={USER}&password={PASSWORD}"


@pytest.fixture
def site(demo_site: DemoSite) -> DemoSite:
    demo_site.reset()
    return demo_site


def _login_steps(workspace: Path) -> Path:
    return write_steps(workspace, "login.yaml", {
        "title": "Log in", "startUrl": "/login?next=/account",
        "steps": [
            {"kind": "fill", "field": "username", "target": {"role": "textbox", "names": ["Username"]},
             "valueRef": {"key": "user"}},
            {"kind": "fill", "field": "password", "target": {"role": "textbox", "names": ["Password"]},
             "valueRef": {"key": "password", "sensitive": True}},
            {"kind": "submit", "target": {"role": "button", "names": ["Log in"]},
             "expect": {"urlContains": "/account"}},
        ],
    })


def _signed_in(site: DemoSite, workspace: Path) -> tuple[Path, Path]:
    """prepare + run --confirm of the sign-in; the bundle and the input file."""
    secrets = workspace / "secrets.yaml"
    secrets.write_text(f"user: {USER}\npassword: {PASSWORD}\n")
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(_login_steps(workspace)), "--input",
                                   str(secrets), "--base-url", site.base_url)
    assert code == 2, (prepared, err)
    code, run, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"],
                              "--input", str(secrets))
    assert code == 0 and run["runStatus"] == "complete", (run, err)
    return bundle_of(workspace, prepared["requestId"]), secrets


def _guesses(text: str) -> set[str]:
    """Every way an unkeyed digest of ``text`` was ever written: hex SHA-256 (bodies, input files) and its first 16
    digits (an event's textDigest was "sha256:" + those)."""
    full = hashlib.sha256(text.encode()).hexdigest()
    return {full, full[:16]}


def _everything(bundle: Path) -> str:
    return "\n".join(p.read_bytes().decode("utf-8", "replace") for p in sorted(bundle.rglob("*")) if p.is_file())


def test_a_guessed_password_matches_no_digest_in_the_bundle(site: DemoSite, workspace: Path) -> None:
    bundle, secrets = _signed_in(site, workspace)
    text = _everything(bundle)
    # Offline guessing with the bundle alone: the password, the user name, the form body the browser posted, the
    # input file that held both.
    for guess in (PASSWORD, USER, LOGIN_BODY, secrets.read_text()):
        for digest in _guesses(guess):
            assert digest not in text, (guess, digest)
    # The secret gets no digest at all, not even under the workspace's key; the sign-in body that carried it
    # neither.
    use_workspace(workspace)
    assert text_digest(PASSWORD) not in text
    assert keyed_digest(LOGIN_BODY.encode()) not in text
    run_events = [e for e in events(workspace, bundle.name) if e.get("phase") == "run"]
    typed = [e["args"]["text"] for e in run_events if e.get("tool") == "browser_overlay_act" and "text" in e["args"]]
    assert typed == [{"textLength": len(USER), "textDigest": text_digest(USER)}, {"sensitive": True}]
    posted = [r for e in run_events for r in e.get("sent", []) if r["method"] == "POST"]
    assert len(posted) == 1 and posted[0]["bodySecret"] is True and "bodyDigest" not in posted[0], posted
    assert posted[0]["bodyBytes"] == len(LOGIN_BODY)


def test_digests_are_keyed_by_a_secret_of_the_workspace_outside_its_bundles(site: DemoSite, workspace: Path,
                                                                            tmp_path: Path) -> None:
    """Runs in one workspace stay comparable; another workspace's digest of the same text differs; the key is a
    file only its owner can read, outside artifacts/, and `config show` says where it is."""
    bundle, _ = _signed_in(site, workspace)
    key_file = digest_key_path(workspace)
    assert key_file.is_file() and stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert (workspace / "artifacts") not in key_file.parents
    plan: dict[str, Any] = orjson.loads((bundle / "plan.json").read_bytes())
    user_step = next(a for a in plan["actions"] if a.get("field") == "username")
    first = user_step["valueRef"]["digest"]
    keyed = hmac.new(workspace_key(workspace), USER.encode(), hashlib.sha256).hexdigest()[:16]
    assert first == "hmac-sha256:" + keyed
    code, shown, _ = cli_json(workspace, "config", "show")
    assert code == 0 and shown["digest_key"] == {"path": str(key_file), "exists": True}
    # The same value prepared again in this workspace: the same digest (comparable).
    again, _ = _signed_in(site, workspace)
    plan_again: dict[str, Any] = orjson.loads((again / "plan.json").read_bytes())
    assert next(a for a in plan_again["actions"] if a.get("field") == "username")["valueRef"]["digest"] == first
    # In another workspace: another key, another digest of the same text.
    other = tmp_path / "other-workspace"
    other.mkdir()
    elsewhere, _ = _signed_in(site, other)
    plan_other: dict[str, Any] = orjson.loads((elsewhere / "plan.json").read_bytes())
    assert next(a for a in plan_other["actions"] if a.get("field") == "username")["valueRef"]["digest"] != first


def test_a_typed_value_in_a_rest_path_is_masked_in_the_ledger(site: DemoSite, workspace: Path) -> None:
    """The page PUTs to /save/api/<what was typed>: the ledger writes the path segment as '…', as it does query
    values, and keeps only a keyed digest of the body."""
    steps = write_steps(workspace, "rest.yaml", {"title": "Save by REST", "startUrl": "/save/rest", "steps": [
        {"kind": "fill", "field": "title", "target": {"role": "textbox", "names": ["Title"]}, "value": "Q4 plan"},
        {"kind": "submit", "target": {"role": "button", "names": ["Save"]}, "expect": {"text": ["Saved"]}},
    ]})
    code, prepared, err = cli_json(workspace, "prepare", "--steps", str(steps), "--base-url", site.base_url)
    assert code == 2, (prepared, err)
    code, run, err = cli_json(workspace, "run", prepared["requestId"], "--confirm", prepared["confirmPhrase"])
    assert code == 0, (run, err)
    sent = [r for e in events(workspace, prepared["requestId"]) for r in e.get("sent", [])]
    assert [(r["method"], r["url"].split("/", 3)[3]) for r in sent] == [("PUT", "save/api/…")], sent
    record = (bundle_of(workspace, prepared["requestId"]) / "events.jsonl").read_text()
    assert "Q4" not in record and "Q4%20plan" not in record
    body = orjson.dumps({"title": "Q4 plan"})
    assert sent[0]["bodyDigest"] == keyed_digest(body) and hashlib.sha256(body).hexdigest() not in record
