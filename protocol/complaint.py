"""A verifiable complaint about a wrong sealed share, and its judgment (sans-IO).

Seat S seals seat R the key shares of a step under their pair key, which
comes from Z = u_R·U_S = u_S·U_R (sealing.py). If the blob S sealed to R
does not open, does not parse, holds other positions than the step deals R,
or holds a share s with s·K_{S,i} ≠ B, R publishes Z with a Chaum–Pedersen
proof (dleq.py) that log_B U_R = log_{U_S} Z: Z is the one point the pair
key comes from. Every node then opens S's signed blob itself and names S,
or, if the blob is right, names R for a false complaint; a proof that fails
names R too.

Soundness: U_R and U_S are fixed in the commits, so Z is unique and a
forged Z fails the proof (but for the hash's 1/n); an AEAD key opens a blob
to at most one plaintext, so S cannot have sealed a blob that is right for
one node and wrong for another. What it reveals: Z keys only this pair's
blobs of this hand (the context names table, hand and pair), the shares
sent by S to R; no card opens from them, since each card still needs the
key share of its holder, which never leaves it.
"""

from __future__ import annotations

from . import curve, dleq
from . import deck as mp
from .errors import RemoteProtocolError
from .sealing import key_from_shared, open_shares
from .wire import pair_context

TAG = b"briscola-tui/complaint/v1"


def context(table_id: bytes, hand: int, step: int, complainer: int, accused: int) -> bytes:
    """What the proof is bound to: table, hand, step and who accuses whom."""
    return TAG + table_id + hand.to_bytes(4, "big") + step.to_bytes(2, "big") + bytes([complainer, accused])


def make(
    table_id: bytes, hand: int, step: int, me: int, my_key: int, my_public: bytes, accused: int, their_public: bytes
) -> tuple[bytes, bytes]:
    """(Z, proof): the shared point of `me` and `accused`, and the proof that it is."""
    u_s = curve.decode(their_public)
    z = curve.mul(u_s, my_key)
    ctx = context(table_id, hand, step, me, accused)
    proof = dleq.prove(ctx, curve.GENERATOR, curve.decode(my_public), u_s, z, my_key)
    return curve.encode(z), proof


def check_proof(
    table_id: bytes, hand: int, step: int, complainer: int, accused: int, u_r: bytes, u_s: bytes, z: bytes, proof: bytes
) -> bool:
    """Does `proof` show log_B U_R = log_{U_S} Z (Z the pair's shared point)?"""
    try:
        points = [curve.decode(x) for x in (u_r, u_s, z)]
    except curve.PointError:
        return False
    ctx = context(table_id, hand, step, complainer, accused)
    return dleq.verify(ctx, curve.GENERATOR, points[0], points[1], points[2], proof)


def blob_fault(
    table_id: bytes,
    hand: int,
    step: int,
    sender: int,
    recipient: int,
    z: bytes,
    blob: bytes,
    positions: set[int],
    position_keys: tuple,
) -> str | None:
    """What is wrong with the blob `sender` sealed `recipient` (None: every share right)."""
    key = key_from_shared(z, pair_context(table_id, hand, sender, recipient))
    try:
        pairs = open_shares(key, table_id, hand, step, sender, recipient, blob)
    except RemoteProtocolError:
        return "its sealed shares do not open or parse"
    if set(pairs) != positions:
        return "its sealed shares are for other positions than the step deals"
    for p in sorted(positions):
        if not mp.check_share(position_keys[p], pairs[p]):
            return f"its sealed key share for deck position {p} does not match its committed key"
    return None


def judge(
    table_id: bytes,
    hand: int,
    step: int,
    complainer: int,
    accused: int,
    u_r: bytes,
    u_s: bytes,
    z: bytes,
    proof: bytes,
    blob: bytes,
    positions: set[int],
    position_keys: tuple,
) -> tuple[int, str]:
    """(culprit seat, reason) for a complaint of `complainer` about `accused`'s blob."""
    if not check_proof(table_id, hand, step, complainer, accused, u_r, u_s, z, proof):
        return complainer, "its complaint's proof does not verify"
    fault = blob_fault(table_id, hand, step, accused, complainer, z, blob, positions, position_keys)
    if fault is None:
        return complainer, f"complained falsely about seat {accused}'s sealed shares"
    return accused, fault
