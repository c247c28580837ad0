"""Keys, signatures and sealed private messages.

Ed25519 identities sign every message (with a domain tag). Private messages
relayed by the untrusted host are sealed with ChaCha20-Poly1305 under a key
the two seats agree (sealing.py: ECDH on secp256k1).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from .errors import LocalProtocolError, RemoteProtocolError

MSG_TAG = b"briscola-tui/msg/v1\x00"
NONCE_LEN = 12
TAG_LEN = 16


class KeyFileError(ValueError):
    """A key file exists but does not hold an Ed25519 private key."""


# --- identity ---------------------------------------------------------------


class Identity:
    """An Ed25519 key pair. The repr shows only the public key."""

    __slots__ = ("_private", "public_bytes")

    def __init__(self, private: Ed25519PrivateKey) -> None:
        self._private = private
        self.public_bytes: bytes = private.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )

    @classmethod
    def generate(cls) -> Identity:
        """A fresh random identity."""
        return cls(Ed25519PrivateKey.generate())

    def sign(self, data: bytes) -> bytes:
        """64-byte Ed25519 signature of `data` (no domain tag)."""
        return self._private.sign(data)

    def seed(self) -> bytes:
        """The private key's 32 raw bytes, for deriving its X25519 form (returning.py): a secret."""
        return self._private.private_bytes(
            serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
        )

    def save(self, path: str | os.PathLike) -> None:
        """Write the key as PKCS#8 PEM, readable by the owner only (0o600)."""
        pem = self._private.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        _write_private(Path(path), pem)

    @classmethod
    def load(cls, path: str | os.PathLike) -> Identity:
        """Read a key written by `save`; KeyFileError if it is not one."""
        data = Path(path).read_bytes()
        try:
            key = serialization.load_pem_private_key(data, password=None)
        except (ValueError, TypeError):
            raise KeyFileError(f"{path}: not an unencrypted PEM private key") from None
        if not isinstance(key, Ed25519PrivateKey):
            raise KeyFileError(f"{path}: not an Ed25519 private key")
        return cls(key)

    @classmethod
    def load_or_create(cls, path: str | os.PathLike) -> Identity:
        """Load the key at `path`, creating it (and its directory) if missing."""
        path = Path(path)
        try:
            return cls.load(path)
        except FileNotFoundError:
            pass
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        identity = cls.generate()
        identity.save(path)
        return identity

    def __repr__(self) -> str:
        return f"Identity(public={self.public_bytes.hex()})"


def fingerprint(public: bytes) -> str:
    """Short hex name of a public key: first 8 bytes of its SHA-256."""
    return hashlib.sha256(public).hexdigest()[:16]


def _write_private(path: Path, data: bytes) -> None:
    """Atomically write `data` to `path`; the file is never group/world readable."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        tmp.unlink()
    except FileNotFoundError:
        pass
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


# --- signatures -------------------------------------------------------------


def verify(public: bytes, data: bytes, signature: bytes) -> None:
    """Check an Ed25519 signature; RemoteProtocolError("bad signature") if wrong."""
    if len(public) != 32 or len(signature) != 64:
        raise RemoteProtocolError("bad signature")
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, data)
    except (InvalidSignature, ValueError):
        raise RemoteProtocolError("bad signature") from None


def sign_message(identity: Identity, payload: bytes) -> bytes:
    """Sign a wire message payload under the message domain tag."""
    return identity.sign(MSG_TAG + payload)


def verify_message(public: bytes, payload: bytes, signature: bytes) -> None:
    """Check a signature made by `sign_message`."""
    verify(public, MSG_TAG + payload, signature)


# --- sealing ----------------------------------------------------------------


def seal(key: bytes, plaintext: bytes, aad: bytes, nonce: bytes | None = None) -> bytes:
    """12-byte nonce, then ChaCha20-Poly1305 ciphertext and tag.

    `nonce`: random when not given. A caller that passes one must never use
    it twice with one key (the session derives it from the AAD, which names
    hand, step, sender and recipient, so a seat that rebuilds after a crash
    seals the same bytes again).
    """
    if len(key) != 32:
        raise LocalProtocolError("seal key must be 32 bytes")
    nonce = os.urandom(NONCE_LEN) if nonce is None else nonce
    if len(nonce) != NONCE_LEN:
        raise LocalProtocolError("seal nonce must be 12 bytes")
    return nonce + ChaCha20Poly1305(key).encrypt(nonce, plaintext, aad)


def unseal(key: bytes, sealed: bytes, aad: bytes) -> bytes:
    """Open a `seal`ed message; RemoteProtocolError if it does not open."""
    if len(key) != 32:
        raise LocalProtocolError("seal key must be 32 bytes")
    if len(sealed) < NONCE_LEN + TAG_LEN:
        raise RemoteProtocolError("sealed message does not open")
    nonce, body = sealed[:NONCE_LEN], sealed[NONCE_LEN:]
    try:
        return ChaCha20Poly1305(key).decrypt(nonce, body, aad)
    except InvalidTag:
        raise RemoteProtocolError("sealed message does not open") from None
