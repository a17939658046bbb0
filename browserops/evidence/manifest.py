"""``manifest-sha256.txt`` (BagIt style: ``<sha256>  <path>`` per file) and the check that re-hashes a bundle.

The manifest covers every file of the bundle except itself, ``bundle.json`` (the status) included, so changing a
byte anywhere, deleting a file, adding one, or flipping the status from ``incomplete`` to ``complete`` is
detected. It makes tampering *evident* against edits and accidents; on its own it is not a signature — someone who
can rewrite the whole folder can rewrite the manifest too. When the user has a key, the manifest is also signed
(``evidence/signing.py``) and :func:`verify_bundle` checks that signature.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import orjson
from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel

from browserops.evidence import layout
from browserops.evidence.attestation import check_attestation
from browserops.evidence.signing import (
    PublicKeys,
    SignatureCheck,
    SignatureState,
    check_signature,
    signature_policy,
    trusted_keys,
)

_LINE = re.compile(r"^([0-9a-f]{64})[ \t]+(\S.*)$")


def _encode(relpath: str) -> str:
    # BagIt: percent-encode the characters that would break the one-line-per-file format.
    return relpath.replace("%", "%25").replace("\n", "%0A").replace("\r", "%0D")


def _decode(relpath: str) -> str:
    return relpath.replace("%0A", "\n").replace("%0a", "\n").replace("%0D", "\r").replace("%0d", "\r").replace(
        "%25", "%")


def bundle_files(bundle: Path) -> tuple[list[str], list[str]]:
    """Regular files of the bundle (posix relative paths, manifest excluded) and anything else found
    (symlinks, sockets…) — the writer only ever creates regular files."""
    files: list[str] = []
    odd: list[str] = []
    for root, dirs, names in os.walk(bundle, followlinks=False):
        base = Path(root)
        for d in list(dirs):
            if (base / d).is_symlink():
                odd.append((base / d).relative_to(bundle).as_posix())
                dirs.remove(d)
        for name in names:
            full = base / name
            rel = full.relative_to(bundle).as_posix()
            if rel in layout.SEALS:
                continue
            if full.is_symlink() or not full.is_file():
                odd.append(rel)
            else:
                files.append(rel)
    return sorted(files), sorted(odd)


def render_manifest(bundle: Path) -> bytes:
    """The manifest's bytes: every file hashed (what a signature signs)."""
    files, _ = bundle_files(bundle)
    return "".join(f"{layout.sha256_file(bundle / rel)}  {_encode(rel)}\n" for rel in files).encode("utf-8")


def write_manifest(bundle: Path, data: bytes | None = None) -> Path:
    """Write the manifest atomically (``data`` from :func:`render_manifest`). Called last, by BundleWriter.finish."""
    path = bundle / layout.MANIFEST_FILE
    layout.atomic_write(path, render_manifest(bundle) if data is None else data)
    return path


def read_manifest(bundle: Path) -> tuple[dict[str, str], list[str]]:
    """path -> sha256, and the problems found reading it (unparseable lines, unsafe paths, duplicates)."""
    entries: dict[str, str] = {}
    problems: list[str] = []
    try:
        text = (bundle / layout.MANIFEST_FILE).read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        return entries, [f"{layout.MANIFEST_FILE} is not UTF-8 text"]
    for n, line in enumerate(text.splitlines(), start=1):
        match = _LINE.match(line)
        if not match:
            problems.append(f"{layout.MANIFEST_FILE} line {n} is not '<sha256>  <path>'")
            continue
        rel = _decode(match.group(2))
        parts = rel.split("/")
        if rel.startswith("/") or ".." in parts or "" in parts:
            problems.append(f"{layout.MANIFEST_FILE} line {n} names a path outside the bundle")
            continue
        if rel in entries:
            problems.append(f"{layout.MANIFEST_FILE} lists {rel} twice")
        entries[rel] = match.group(1)
    return entries, problems


