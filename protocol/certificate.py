"""A person's long-term identity key vouching for the key a seat signs with at one table.

Each person keeps one identity key (made once, in their data folder). At a table, the
join that takes a seat may carry a certificate: the identity key, and its signature
over the table's id and the seat's key. Every node checks it with the join, so a
transcript proves, offline, which person held each seat; the club ledger ties one
person's seats across tables by it, never by a name.

A computer player's seat is vouched for by the person who runs it: their identity key
signs the seat's key and the level's name together ("normal, run by Ada"), so a reader
knows whose word a computer's results rest on. Older transcripts certified a computer
seat with its level's own key (`level_identity`), made from a public seed: anyone can
sign as that, so such a seat says nothing of who ran it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from .errors import RemoteProtocolError
from .identity import Identity, verify
from .sizes import MAX_LEVEL

CERT_TAG = b"briscola-tui/seat-certificate/v1\x00"
RUN_TAG = b"briscola-tui/computer-seat-certificate/v1\x00"
LEVEL_SEED_TAG = b"briscola-tui/computer-player/v1\x00"


@dataclass(frozen=True)
class Certificate:
    """`identity` (a person's long-term public key) signed that `key` holds a seat at the table;
    `level`: the computer player that person runs at that seat ("" for the person's own seat)."""

    identity: bytes
    signature: bytes
    level: str = ""


def certificate_bytes(table_id: bytes, key: bytes, level: str = "") -> bytes:
    """What the identity key signs: the tag, the table's id and the seat's key, and for a computer
    seat the level's name under a tag of its own (a person's certificate is signed as before)."""
    if not level:
        return CERT_TAG + table_id + key
    return RUN_TAG + table_id + key + level.encode("utf-8")


def certify(person: Identity, table_id: bytes, key: bytes, level: str = "") -> Certificate:
    """`person`'s certificate for the seat key `key` at table `table_id` (run as `level`)."""
    return Certificate(person.public_bytes, person.sign(certificate_bytes(table_id, key, level)), level)


def check_certificate(certificate: Certificate, table_id: bytes, key: bytes) -> None:
    """RemoteProtocolError unless the certificate's identity signed `key` (and its level) for this table."""
    try:
        verify(certificate.identity, certificate_bytes(table_id, key, certificate.level), certificate.signature)
    except RemoteProtocolError:
        raise RemoteProtocolError("the join's identity certificate does not check") from None


def level_identity(level: str) -> Identity:
    """The identity of the computer player `level` (its private half is public by design): what
    older transcripts certified a computer seat with, and the ledger's name for the level."""
    if not 0 < len(level) <= MAX_LEVEL:
        raise ValueError("a level name has 1 to 16 characters")
    seed = hashlib.sha256(LEVEL_SEED_TAG + level.encode("utf-8")).digest()
    return Identity(Ed25519PrivateKey.from_private_bytes(seed))
