"""The in-toto attestation in a DSSE envelope beside a signed bundle's signature, checked here the way a reviewer
with their own tools would: the DSSE pre-authentication encoding written out by hand from the spec
(https://github.com/secure-systems-lab/dsse/blob/master/protocol.md) and an Ed25519 check with the raw public
key — not with the library that made it. And the workspace's memory that its bundles are signed."""

from __future__ import annotations

import base64
import hashlib
import shutil
from pathlib import Path

import orjson
from click.testing import CliRunner
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from cryptography.hazmat.primitives.serialization import load_pem_public_key

from browserops.cli import cli
from browserops.evidence import verify_bundle
from browserops.evidence.attestation import seal
from browserops.evidence.layout import ATTESTATION_FILE, MANIFEST_FILE, SIGNATURE_FILE, SIGNING_MARKER
from browserops.evidence.manifest import write_manifest
from browserops.evidence.signing import KEYS_DIR, PUBLIC_FILE, generate, load_signer
from tests.plan_samples import REQUEST_ID
from tests.test_evidence import fresh_bundle


def pae(payload_type: str, payload: bytes) -> bytes:
    """DSSEv1 SP LEN(type) SP type SP LEN(body) SP body, lengths as ASCII decimal."""
    kind = payload_type.encode("utf-8")
    return b" ".join([b"DSSEv1", str(len(kind)).encode(), kind, str(len(payload)).encode(), payload])


def envelope_of(bundle: Path) -> dict[str, object]:
    lines = (bundle / ATTESTATION_FILE).read_bytes().splitlines()
    assert len(lines) == 1
    data: dict[str, object] = orjson.loads(lines[0])
    return data


def own_check(bundle: Path, public: Ed25519PublicKey) -> dict[str, object]:
    """Verify the envelope by hand; return its statement."""
    env = envelope_of(bundle)
    payload = base64.b64decode(str(env["payload"]))
    assert env["payloadType"] == "application/vnd.in-toto+json"
    signatures = env["signatures"]
    assert isinstance(signatures, list) and len(signatures) == 1
    public.verify(base64.b64decode(signatures[0]["sig"]), pae(str(env["payloadType"]), payload))  # raises if bad
    statement: dict[str, object] = orjson.loads(payload)
    return statement


def test_the_attestation_verifies_with_an_independent_dsse_check(workspace: Path, user_config_dir: Path) -> None:
    signer = generate()
    bundle = fresh_bundle(workspace)
    public = load_pem_public_key((user_config_dir / KEYS_DIR / PUBLIC_FILE).read_bytes())
    assert isinstance(public, Ed25519PublicKey)
    statement = own_check(bundle, public)
    assert statement["_type"] == "https://in-toto.io/Statement/v1"
    assert envelope_of(bundle)["signatures"][0]["keyid"] == signer.fingerprint  # type: ignore[index]
    subjects = {s["name"]: s["digest"]["sha256"] for s in statement["subject"]}  # type: ignore[attr-defined]
    # Every file of the bundle but the seals themselves, by its real digest, and the manifest.
    files = {p.relative_to(bundle).as_posix() for p in bundle.rglob("*") if p.is_file()}
    assert set(subjects) == files - {SIGNATURE_FILE, ATTESTATION_FILE}
    for name, digest in subjects.items():
        assert hashlib.sha256((bundle / name).read_bytes()).hexdigest() == digest, name
    assert statement["predicate"]["requestId"] == REQUEST_ID  # type: ignore[index]
    assert verify_bundle(bundle).ok


def test_an_attestation_that_does_not_match_the_bundle_fails(workspace: Path, tmp_path: Path) -> None:
    """The .sig stays valid: an attestation taken from another bundle of the same key (other digests), or one
    whose payload was altered, still fails verify."""
    generate()
    bundle = fresh_bundle(workspace)
    other = fresh_bundle(tmp_path / "ws2")
    (other / "summary.md").write_bytes(b"another run\n")  # so its digests differ
    write_manifest(other)
    signer = load_signer()
    assert signer is not None
    seal(other, signer, (other / MANIFEST_FILE).read_bytes(), request_id=REQUEST_ID, status="complete")
    shutil.copy(other / ATTESTATION_FILE, bundle / ATTESTATION_FILE)
    report = verify_bundle(bundle)
    assert report.signature == "valid" and not report.ok
    assert any("names other files or digests" in p for p in report.problems), report.problems
    env = envelope_of(other)
    altered = base64.b64decode(str(env["payload"])).replace(b"summary.md", b"summary.MD")
    env["payload"] = base64.b64encode(altered).decode()
    (bundle / ATTESTATION_FILE).write_bytes(orjson.dumps(env) + b"\n")
    report = verify_bundle(bundle)
    assert not report.ok and any("does not verify" in p for p in report.problems), report.problems


def test_a_workspace_that_signed_refuses_unsigned_bundles_on_a_machine_without_keys(
    workspace: Path, user_config_dir: Path
) -> None:
    generate()
    bundle = fresh_bundle(workspace)
    assert (workspace / "artifacts" / "browser" / SIGNING_MARKER).is_file()
    shutil.rmtree(user_config_dir / KEYS_DIR)  # a reviewer's machine: no key of its own
    for name in (SIGNATURE_FILE, ATTESTATION_FILE):
        (bundle / name).unlink()
    info = orjson.loads((bundle / "bundle.json").read_bytes())
    del info["signedBy"], info["attestation"]
    (bundle / "bundle.json").write_bytes(orjson.dumps(info))
    write_manifest(bundle)
    report = verify_bundle(bundle)
    assert not report.ok and any("this workspace's bundles are signed" in p for p in report.problems)
    result = CliRunner().invoke(cli, ["--workspace", str(workspace), "evidence", "verify", REQUEST_ID,
                                      "--allow-unsigned"], catch_exceptions=False)
    assert result.exit_code == 0 and "unsigned" in result.stdout
