"""Ed25519 signatures over the manifest: evidence that resists someone who can rewrite the whole folder.

The manifest alone makes edits *evident*, but whoever edits a file can recompute it. With a key pair made by
``browserops evidence keygen`` (in the user's config directory, never in a workspace), every ``finish`` signs the
manifest's bytes into ``manifest-sha256.txt.sig`` and names the public key's fingerprint in ``bundle.json`` (which
the manifest covers, so the fingerprint is signed too). ``verify`` then checks the signature against the keys this
user trusts: their own public key, earlier own keys kept by ``keygen --force``, ``*.pub`` files in
``trusted-keys/``, and keys given on the command line. A forger without the private key can recompute the manifest
but not its signature — nor can they pass off a bundle whose signature they stripped, because whether a signature
is required is the *verifier's* policy (:func:`signature_policy`: whoever trusts a key requires one), never a file
the bundle or its workspace carries.

Layout of ``<config dir>`` (``$BROWSEROPS_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/browserops``, else
``~/.config/browserops``)::

    keys/evidence-ed25519.pem   private key, PKCS#8 PEM, mode 0600
    keys/evidence-ed25519.pub   public key, SubjectPublicKeyInfo PEM
    trusted-keys/*.pub          other public keys whose signatures verify (a colleague's, an old own key)
"""

from __future__ import annotations

import base64
import hashlib
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import orjson
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from browserops.contract import BrowserOpsError, ErrorCode
from browserops.evidence import layout

KEYS_DIR = "keys"
TRUSTED_DIR = "trusted-keys"
PRIVATE_FILE = "evidence-ed25519.pem"
PUBLIC_FILE = "evidence-ed25519.pub"
SIGNATURE_FILE = layout.SIGNATURE_FILE
ALGORITHM = "ed25519"

SignatureState = Literal["unsigned", "valid", "invalid", "untrusted"]


class PublicKeys(dict[str, Ed25519PublicKey]):
    """fingerprint -> public key, for the keys a verifier trusts, and where each one came from (``sources``: the
    file, and how the verifier holds it), so ``verify`` can say against which trusted key a signature checked."""

    def __init__(self) -> None:
        super().__init__()
        self.sources: dict[str, str] = {}

    def add(self, key: Ed25519PublicKey, source: str) -> str:
        name = fingerprint(key)
        self[name] = key
        self.sources.setdefault(name, source)
        return name


def config_dir(env: dict[str, str] | None = None) -> Path:
    """The user's browserops config directory (not a workspace: keys must not travel with the evidence)."""
    env = dict(os.environ) if env is None else env
    if env.get("BROWSEROPS_CONFIG_DIR"):
        return Path(env["BROWSEROPS_CONFIG_DIR"]).expanduser()
    base = Path(env["XDG_CONFIG_HOME"]).expanduser() if env.get("XDG_CONFIG_HOME") else Path.home() / ".config"
    return base / "browserops"


def _raw(public: Ed25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def fingerprint(public: Ed25519PublicKey) -> str:
    """``SHA256:<hex>`` of the raw 32-byte public key."""
    return "SHA256:" + hashlib.sha256(_raw(public)).hexdigest()


@dataclass(frozen=True)
class Signer:
    private: Ed25519PrivateKey
    path: Path

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.private.public_key())

    def sign(self, data: bytes) -> bytes:
        """The detached signature file for ``data`` (JSON, so a reviewer can read which key signed)."""
        return orjson.dumps({
            "algorithm": ALGORITHM,
            "signed": layout.MANIFEST_FILE,
            "publicKey": base64.b64encode(_raw(self.private.public_key())).decode("ascii"),
            "fingerprint": self.fingerprint,
            "signature": base64.b64encode(self.private.sign(data)).decode("ascii"),
        }, option=orjson.OPT_INDENT_2) + b"\n"


def _key_error(path: Path, why: str) -> BrowserOpsError:
    return BrowserOpsError(
        ErrorCode.EVIDENCE_KEY_INVALID,
        f"The evidence signing key {path} {why}. Fix it, or make a new pair with "
        "`browserops evidence keygen --force`.",
        details={"path": str(path)},
    )


def load_signer(directory: Path | None = None) -> Signer | None:
    """The user's signing key, or None when they have none (bundles are then unsigned, as before)."""
    path = (directory or config_dir()) / KEYS_DIR / PRIVATE_FILE
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _key_error(path, f"cannot be read ({exc.strerror})") from exc
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        # As ssh does: a private key others can read may have been copied, so its signatures prove nothing.
        raise _key_error(path, f"is readable by other users (mode {stat.S_IMODE(mode):o}); run `chmod 600 {path}`")
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (OSError, ValueError, TypeError) as exc:
        raise _key_error(path, "is not a readable unencrypted PEM private key") from exc
    if not isinstance(key, Ed25519PrivateKey):
        raise _key_error(path, "is not an Ed25519 key")
    return Signer(key, path)


