"""The first-dealer coin: each seat commits to a random value, then reveals it;
the values together choose the first dealer."""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence
from dataclasses import dataclass, field

from .seat_secrets import tagged_hash

COIN_TAG = b"briscola-tui/coin/v1"


@dataclass
class Toss:
    """The coin as a node follows it (a session's `toss`)."""

    commitments: dict[int, bytes] = field(default_factory=dict)
    """Each seat's commitment to its value, by seat."""
    values: dict[int, bytes] = field(default_factory=dict)
    """The values revealed, by seat."""
    mine: bytes | None = None
    """This seat's own value, once it committed to it."""


def coin_commit(value: bytes, context: bytes) -> bytes:
    """Commitment to a seat's 32-byte coin value for this context."""
    if not isinstance(value, bytes) or len(value) != 32:
        raise ValueError("coin value must be 32 bytes")
    return tagged_hash(COIN_TAG, context, value)


def check_coin(value: bytes, context: bytes, commitment: bytes) -> bool:
    """Does the revealed coin value match its commitment?"""
    if not isinstance(value, bytes) or len(value) != 32:
        return False
    return hmac.compare_digest(tagged_hash(COIN_TAG, context, value), commitment)


def coin_result(values: Sequence[bytes], n_players: int) -> int:
    """The first dealer's seat: SHA-256(values in seat order) mod n_players.

    Any one honest seat's random value makes the result uniform. The modulo
    bias is at most n_players / 2^256: negligible.
    """
    if n_players < 1 or any(len(v) != 32 for v in values):
        raise ValueError("need n_players >= 1 and 32-byte coin values")
    digest = hashlib.sha256(b"".join(values)).digest()
    return int.from_bytes(digest, "big") % n_players
