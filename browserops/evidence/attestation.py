"""The bundle's signature in a standard envelope: an in-toto attestation in a DSSE envelope.

``manifest-sha256.txt.sig`` is browserops' own format. Beside it, a signed bundle gets
``attestation.intoto.jsonl``: one DSSE envelope (payload type ``application/vnd.in-toto+json``) whose payload is an
in-toto Statement v1 naming every file of the manifest, and the manifest itself, by SHA-256 — so a reviewer can
check a bundle with their own tools (``cosign verify-blob-attestation``, in-toto's verifiers, or the DSSE
pre-authentication encoding and an Ed25519 check by hand). The signing key is the user's evidence key
(``evidence/signing.py``); the envelope's ``keyid`` is its fingerprint.

The DSSE envelope is made and checked by securesystemslib (the Secure Systems Lab's maintained library behind
python-tuf and in-toto; pure Python over ``cryptography``, which browserops already uses). The Statement is written
as plain JSON: the in-toto-attestation package would bring protobuf for four fields.

What it proves and what it does not: see README "Evidence signatures". In short, that the holder of the key
sealed exactly these files; not when (no trusted timestamp: an RFC 3161 authority needs the network), nor that
the pages showed what the files say.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from browserops.evidence import layout

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    from securesystemslib.signer import SSlibKey

    from browserops.evidence.signing import Signer

# securesystemslib is imported where an envelope is made or checked, not with this module: every command that
# writes or reads a bundle imports it, most bundles are unsigned, and the import cost each process 0.1 CPU s.

ATTESTATION_FILE = layout.ATTESTATION_FILE
PAYLOAD_TYPE = "application/vnd.in-toto+json"
STATEMENT_TYPE = "https://in-toto.io/Statement/v1"
PREDICATE_TYPE = "https://browserops.invalid/evidence-bundle/v1"


def manifest_subjects(manifest: bytes) -> list[dict[str, Any]]:
    """in-toto subjects: each file the manifest lists (its path, its SHA-256), then the manifest itself."""
    subjects: list[dict[str, Any]] = []
    for line in manifest.decode("utf-8").splitlines():
        digest, _, name = line.partition("  ")
        if digest and name:
            subjects.append({"name": name, "digest": {"sha256": digest}})
    subjects.append({"name": layout.MANIFEST_FILE, "digest": {"sha256": layout.sha256_bytes(manifest)}})
    return subjects


def statement(manifest: bytes, *, request_id: str, status: str, signed_by: str) -> dict[str, Any]:
    return {
        "_type": STATEMENT_TYPE,
        "subject": manifest_subjects(manifest),
        "predicateType": PREDICATE_TYPE,
        "predicate": {"requestId": request_id, "status": status, "signedBy": signed_by,
                      "sealedAt": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                      "timestamp": "none: the time is the writer's own claim (no RFC 3161 authority was asked)"},
    }


def _key(public: Ed25519PublicKey, fingerprint: str) -> SSlibKey:
    from securesystemslib.signer import SSlibKey

    return SSlibKey.from_crypto(public, keyid=fingerprint)


def envelope(signer: Signer, manifest: bytes, *, request_id: str, status: str) -> bytes:
    """The DSSE envelope (one JSON line) over the Statement for ``manifest``."""
    from securesystemslib.dsse import Envelope
    from securesystemslib.signer import CryptoSigner

    payload = orjson.dumps(statement(manifest, request_id=request_id, status=status, signed_by=signer.fingerprint))
    sealed = Envelope(payload, PAYLOAD_TYPE, {})
    sealed.sign(CryptoSigner(signer.private, _key(signer.private.public_key(), signer.fingerprint)))
    return orjson.dumps(sealed.to_dict()) + b"\n"


def seal(bundle: Path, signer: Signer, manifest: bytes, *, request_id: str, status: str) -> None:
    """Write the detached signature and the attestation for ``manifest`` (before the manifest itself)."""
    layout.atomic_write(bundle / layout.SIGNATURE_FILE, signer.sign(manifest))
    layout.atomic_write(bundle / ATTESTATION_FILE, envelope(signer, manifest, request_id=request_id, status=status))


def check_attestation(bundle: Path, public: Ed25519PublicKey, fingerprint: str) -> str | None:
    """Why the bundle's attestation does not hold (None: it is signed by ``public`` and names exactly the files
    and digests of the manifest)."""
    from securesystemslib.dsse import Envelope
    from securesystemslib.exceptions import VerificationError

    try:
        raw = orjson.loads((bundle / ATTESTATION_FILE).read_bytes().splitlines()[0])
        sealed = Envelope.from_dict(raw)
        manifest = (bundle / layout.MANIFEST_FILE).read_bytes()
    except (OSError, IndexError, ValueError, KeyError, TypeError):
        return f"{ATTESTATION_FILE} is not a readable DSSE envelope"
    if sealed.payload_type != PAYLOAD_TYPE:
        return f"{ATTESTATION_FILE} holds a {sealed.payload_type!r} payload, not an in-toto statement"
    try:
        sealed.verify([_key(public, fingerprint)], 1)
    except VerificationError:
        return f"the signature of {ATTESTATION_FILE} does not verify with {fingerprint}"
    try:
        body = orjson.loads(sealed.payload)
        subjects = body["subject"]
    except (orjson.JSONDecodeError, KeyError, TypeError):
        return f"{ATTESTATION_FILE} does not hold an in-toto statement"
    if body.get("_type") != STATEMENT_TYPE or subjects != manifest_subjects(manifest):
        return f"{ATTESTATION_FILE} names other files or digests than {layout.MANIFEST_FILE}"
    return None
