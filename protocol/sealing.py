"""Key shares sealed from one seat to another: the one place that seals and opens them.

A seat seals the shares a step owes another seat under their pair key for
the hand: ECDH on secp256k1 between the two seats' sealing keys (u, from the
seat's committed seed; U = u·B in its commit), Z = u_R·U_S = u_S·U_R, then
HKDF-SHA256 over the encoding of Z and the pair context (table, hand, pair).
The session seals and opens them; the audit, once seeds are revealed, opens
every sealed share again to check it; a complaint (complaint.py) publishes Z
for one pair, with a proof, so that every node can open that pair's blobs.
"""

from __future__ import annotations

from typing import Any

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from . import curve
from .codec import decode, encode
from .errors import RemoteProtocolError
from .identity import seal, unseal
from .wire import pair_context, scalar_bytes, scalar_int, seal_aad, seal_nonce

SEAL_TAG = b"briscola-tui/seal/v2"


def check_seal_public(public: bytes) -> curve.Point:
    """The decoded sealing key U; RemoteProtocolError unless it is the one encoding of a point."""
    try:
        return curve.decode(public)
    except curve.PointError:
        raise RemoteProtocolError("its sealing key is not a curve point") from None


def shared_point(my_key: int, their_public: bytes) -> bytes:
    """Z = u·U_other, encoded: the same from either side of the pair."""
    return curve.encode(curve.mul(check_seal_public(their_public), my_key))


def key_from_shared(z: bytes, context: bytes) -> bytes:
    """The 32-byte pair key: HKDF-SHA256 over Z's encoding, with the pair context."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=SEAL_TAG + context).derive(z)


def hand_pair_key(table_id: bytes, hand: int, me: int, my_key: int, other: int, their_public: bytes) -> bytes:
    """The key `me` shares with `other` for this hand."""
    return key_from_shared(shared_point(my_key, their_public), pair_context(table_id, hand, me, other))


def seal_shares(
    key: bytes, table_id: bytes, hand: int, step: int, sender: int, recipient: int, shares: list[tuple[int, int]]
) -> bytes:
    """Seal [(position, share)] for `recipient` (same bytes each time: the nonce is derived)."""
    aad = seal_aad(table_id, hand, step, sender, recipient)
    plain = encode([[p, scalar_bytes(k)] for p, k in shares])
    return seal(key, plain, aad, seal_nonce(aad))


def open_shares(
    key: bytes, table_id: bytes, hand: int, step: int, sender: int, recipient: int, blob: bytes
) -> dict[int, int]:
    """{position: share} from a sealed blob; RemoteProtocolError if it does not open or parse."""
    aad = seal_aad(table_id, hand, step, sender, recipient)
    try:
        # Any: what a peer sealed has any shape; one that is no [(position, share)] raises just below.
        pairs: Any = decode(unseal(key, blob, aad))
        if not isinstance(pairs, list) or len(pairs) > 40:
            raise ValueError("not a short list")
        out = {int(p): scalar_int(k) for p, k in pairs}
        if len(out) != len(pairs):
            raise ValueError("a position twice")
        return out
    except (ValueError, TypeError):
        raise RemoteProtocolError("sealed shares do not parse") from None
