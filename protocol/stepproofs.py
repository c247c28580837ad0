"""The proof each shuffle step carries, bound to its place in the table.

- Phase 1: the shuffle argument (`shuffle_proof.py`): the output deck is the
  input deck locked under the seat's committed K = phase1_key·B and permuted.
- Phase 2: one Chaum–Pedersen proof (`dleq.py`) per position i that
  log_K K_i == log_{in_i} out_i: the position was re-locked with exactly
  card_key(i)·phase1_key⁻¹, the factor the seat's committed keys fix.
- A public key share s for position i is checked with one multiplication,
  s·K_i == B (`deck.check_share`); no proof is needed.

Every Fiat–Shamir challenge hashes the table id, the hand, the seat, the
phase, both decks and every key the seat committed (`context`), so a proof
made for one step passes nowhere else: not in another table, hand, seat or
phase, nor for other decks or keys.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from . import curve, dleq
from .curve import ORDER
from .deck import DeckError, SeatSecrets
from .shuffle_proof import ShuffleProof
from .shuffle_proof import prove as prove_shuffle
from .shuffle_proof import size as shuffle_proof_size
from .shuffle_proof import verify as verify_shuffle

TAG = b"briscola-tui/step-proof/v1"

DeckKeys = tuple[bytes, Sequence[bytes]]
"""A seat's committed keys: (K, (K_0, ..., K_m-1)), encoded points."""


def context(
    table_id: bytes,
    hand: int,
    seat: int,
    phase: int,
    keys: DeckKeys,
    deck_in: Sequence[bytes],
    deck_out: Sequence[bytes],
) -> bytes:
    """What every challenge of one step's proof is bound to (a 32-byte digest)."""
    phase1_key, position_keys = keys
    h = hashlib.sha256(TAG + table_id + hand.to_bytes(4, "big") + bytes([seat, phase]))
    for part in (phase1_key, b"".join(position_keys), b"".join(deck_in), b"".join(deck_out)):
        h.update(len(part).to_bytes(4, "big") + part)
    return h.digest()


def proof_size(phase: int, m: int) -> int:
    """Bytes of the proof of a step on an m-card deck."""
    return shuffle_proof_size(m) if phase == 1 else m * dleq.PROOF_LEN


def prove(
    ctx: bytes, phase: int, s: SeatSecrets, keys: DeckKeys, deck_in: Sequence[bytes], deck_out: Sequence[bytes]
) -> bytes:
    """The proof of a step (honest or not: for a false step it will not verify).

    Deterministic: its nonces come from the seat's proof key and `ctx`, which
    names the whole statement (`curve.scalar_stream`)."""
    xs, ys = _points(deck_in), _points(deck_out)
    nonces = curve.scalar_stream(s.proof_key, ctx)
    if phase == 1:
        key = curve.decode(keys[0])
        return prove_shuffle(ctx, xs, ys, key, s.phase1_key, s.permutation(len(xs)), nonces).to_bytes()
    k, position_keys = curve.decode(keys[0]), [curve.decode(p) for p in keys[1]]
    unlock = pow(s.phase1_key, -1, ORDER)
    return b"".join(
        dleq.prove(
            ctx + i.to_bytes(1, "big"), k, position_keys[i], xs[i], ys[i], s.card_key(i) * unlock % ORDER, next(nonces)
        )
        for i in range(len(xs))
    )


def check(
    ctx: bytes, phase: int, keys: DeckKeys, deck_in: Sequence[bytes], deck_out: Sequence[bytes], proof: bytes
) -> None:
    """DeckError naming what fails, if the step's proof does not verify.

    The decks must already be valid points (`deck.check_points`) and the
    keys those the seat committed.
    """
    m = len(deck_in)
    if len(deck_out) != m or len(proof) != proof_size(phase, m):
        raise DeckError(f"its phase-{phase} proof is not the size a proof for {m} cards has")
    xs, ys = _points(deck_in), _points(deck_out)
    key = curve.decode(keys[0])
    if phase == 1:
        try:
            parsed = ShuffleProof.from_bytes(proof, m)
        except ValueError:
            raise DeckError("its phase-1 proof does not parse (a bad point or scalar)") from None
        if not verify_shuffle(ctx, xs, ys, key, parsed):
            raise DeckError(
                "its phase-1 shuffle proof fails: the deck is not the previous one "
                "locked under its committed key and permuted"
            )
        return
    position_keys = [curve.decode(p) for p in keys[1]]
    for i in range(m):
        one = proof[i * dleq.PROOF_LEN : (i + 1) * dleq.PROOF_LEN]
        if not dleq.verify(ctx + i.to_bytes(1, "big"), key, position_keys[i], xs[i], ys[i], one):
            raise DeckError(f"its phase-2 proof fails at deck position {i}: not re-locked with its committed key")


def _points(deck: Sequence[bytes]) -> list:
    return [curve.decode(p) for p in deck]
