"""A seat's secrets for one hand: every key and permutation it uses, derived from a 32-byte seed.

The seed is committed before the shuffle and revealed after the hand, so anyone
can recompute what the seat did (deck.py uses these keys, audit.py checks them).

Derivations (so any implementation can audit a revealed seed), with
HKDF = HKDF-SHA256(ikm=seed, salt=None, info=b"briscola-tui/seat/v1/" + label),
n the secp256k1 group order and scalar(b) = int(b) mod (n-1) + 1:

- phase1_key  = scalar(HKDF(label b"phase1", 48 bytes)); published K = phase1_key·B
- card_key(i) = scalar(bytes 48i..48i+47 of HKDF(label b"card", 48·40 bytes));
  published K_i = card_key(i)·B for each position i of the deck
- permutation(m): Fisher–Yates, i = m-1 down to 1, swap i with j uniform in
  [0, i]; j from 32-bit big-endian words of SHA-256(K ‖ m (2 bytes) ‖ counter
  (8 bytes)), K = HKDF(label b"permutation", 32), rejecting w ≥ 2^32 - 2^32 mod (i+1)
- seal_key u = scalar(HKDF(label b"seal", 48 bytes)); published U = u·B (sealing.py: the
  pair key of seats R and S is HKDF over the encoding of Z = u_R·U_S = u_S·U_R)
- proof_key = HKDF(label b"proof", 32 bytes): the nonces of the step proofs
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Sequence

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from . import curve
from .curve import ORDER

N_CARDS = 40
"""Card indices are 0..39; a deck has at most 40 positions."""
COMMIT_TAG = b"briscola-tui/commit/v1"
SEED_TAG = b"briscola-tui/seat/v1/"


def _hkdf(seed: bytes, label: bytes, length: int) -> bytes:
    return HKDF(hashes.SHA256(), length, None, SEED_TAG + label).derive(seed)


def _scalar(wide: bytes) -> int:
    """48 uniform bytes -> a scalar in [1, n-1] (bias below 2^-128)."""
    return int.from_bytes(wide, "big") % (ORDER - 1) + 1


def _stream(key: bytes, label: bytes) -> Iterable[int]:
    """Endless 32-bit words from SHA-256(key‖label‖counter)."""
    counter = 0
    while True:
        block = hashlib.sha256(key + label + counter.to_bytes(8, "big")).digest()
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")
        counter += 1


def _below(words: Iterable[int], bound: int) -> int:
    """A uniform int in [0, bound) by rejection sampling of 32-bit words."""
    limit = (1 << 32) - (1 << 32) % bound
    for w in words:
        if w < limit:
            return w % bound
    raise AssertionError("stream ended")  # pragma: no cover


class SeatSecrets:
    """Everything one seat uses in one hand, derived from a 32-byte seed.

    The seed is committed before the shuffle and revealed after the hand, so
    anyone can recompute every key and permutation. `repr` hides it.
    """

    __slots__ = ("seed", "_phase1", "_card_keys", "_card_invs", "_public")

    def __init__(self, seed: bytes) -> None:
        if not isinstance(seed, bytes) or len(seed) != 32:
            raise ValueError("seed must be 32 bytes")
        self.seed = seed
        self._phase1: int | None = None
        self._card_keys: list[int] | None = None
        self._card_invs: list[int] | None = None
        self._public: tuple[bytes, tuple[bytes, ...]] | None = None

    @classmethod
    def generate(cls) -> SeatSecrets:
        """Fresh secrets from `secrets.token_bytes`."""
        return cls(secrets.token_bytes(32))

    def __repr__(self) -> str:
        return "SeatSecrets(seed=<hidden>)"

    @property
    def phase1_key(self) -> int:
        """The one scalar this seat locks every card with in phase 1."""
        if self._phase1 is None:
            self._phase1 = _scalar(_hkdf(self.seed, b"phase1", 48))
        return self._phase1

    def permutation(self, n: int) -> list[int]:
        """This seat's phase-1 shuffle of n positions (Fisher–Yates)."""
        words = _stream(_hkdf(self.seed, b"permutation", 32), n.to_bytes(2, "big"))
        perm = list(range(n))
        for i in range(n - 1, 0, -1):
            j = _below(words, i + 1)
            perm[i], perm[j] = perm[j], perm[i]
        return perm

    def _keys(self) -> list[int]:
        """card_key(i) for every position i (the phase-2 locks)."""
        if self._card_keys is None:
            wide = _hkdf(self.seed, b"card", 48 * N_CARDS)
            self._card_keys = [_scalar(wide[i : i + 48]) for i in range(0, len(wide), 48)]
        return self._card_keys

    def card_key_inverse(self, position: int) -> int:
        """card_key(position)⁻¹ mod n (all 40 computed with one inversion)."""
        if self._card_invs is None:
            self._card_invs = _batch_inverse(self._keys())
        return self._card_invs[_check_position(position)]

    def card_key(self, position: int) -> int:
        """The scalar that locks `position` in phase 2."""
        return self._keys()[_check_position(position)]

    def public_keys(self, size: int) -> tuple[bytes, tuple[bytes, ...]]:
        """(K, (K_0..K_size-1)): phase1_key·B and card_key(i)·B, encoded.

        Published in the seat's commit, so that every step it takes can be
        checked against them at once (`stepproofs.py`, `check_share`).
        """
        if not 1 <= size <= N_CARDS:
            raise ValueError("a deck has 1 to 40 positions")
        if self._public is None or len(self._public[1]) != size:
            keys = self._keys()[:size]
            self._public = (
                curve.encode(curve.base_mul(self.phase1_key)),
                tuple(curve.encode(curve.base_mul(k)) for k in keys),
            )
        return self._public

    @property
    def proof_key(self) -> bytes:
        """32 secret bytes the proofs of this seat's steps draw their nonces from."""
        return _hkdf(self.seed, b"proof", 32)

    @property
    def seal_key(self) -> int:
        """u: the scalar this seat agrees its pair keys with (sealing.py); U = u·B is in its commit."""
        return _scalar(_hkdf(self.seed, b"seal", 48))

    @property
    def seal_public(self) -> bytes:
        """U = u·B, encoded (33 bytes)."""
        return curve.encode(curve.base_mul(self.seal_key))

    def commitment(self, context: bytes) -> bytes:
        """SHA-256(tag‖context‖seed): published before the shuffle."""
        return tagged_hash(COMMIT_TAG, context, self.seed)


def _check_position(position: int) -> int:
    if not isinstance(position, int) or not 0 <= position < N_CARDS:
        raise ValueError(f"deck position out of range: {position!r}")
    return position


def tagged_hash(tag: bytes, context: bytes, value: bytes) -> bytes:
    """SHA-256(tag‖context‖value): a commitment to `value` in `context`."""
    return hashlib.sha256(tag + context + value).digest()


def check_commitment(seed: bytes, context: bytes, commitment: bytes) -> bool:
    """Does the revealed seed match the commitment made for this context?"""
    if not isinstance(seed, bytes) or len(seed) != 32:
        return False
    return hmac.compare_digest(tagged_hash(COMMIT_TAG, context, seed), commitment)


def _batch_inverse(ks: Sequence[int]) -> list[int]:
    """Inverses of all ks mod n with one modular inversion (Montgomery's trick)."""
    prefix = [1]
    for k in ks:
        prefix.append(prefix[-1] * k % ORDER)
    inv = pow(prefix[-1], -1, ORDER)
    out = [0] * len(ks)
    for i in range(len(ks) - 1, -1, -1):
        out[i] = prefix[i] * inv % ORDER
        inv = inv * ks[i] % ORDER
    return out
