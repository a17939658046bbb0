"""Signed evidence: keygen, a signature made at finish, and verify catching a forger who recomputes the manifest."""

from __future__ import annotations

import shutil
import stat
from pathlib import Path

import orjson
import pytest
from click.testing import CliRunner

from browserops.cli import cli
from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence import BundleWriter, verify_bundle
from browserops.evidence.layout import ATTESTATION_FILE, SIGNATURE_FILE
from browserops.evidence.manifest import write_manifest
from browserops.evidence.signing import KEYS_DIR, PRIVATE_FILE, PUBLIC_FILE, generate
from tests.plan_samples import REQUEST_ID
from tests.test_evidence import fresh_bundle


def run(ws: Path, *args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, ["--workspace", str(ws), *args], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def keygen(ws: Path, *extra: str) -> dict[str, str]:
    code, out, err = run(ws, "evidence", "keygen", "--json", *extra)
    assert code == 0, err
    data: dict[str, str] = orjson.loads(out)
    return data


def test_keygen_makes_a_private_key_only_the_user_can_read(workspace: Path, user_config_dir: Path) -> None:
    made = keygen(workspace)
    private = user_config_dir / KEYS_DIR / PRIVATE_FILE
    assert made["privateKey"] == str(private) and made["fingerprint"].startswith("SHA256:")
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert b"PRIVATE KEY" in private.read_bytes() and b"PUBLIC KEY" in (private.parent / PUBLIC_FILE).read_bytes()
    # A second keygen would orphan every bundle signed so far: it needs --force.
    code, _, err = run(workspace, "evidence", "keygen")
    assert code == 1 and "BROWSER_EVIDENCE_KEY_INVALID" in err and "--force" in err


def test_signed_untouched_bundle_verifies(workspace: Path) -> None:
    made = keygen(workspace)
    path = fresh_bundle(workspace)
    info = orjson.loads((path / "bundle.json").read_bytes())
    assert info["signedBy"] == made["fingerprint"]
    sig = orjson.loads((path / SIGNATURE_FILE).read_bytes())
    assert sig["fingerprint"] == made["fingerprint"] and sig["algorithm"] == "ed25519"
    report = verify_bundle(path)
    assert report.ok and report.signature == "valid" and report.signed_by == made["fingerprint"]
    code, out, _ = run(workspace, "evidence", "verify", REQUEST_ID, "--require-signed")
    assert code == 0 and f"signed by {made['fingerprint']}" in out


def test_edited_file_with_recomputed_manifest_is_caught(workspace: Path) -> None:
    keygen(workspace)
    path = fresh_bundle(workspace)
    plan = path / "plan.json"
    plan.write_bytes(plan.read_bytes().replace(b"23.40", b"93.40"))
    write_manifest(path)  # the forger recomputes every hash
    report = verify_bundle(path)
    assert report.intact  # the hashes alone are fooled...
    assert not report.ok and report.signature == "invalid"  # ...the signature is not
    code, out, err = run(workspace, "evidence", "verify", REQUEST_ID)
    assert code == 1 and "signature does NOT match" in out and "signature invalid" in err


def test_forger_with_own_key_or_stripped_signature(workspace: Path, tmp_path: Path) -> None:
    keygen(workspace)
    path = fresh_bundle(workspace)
    # The forger edits, then signs with a key of their own and names it in bundle.json.
    plan = path / "plan.json"
    plan.write_bytes(plan.read_bytes().replace(b"23.40", b"93.40"))
    forger = generate(tmp_path / "forger")
    info = orjson.loads((path / "bundle.json").read_bytes())
    info["signedBy"] = forger.fingerprint
    (path / "bundle.json").write_bytes(orjson.dumps(info))
    (path / SIGNATURE_FILE).write_bytes(forger.sign(write_manifest(path).read_bytes()))
    report = verify_bundle(path)
    assert report.intact and not report.ok
    assert report.signature == "untrusted" and report.signed_by == forger.fingerprint
    # Stripping the signature (and the attestation) makes it "unsigned": refused, as this machine has a key.
    (path / SIGNATURE_FILE).unlink()
    (path / ATTESTATION_FILE).unlink()
    del info["signedBy"], info["attestation"]
    (path / "bundle.json").write_bytes(orjson.dumps(info))
    write_manifest(path)
    report = verify_bundle(path)
    assert report.signature == "unsigned" and report.intact and not report.ok
    assert any("signature was stripped" in p for p in report.problems), report.problems
    code, out, err = run(workspace, "evidence", "verify", REQUEST_ID)
    assert code == 1 and "unsigned where a signature is required" in err and "--allow-unsigned" in out
    code, _, err = run(workspace, "evidence", "verify", REQUEST_ID, "--require-signed")
    assert code == 1 and "unsigned where a signature is required" in err
    # Told that it was written before the key existed, the reviewer can still check its hashes.
    code, out, _ = run(workspace, "evidence", "verify", REQUEST_ID, "--allow-unsigned")
    assert code == 0 and "unsigned" in out


def test_a_reviewer_trusts_the_signers_public_key(workspace: Path, user_config_dir: Path, tmp_path: Path) -> None:
    keygen(workspace)
    fresh_bundle(workspace)
    public = tmp_path / "signer.pub"
    public.write_bytes((user_config_dir / KEYS_DIR / PUBLIC_FILE).read_bytes())
    shutil.rmtree(user_config_dir / KEYS_DIR)  # the reviewer's machine: no keys of its own
    code, out, err = run(workspace, "evidence", "verify", REQUEST_ID)
    assert code == 1 and "a key you do not trust" in out and "signature untrusted" in err
    code, out, _ = run(workspace, "evidence", "verify", REQUEST_ID, "--trust-key", str(public))
    assert code == 0 and "signed by SHA256:" in out and f"checked against --trust-key {public}" in out
    code, _, err = run(workspace, "evidence", "verify", REQUEST_ID, "--trust-key", str(tmp_path / "nope.pub"))
    assert code == 1 and "BROWSER_EVIDENCE_KEY_INVALID" in err


def test_unsigned_bundle_says_so_and_passes(workspace: Path) -> None:
    path = fresh_bundle(workspace)
    assert not (path / SIGNATURE_FILE).exists()
    assert orjson.loads((path / "bundle.json").read_bytes()).get("signedBy") is None
    report = verify_bundle(path)
    assert report.ok and report.signature == "unsigned"
    code, out, _ = run(workspace, "evidence", "verify", REQUEST_ID)
    assert code == 0 and "unsigned" in out


def test_a_signed_bundle_names_the_trusted_key_it_checked_against(workspace: Path, user_config_dir: Path) -> None:
    made = keygen(workspace)
    fresh_bundle(workspace)
    code, out, _ = run(workspace, "--json", "evidence", "verify", REQUEST_ID)
    report = orjson.loads(out)["report"]
    assert code == 0 and report["signedBy"] == made["fingerprint"]
    assert report["trustedKey"] == f"your own key {user_config_dir / KEYS_DIR / PUBLIC_FILE}"
    assert report["signatureRequired"] == "you trust 1 signing key"


def test_keygen_force_keeps_old_bundles_verifiable(workspace: Path) -> None:
    first = keygen(workspace)
    path = fresh_bundle(workspace)
    second = keygen(workspace, "--force")
    assert second["fingerprint"] != first["fingerprint"]
    report = verify_bundle(path)
    assert report.ok and report.signed_by == first["fingerprint"]


def test_a_key_others_can_read_is_refused_before_writing(workspace: Path, user_config_dir: Path) -> None:
    keygen(workspace)
    (user_config_dir / KEYS_DIR / PRIVATE_FILE).chmod(0o644)
    with pytest.raises(BrowserOpsError) as caught:
        BundleWriter.create(workspace, REQUEST_ID)
    assert caught.value.code is ErrorCode.EVIDENCE_KEY_INVALID and "chmod 600" in caught.value.message
    assert not (workspace / "artifacts").exists()
