"""A person's long-term identity key vouching for the key a seat signs with at one table.

Each person keeps one identity key (made once, in their data folder). At a table, the
join that takes a seat may carry a certificate: the identity key, and its signature
over the table's id and the seat's key. Every node checks it with the join, so a
transcript proves, offline, which person held each seat; the club ledger ties one
person's seats across tables by it, never by a name.

A computer player's identity is its level's key, made from a public seed
(`level_identity`): anyone can sign as `normal`, as anyone can run it. Its results are
a fixed point of the rating scale, not a person's word.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from .errors import RemoteProtocolError
from .identity import Identity, verify

CERT_TAG = b"briscola-tui/seat-certificate/v1\x00"
LEVEL_SEED_TAG = b"briscola-tui/computer-player/v1\x00"
MAX_LEVEL = 16


@dataclass(frozen=True)
class Certificate:
    """`identity` (a person's long-term public key) signed that `key` holds a seat at the table."""

    identity: bytes
    signature: bytes


def certificate_bytes(table_id: bytes, key: bytes) -> bytes:
    """What the identity key signs: the tag, the table's id and the seat's key."""
    return CERT_TAG + table_id + key


def certify(person: Identity, table_id: bytes, key: bytes) -> Certificate:
    """`person`'s certificate for the seat key `key` at table `table_id`."""
    return Certificate(person.public_bytes, person.sign(certificate_bytes(table_id, key)))


def check_certificate(certificate: Certificate, table_id: bytes, key: bytes) -> None:
    """RemoteProtocolError unless the certificate's identity signed `key` for this table."""
    try:
        verify(certificate.identity, certificate_bytes(table_id, key), certificate.signature)
    except RemoteProtocolError:
        raise RemoteProtocolError("the join's identity certificate does not check") from None


def level_identity(level: str) -> Identity:
    """The identity of the computer player `level` (its private half is public by design)."""
    if not 0 < len(level) <= MAX_LEVEL:
        raise ValueError("a level name has 1 to 16 characters")
    seed = hashlib.sha256(LEVEL_SEED_TAG + level.encode("utf-8")).digest()
    return Identity(Ed25519PrivateKey.from_private_bytes(seed))