def generate(directory: Path | None = None, *, force: bool = False) -> Signer:
    """A new key pair in ``keys/``. With ``force`` an existing pair is replaced and its public key moved to
    ``trusted-keys/`` so bundles it signed still verify."""
    root = directory or config_dir()
    keys = root / KEYS_DIR
    private_path, public_path = keys / PRIVATE_FILE, keys / PUBLIC_FILE
    if private_path.exists() and not force:
        raise BrowserOpsError(
            ErrorCode.EVIDENCE_KEY_INVALID,
            f"An evidence signing key already exists at {private_path}. Keep it (bundles it signed verify against "
            "it), or pass --force to make a new one (the old public key stays trusted).",
            details={"path": str(private_path)},
        )
    if force and public_path.is_file():
        old = _read_public(public_path)
        if old is not None:
            keep = root / TRUSTED_DIR / f"own-{fingerprint(old)[7:23]}.pub"
            keep.parent.mkdir(parents=True, exist_ok=True)
            layout.atomic_write(keep, public_path.read_bytes())
    keys.mkdir(parents=True, exist_ok=True)
    os.chmod(keys, 0o700)
    private = Ed25519PrivateKey.generate()
    pem = private.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                serialization.NoEncryption())
    _write_private(private_path, pem)
    layout.atomic_write(public_path, private.public_key().public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
    return Signer(private, private_path)


def _write_private(path: Path, pem: bytes) -> None:
    """Created 0600 from the first byte (never world-readable for a moment), then renamed into place."""
    tmp = path.parent / f"{layout.TMP_PREFIX}{path.name}"
    tmp.unlink(missing_ok=True)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.write(fd, pem)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)
    layout.fsync_dir(path.parent)


def _read_public(path: Path) -> Ed25519PublicKey | None:
    try:
        key = serialization.load_pem_public_key(path.read_bytes())
    except (OSError, ValueError):
        return None
    return key if isinstance(key, Ed25519PublicKey) else None


def read_public_key(path: Path) -> Ed25519PublicKey:
    """A public key file given by the user (``--trust-key``); BROWSER_EVIDENCE_KEY_INVALID if it is not one."""
    key = _read_public(path)
    if key is None:
        raise BrowserOpsError(ErrorCode.EVIDENCE_KEY_INVALID, f"{path} is not an Ed25519 public key in PEM form "
                              f"(the {PUBLIC_FILE} that `browserops evidence keygen` writes).",
                              details={"path": str(path)})
    return key


def trusted_keys(directory: Path | None = None) -> PublicKeys:
    """fingerprint -> public key, for every key this user keeps as trusted (unreadable files are skipped): their own
    public key and ``trusted-keys/*.pub``."""
    root = directory or config_dir()
    out = PublicKeys()
    own = root / KEYS_DIR / PUBLIC_FILE
    for path in [own, *sorted((root / TRUSTED_DIR).glob("*.pub"))]:
        key = _read_public(path)
        if key is not None:
            out.add(key, f"your own key {path}" if path == own else f"trusted key {path}")
    return out


def signature_policy(trusted: PublicKeys, directory: Path | None = None) -> str | None:
    """Why this verifier requires every bundle to be signed (None: it accepts unsigned ones). The verifier's own
    policy decides, never the bundle or its workspace (a marker there is the forger's to delete): whoever gives or
    keeps a trusted key expects signatures from it, and so does a machine that has a signing key of its own."""
    if trusted:
        count = len(trusted)
        return f"you trust {count} signing key{'s' if count != 1 else ''}"
    root = directory or config_dir()
    if (root / KEYS_DIR / PRIVATE_FILE).exists():
        return f"this machine has an evidence signing key ({root / KEYS_DIR})"
    return None


@dataclass(frozen=True)
class SignatureCheck:
    state: SignatureState
    signed_by: str | None
    problem: str | None = None


def check_signature(bundle: Path, claimed: str | None, trusted: PublicKeys) -> SignatureCheck:
    """Whether the manifest's signature is valid, made by a trusted key, and the one ``bundle.json`` names."""
    sig_path = bundle / SIGNATURE_FILE
    if not sig_path.is_file():
        if claimed:
            return SignatureCheck("invalid", claimed, f"bundle.json says it is signed by {claimed}, but "
                                  f"{SIGNATURE_FILE} is missing")
        return SignatureCheck("unsigned", None)
    try:
        data = orjson.loads(sig_path.read_bytes())
        signer = str(data["fingerprint"])
        signature = base64.b64decode(str(data["signature"]), validate=True)
        manifest = (bundle / layout.MANIFEST_FILE).read_bytes()
    except (OSError, ValueError, KeyError, TypeError):
        return SignatureCheck("invalid", claimed, f"{SIGNATURE_FILE} is not a readable signature file")
    if claimed != signer:
        return SignatureCheck("invalid", signer, f"{SIGNATURE_FILE} was made by {signer}, but bundle.json names "
                              f"{claimed or 'no key'}")
    key = trusted.get(signer)
    if key is None:
        return SignatureCheck("untrusted", signer, f"signed by {signer}, which is not a key you trust (add its "
                              f"public key to {config_dir() / TRUSTED_DIR} or pass --trust-key FILE)")
    try:
        key.verify(signature, manifest)
    except InvalidSignature:
        return SignatureCheck("invalid", signer, f"the signature does not match {layout.MANIFEST_FILE}: the "
                              "manifest was changed after it was signed")
    return SignatureCheck("valid", signer)