class VerifyReport(BaseModel):
    """What ``evidence verify`` found. ``ok`` only for an intact bundle whose last attempt finished."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)

    request_id: str | None
    path: str
    ok: bool
    intact: bool = Field(description="Every file matches the manifest, none missing, none extra.")
    complete: bool = Field(description="The last writer finished (status prepared, complete or partial).")
    status: str = Field(description="prepared, complete, partial or incomplete (also when the writer died).")
    partial: str | None = Field(None, description="For a partial run: what it left out (\"10 steps need --confirm\").")
    interrupted: bool = Field(False, description="The writer stopped before finishing: no manifest (or status open).")
    edited: list[str] = Field(default_factory=list)
    missing: list[str] = Field(default_factory=list)
    extra: list[str] = Field(default_factory=list)
    problems: list[str] = Field(default_factory=list)
    files_checked: int = 0
    signature: SignatureState = Field(
        "unsigned", description="unsigned (no key made it), valid (by a trusted key), invalid, or untrusted.")
    signed_by: str | None = Field(None, description="Fingerprint of the key that signed the manifest.")
    trusted_key: str | None = Field(
        None, description="The trusted key the signature checked against: where this verifier keeps or got it.")
    signature_required: str | None = Field(
        None, description="Why this verifier requires a signature (its own policy: it trusts keys, or has a "
        "signing key); null: unsigned bundles are accepted.")

    def lines(self) -> list[str]:
        """Human-readable findings, one per line."""
        out = [f"edited:  {p}" for p in self.edited]
        out += [f"missing: {p}" for p in self.missing]
        out += [f"extra:   {p}" for p in self.extra]
        out += [f"problem: {p}" for p in self.problems]
        return out


def _name_problems(bundle: Path, info_raw: dict[str, object] | None, entries: dict[str, str]) -> list[str]:
    """Every screenshot stored once under another name (``sameAs``) leads to a file of the manifest, and every
    file an event names exists (as a file or such a name)."""
    problems: list[str] = []
    same_as = info_raw.get("sameAs") if info_raw else None
    aliases: dict[str, str] = {}
    if isinstance(same_as, dict):
        aliases = {str(k): str(v) for k, v in same_as.items()}
    for name, stored in sorted(aliases.items()):
        if stored not in entries:
            problems.append(f"{name} is recorded as the same image as {stored}, which the manifest does not list")
        if name in entries:
            problems.append(f"{name} is both a file and recorded as the same image as {stored}")
    try:
        lines = (bundle / layout.EVENTS_FILE).read_bytes().splitlines()
    except OSError:
        return problems
    named: set[str] = set()
    for line in lines:
        try:
            event = orjson.loads(line)
        except orjson.JSONDecodeError:
            continue  # torn or foreign lines are reported by read_events
        if isinstance(event, dict):
            for key in ("screenshots", "exports"):
                named.update(str(p) for p in event.get(key) or [] if isinstance(p, str))
    for name in sorted(named - set(entries) - set(aliases)):
        problems.append(f"{layout.EVENTS_FILE} names {name}, which is not in the bundle")
    return problems


def _seal_problems(bundle: Path, info_raw: dict[str, object] | None, sig: SignatureCheck, trusted: PublicKeys, *,
                   required: str | None) -> list[str]:
    """What is wrong with the bundle's seals: the signature, the attestation beside it, or their absence where this
    verifier requires a signature (a stripped signature reads as an unsigned bundle)."""
    if sig.problem:
        return [sig.problem]
    named = info_raw.get("attestation") if info_raw else None
    present = (bundle / layout.ATTESTATION_FILE).is_file()
    if sig.state == "valid" and sig.signed_by is not None:
        if named and not present:
            return [f"bundle.json names {named}, which is missing"]
        if present:
            problem = check_attestation(bundle, trusted[sig.signed_by], sig.signed_by)
            return [problem] if problem else []
        return []
    if sig.state != "unsigned":
        return []
    if present:
        return [f"{layout.ATTESTATION_FILE} is there but bundle.json names no signing key"]
    if required:
        return [f"the bundle is unsigned, but {required}: a bundle whose signature was stripped looks like this. If "
                "you know it was written without a key, verify it with --allow-unsigned"]
    return []


def _required(trusted: PublicKeys, *, require_signed: bool, allow_unsigned: bool) -> str | None:
    """The verifier's policy: why a signature is required here (None: an unsigned bundle is accepted)."""
    if require_signed:
        return "--require-signed asks for a signature"
    if allow_unsigned:
        return None
    return signature_policy(trusted)


