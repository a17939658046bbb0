"""Issue 22 item 5 on real runs: an agent run's bundle (in process, and through MCP ``browser_task``) is signed
and carries an in-toto attestation that an independent DSSE check accepts; with the signature stripped and the
manifest recomputed, ``evidence verify`` refuses it on this machine (it has a key) unless ``--allow-unsigned``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import load_pem_public_key
from mcp.client import Client

from browserops.agent.model_api import tool_turn
from browserops.cli import cli
from browserops.demo_site import DemoSite
from browserops.evidence import verify_bundle
from browserops.evidence.layout import ATTESTATION_FILE, SIGNATURE_FILE
from browserops.evidence.manifest import write_manifest
from browserops.evidence.signing import KEYS_DIR, PUBLIC_FILE, generate
from browserops.tools.context import ToolContext
from tests.agent.fake_messages_server import FakeMessagesServer
from tests.agent_loop.conftest import RunFactory, open_page
from tests.agent_loop.helpers import wire_responder
from tests.agent_loop.test_origins_agent import params
from tests.mcp.helpers import call
from tests.test_evidence_attestation import own_check

DONE = tool_turn("assistant_done", {"reason": "Results for stapler are listed: Red stapler, Mini stapler."})


def strip_signature(bundle: Path) -> None:
    """What a forger who cannot sign does: drop the seals, un-name the key, recompute the manifest."""
    for name in (SIGNATURE_FILE, ATTESTATION_FILE):
        (bundle / name).unlink()
    info = orjson.loads((bundle / "bundle.json").read_bytes())
    del info["signedBy"], info["attestation"]
    (bundle / "bundle.json").write_bytes(orjson.dumps(info))
    write_manifest(bundle)


def verify_cli(workspace: Path, request_id: str, *flags: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["--workspace", str(workspace), "evidence", "verify", request_id, *flags],
                                catch_exceptions=False)
    return result.exit_code, result.stdout + result.stderr


def public_key(config: Path) -> Ed25519PublicKey:
    key = load_pem_public_key((config / KEYS_DIR / PUBLIC_FILE).read_bytes())
    assert isinstance(key, Ed25519PublicKey)
    return key


def check_then_strip(workspace: Path, config: Path, bundle: Path, request_id: str) -> None:
    statement = own_check(bundle, public_key(config))
    assert {s["name"] for s in statement["subject"]} >= {"events.jsonl", "bundle.json"}  # type: ignore[attr-defined]
    assert verify_bundle(bundle).ok
    strip_signature(bundle)
    code, said = verify_cli(workspace, request_id)
    assert code == 1 and "unsigned where a signature is required" in said, said
    code, said = verify_cli(workspace, request_id, "--allow-unsigned")
    assert code == 0 and "unsigned" in said, said


async def test_an_agent_runs_bundle_is_sealed_and_a_stripped_one_refused(
    make_run: RunFactory, tool_ctx: ToolContext, demo_site: DemoSite, workspace: Path, user_config_dir: Path
) -> None:
    generate()
    await open_page(tool_ctx, demo_site.base_url + "/search?q=stapler")
    run = make_run([DONE], goal="Search for stapler.")
    pause = await run.advance()
    assert pause.kind == "done" and run.recorder is not None and run.request_id is not None
    check_then_strip(workspace, user_config_dir, run.recorder.path, run.request_id)


@pytest.fixture
def fake() -> Iterator[FakeMessagesServer]:
    with FakeMessagesServer() as server:
        yield server


async def test_browser_task_bundles_are_sealed_and_a_stripped_one_refused(
    workspace: Path, fake: FakeMessagesServer, demo_site: DemoSite, user_config_dir: Path
) -> None:
    generate()
    fake.responder = wire_responder([DONE])
    server = params(workspace, fake)
    server.env = {**(server.env or {}), "BROWSEROPS_CONFIG_DIR": str(user_config_dir)}
    async with Client(server) as client:
        result = await call(client, "browser_task", goal="Search for stapler.",
                            url=demo_site.base_url + "/search?q=stapler")
    assert result["status"] == "ok" and result["data"]["outcome"] == "done", result
    check_then_strip(workspace, user_config_dir, Path(result["data"]["bundle"]), result["data"]["requestId"])
