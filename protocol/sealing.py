"""Key shares sealed from one seat to another: the one place that seals and opens them.

A seat seals the shares a step owes another seat under their pair key for
the hand (X25519 between the two seats' hand keys, then HKDF over the table,
hand and pair). The session seals and opens them; the audit, once seeds are
revealed, opens every sealed share again to check it.
"""

from __future__ import annotations

from typing import Any

from .codec import decode, encode
from .errors import RemoteProtocolError
from .identity import pair_key, seal, unseal
from .wire import pair_context, scalar_bytes, scalar_int, seal_aad, seal_nonce


def hand_pair_key(table_id: bytes, hand: int, me: int, my_private, other: int, their_public: bytes) -> bytes:
    """The key `me` shares with `other` for this hand."""
    return pair_key(my_private, their_public, pair_context(table_id, hand, me, other))


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
        return {int(p): scalar_int(k) for p, k in pairs}
    except (ValueError, TypeError):
        raise RemoteProtocolError("sealed shares do not parse") from None