def verify_bundle(bundle: Path, *, trusted: PublicKeys | None = None, require_signed: bool = False,
                  allow_unsigned: bool = False) -> VerifyReport:
    """Re-hash a bundle against its manifest, check the manifest's signature and attestation (against ``trusted``,
    by default the keys this user keeps) and read its status marker. An unsigned bundle fails when the verifier
    requires a signature — ``require_signed``, or it trusts any key or has one of its own
    (:func:`~browserops.evidence.signing.signature_policy`) — unless ``allow_unsigned``. Nothing in the bundle or
    its workspace changes that policy."""
    info_raw: dict[str, object] | None = None
    try:
        loaded = orjson.loads((bundle / layout.INFO_FILE).read_bytes())
        info_raw = loaded if isinstance(loaded, dict) else None
    except (OSError, orjson.JSONDecodeError):
        info_raw = None
    request_id = str(info_raw.get("requestId")) if info_raw and info_raw.get("requestId") else None
    claimed = str(info_raw["signedBy"]) if info_raw and info_raw.get("signedBy") else None
    marker = str(info_raw.get("status")) if info_raw else None
    problems: list[str] = []
    if info_raw is None:
        problems.append(f"{layout.INFO_FILE} is missing or unreadable")

    files, odd = bundle_files(bundle)
    if not (bundle / layout.MANIFEST_FILE).is_file():
        problems.append("no manifest: the writer stopped before finishing (killed, or still running)")
        return VerifyReport(request_id=request_id, path=str(bundle), ok=False, intact=False, complete=False,
                            status="incomplete", interrupted=True, extra=odd, problems=problems)

    entries, manifest_problems = read_manifest(bundle)
    problems += manifest_problems
    present = set(files)
    edited, missing = [], []
    for rel, expected in sorted(entries.items()):
        if rel not in present:
            missing.append(rel)
        elif layout.sha256_file(bundle / rel) != expected:
            edited.append(rel)
    extra = sorted((present - set(entries)) | set(odd))
    problems += _name_problems(bundle, info_raw, entries)
    intact = not (edited or missing or extra or problems)
    keys = trusted_keys() if trusted is None else trusted
    sig = check_signature(bundle, claimed, keys)
    required = _required(keys, require_signed=require_signed, allow_unsigned=allow_unsigned)
    seal_problems = _seal_problems(bundle, info_raw, sig, keys, required=required)
    problems += seal_problems
    signed_ok = sig.state in ("valid", "unsigned") and not seal_problems
    complete = marker in ("prepared", "complete", "partial")
    status = marker if complete else "incomplete"
    partial = _partial_reason(info_raw) if marker == "partial" else None
    interrupted = marker == "open"
    if interrupted:
        problems.append("the writer stopped before finishing (status still open)")
    elif not complete:
        problems.append(f"the run did not complete (status: {marker})")
    return VerifyReport(
        request_id=request_id, path=str(bundle), ok=intact and complete and signed_ok, intact=intact,
        complete=complete, status=str(status), interrupted=interrupted, edited=edited, missing=missing, extra=extra,
        problems=problems, files_checked=len(entries), signature=sig.state, signed_by=sig.signed_by, partial=partial,
        trusted_key=keys.sources.get(sig.signed_by) if sig.state == "valid" and sig.signed_by else None,
        signature_required=required,
    )


def _partial_reason(info_raw: dict[str, object] | None) -> str:
    """What the last (partial) attempt left out, as bundle.json records it."""
    attempts = info_raw.get("attempts") if info_raw else None
    last = attempts[-1] if isinstance(attempts, list) and attempts else None
    reason = last.get("reason") if isinstance(last, dict) else None
    return str(reason) if reason else "some steps did not run"
