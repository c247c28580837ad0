""" "One of my hidden positions holds card C", without saying which.

The holder of position i knows its opening s_i = k_i⁻¹, with s_i·D_i = P_c
for the card c at i (the scalar a reveal proof would publish). The proof is
a Cramer–Damgård–Schoenmakers OR (`orproof.py`) over the claimant's hidden
positions of the Schnorr statements "P_C = s·D_i", with s_i of the position
that holds C as the witness; no combined key or chain is needed.

Soundness: extraction gives some s with s·D_i = P_C for one of the
positions. If i held another card c, D_i = k_i·P_c and P_C = (s·k_i)·P_c: a
known discrete-log relation between two hashed card points, which nobody
knows (the reveal proof's own assumption, `deck.check_reveal`). Hiding: the
OR is perfectly witness-indistinguishable, so nothing tells which position
it is; 64 bytes and 2 multiplications a position on each side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from . import curve, orproof


def holder_index(openings: Mapping[int, int], positions: Sequence[int], deck: Sequence[bytes], card: bytes) -> int:
    """The index in `positions` of the one whose opening gives `card`; ValueError if none does."""
    for n, i in enumerate(positions):
        if curve.mul_bytes(deck[i], openings[i]) == card:
            return n
    raise ValueError("none of the positions given opens to the card claimed")


def prove(
    context: bytes,
    openings: Mapping[int, int],
    positions: Sequence[int],
    deck: Sequence[bytes],
    card: bytes,
    nonce_key: bytes | None = None,
) -> bytes:
    """The OR proof that one of `positions` holds `card` (its point); ValueError if none does."""
    n = holder_index(openings, positions, deck, card)
    return orproof.prove(context, card, [deck[i] for i in positions], n, openings[positions[n]], nonce_key)


def check(context: bytes, positions: Sequence[int], deck: Sequence[bytes], card: bytes, proof: bytes) -> bool:
    """True iff the proof shows one of `positions` holds `card`."""
    return orproof.verify(context, card, [deck[i] for i in positions], proof)
