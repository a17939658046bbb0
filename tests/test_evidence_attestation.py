"""The in-toto attestation in a DSSE envelope beside a signed bundle's signature, checked here the way a reviewer
with their own tools would: the DSSE pre-authentication encoding written out by hand from the spec
(https://github.com/secure-systems-lab/dsse/blob/master/protocol.md) and an Ed25519 check with the raw public
key — not with the library that made it. And the reviewer's side: a reviewer who holds only the signer's public
key refuses a bundle whose signature was stripped (the verifier's policy decides, never a file in the workspace)."""

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
from browserops.evidence.layout import ATTESTATION_FILE, MANIFEST_FILE, SIGNATURE_FILE
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


def _strip_signature(bundle: Path) -> None:
    """What a forger does to a signed bundle they edited: drop the signature, the attestation and every word of
    them from bundle.json, and recompute the manifest. The bundle then looks as if it had never been signed."""
    for name in (SIGNATURE_FILE, ATTESTATION_FILE):
        (bundle / name).unlink()
    info = orjson.loads((bundle / "bundle.json").read_bytes())
    del info["signedBy"], info["attestation"]
    (bundle / "bundle.json").write_bytes(orjson.dumps(info))
    plan = bundle / "plan.json"
    plan.write_bytes(plan.read_bytes().replace(b"23.40", b"93.40"))
    write_manifest(bundle)


def _verify(workspace: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--workspace", str(workspace), "evidence", "verify", REQUEST_ID, *args],
                                catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def test_a_stripped_bundle_fails_for_a_reviewer_holding_only_the_public_key(
    workspace: Path, user_config_dir: Path, tmp_path: Path
) -> None:
    """Issue 36.4: the reviewer's machine has no key of its own and the workspace says nothing (a forger deletes
    whatever it could say); the reviewer's trusted key alone makes a signature required."""
    signer = generate()
    public = tmp_path / "alice.pub"
    public.write_bytes((user_config_dir / KEYS_DIR / PUBLIC_FILE).read_bytes())
    bundle = fresh_bundle(workspace)
    shutil.rmtree(user_config_dir / KEYS_DIR)  # the reviewer's machine
    code, out, _ = _verify(workspace, "--trust-key", str(public))
    assert code == 0, out
    assert f"signed by {signer.fingerprint}, checked against --trust-key {public}" in out
    _strip_signature(bundle)
    assert not list((workspace / "artifacts" / "browser").glob("*.json"))  # nothing in the workspace to go by
    code, out, err = _verify(workspace, "--trust-key", str(public))
    assert code == 1 and "unsigned where a signature is required" in err, (out, err)
    assert "you trust 1 signing key" in out and "--allow-unsigned" in out
    # The same reviewer keeping the key among their trusted keys instead of passing it.
    (user_config_dir / "trusted-keys").mkdir()
    shutil.copy(public, user_config_dir / "trusted-keys" / "alice.pub")
    code, _, err = _verify(workspace)
    assert code == 1 and "unsigned where a signature is required" in err
    report = verify_bundle(bundle)
    assert not report.ok and report.signature == "unsigned" and report.signature_required == "you trust 1 signing key"
    # Told it was written without a key, the reviewer can still check its hashes.
    code, out, _ = _verify(workspace, "--allow-unsigned")
    assert code == 0 and "unsigned" in out


def test_a_marker_in_the_workspace_sets_no_policy(workspace: Path) -> None:
    """A file inside artifacts/ is the forger's to write or delete: it neither requires a signature of a verifier
    that trusts no key, nor is written by a signing run any more."""
    marker = workspace / "artifacts" / "browser" / "signing.json"
    fresh_bundle(workspace)
    marker.write_bytes(orjson.dumps({"signedBy": ["SHA256:" + "0" * 64]}))
    code, out, _ = _verify(workspace)
    assert code == 0 and "unsigned (accepted: you trust no signing key" in out
    code, _, err = _verify(workspace, "--require-signed")
    assert code == 1 and "unsigned where a signature is required" in err


def test_a_signing_run_leaves_no_policy_file_in_the_workspace(workspace: Path, user_config_dir: Path) -> None:
    generate()
    fresh_bundle(workspace)
    assert not (workspace / "artifacts" / "browser" / "signing.json").exists()
