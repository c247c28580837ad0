"""The deck cipher: mental-poker shuffling and dealing on P-256.

A card is the x-coordinate of a curve point hashed from its index (0..39).
E_k(x) = x(k·P) is a commutative cipher: E_a(E_b(x)) == E_b(E_a(x)), and
k⁻¹ mod n undoes k. Every seat locks the deck with its own keys, so a card
at a position opens only when every seat has given its key share for it.

Sans-IO: plain bytes and ints in, plain bytes and ints out. Transport,
sealing, signing and the rules engine live elsewhere. Cards here are plain
integer indices; this module knows nothing about games.

Flow of one hand (docs/protocol.md, "A hand" and "The deck cipher"):

1. each seat publishes `SeatSecrets.commitment(context)`;
2. phase 1: each seat in turn `check_distinct`s its input, publishes
   `shuffle_phase1(deck, secrets)`;
3. phase 2: each seat in turn publishes `shuffle_phase2(deck, secrets)`;
4. dealing: seats send `key_share(secrets, p)` (sealed) to the owner of
   position p, who runs `open_card(deck[p], combine(shares))`; a public
   card is shown with `check_reveal`;
5. audit: seeds are revealed, `check_commitment`, `replay_shuffle`,
   `decrypt_deck`, `expected_share`.

Derivations (so any implementation can audit a revealed seed), with
HKDF = HKDF-SHA256(ikm=seed, salt=None, info=b"briscola-tui/seat/v1/" + label)
and scalar(b) = int(b) mod (n-1) + 1:

- phase1_key  = scalar(HKDF(label b"phase1", 48 bytes))
- card_key(i) = scalar(bytes 48i..48i+47 of HKDF(label b"card", 48·40 bytes))
- permutation(m): Fisher–Yates, i = m-1 down to 1, swap i with j uniform in
  [0, i]; j from 32-bit big-endian words of SHA-256(K ‖ m (2 bytes) ‖ counter
  (8 bytes)), K = HKDF(label b"permutation", 32), rejecting w ≥ 2^32 - 2^32 mod (i+1)
- x25519_seed = HKDF(label b"x25519", 32 bytes)
- card_point(c): first counter (4 bytes BE) with SHA-256(b"briscola-tui/card/v1"
  ‖ c (2 bytes BE) ‖ counter) mod p the x of a curve point
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Hashable, Iterable, Mapping, Sequence

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

CURVE = ec.SECP256R1()
ORDER = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
"""n, the prime order of the P-256 group. Scalars live in [1, n-1]."""
FIELD = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
"""p, the prime of the P-256 base field."""

N_CARDS = 40
"""Card indices are 0..39; a deck has at most 40 positions."""

CARD_TAG = b"briscola-tui/card/v1"
COMMIT_TAG = b"briscola-tui/commit/v1"
COIN_TAG = b"briscola-tui/coin/v1"
SEED_TAG = b"briscola-tui/seat/v1/"

_ECDH = ec.ECDH()
_decode = ec.EllipticCurvePublicKey.from_encoded_point
_derive = ec.derive_private_key


class DeckError(ValueError):
    """A deck that fails a check: a duplicate, a bad point, a wrong key share.

    Messages name positions (public) but never a hidden card or a key.
    """


# --- the cipher ---------------------------------------------------------


def _check_scalar(k: int) -> None:
    if not isinstance(k, int) or not 1 <= k < ORDER:
        raise ValueError("scalar out of range [1, n-1]")


def _point(x: bytes) -> ec.EllipticCurvePublicKey:
    """The point with x-coordinate x and even y. ValueError if none."""
    return _decode(CURVE, b"\x02" + x)


def _hash_to_x(index: int) -> bytes:
    """Try-and-increment: the first SHA-256(tag‖index‖counter) mod p on the curve."""
    counter = 0
    while True:
        digest = hashlib.sha256(
            CARD_TAG + index.to_bytes(2, "big") + counter.to_bytes(4, "big")
        ).digest()
        x = (int.from_bytes(digest, "big") % FIELD).to_bytes(32, "big")
        try:
            _point(x)
            return x
        except ValueError:
            counter += 1


_CARD_XS: tuple[bytes, ...] = ()
_CARD_BY_X: dict[bytes, int] = {}


def _card_table() -> tuple[bytes, ...]:
    """All 40 card points, computed once."""
    global _CARD_XS
    if not _CARD_XS:
        xs = tuple(_hash_to_x(i) for i in range(N_CARDS))
        _CARD_BY_X.update((x, i) for i, x in enumerate(xs))
        _CARD_XS = xs
    return _CARD_XS


def card_point(index: int) -> bytes:
    """The 32-byte x-coordinate that stands for card `index` (0..39)."""
    if not isinstance(index, int) or not 0 <= index < N_CARDS:
        raise ValueError(f"card index out of range: {index!r}")
    return _card_table()[index]


def card_of(x: bytes) -> int | None:
    """The card index whose point is x, or None if x is not a card point."""
    _card_table()
    return _CARD_BY_X.get(x)


def start_deck(indices: Sequence[int]) -> list[bytes]:
    """The unencrypted starting deck: card points in the order given."""
    if len(set(indices)) != len(indices):
        raise ValueError("deck indices are not distinct")
    return [card_point(i) for i in indices]


def mul(x: bytes, k: int) -> bytes:
    """x(k·P) where P is the point with x-coordinate x (E_k(x))."""
    _check_scalar(k)
    return _derive(k, CURVE).exchange(_ECDH, _point(x))


def mul_many(xs: Iterable[bytes], k: int) -> list[bytes]:
    """[mul(x, k) for x in xs], deriving the key for k only once."""
    _check_scalar(k)
    exchange = _derive(k, CURVE).exchange
    return [exchange(_ECDH, _decode(CURVE, b"\x02" + x)) for x in xs]


def inverse(k: int) -> int:
    """k⁻¹ mod n: mul(mul(x, k), inverse(k)) == x."""
    _check_scalar(k)
    return pow(k, -1, ORDER)


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


# --- seat secrets -------------------------------------------------------


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

    __slots__ = ("seed", "_phase1", "_card_keys", "_card_invs")

    def __init__(self, seed: bytes) -> None:
        if not isinstance(seed, bytes) or len(seed) != 32:
            raise ValueError("seed must be 32 bytes")
        self.seed = seed
        self._phase1: int | None = None
        self._card_keys: list[int] | None = None
        self._card_invs: list[int] | None = None

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

    @property
    def x25519_seed(self) -> bytes:
        """32 bytes for this seat's per-hand X25519 key (built elsewhere)."""
        return _hkdf(self.seed, b"x25519", 32)

    def commitment(self, context: bytes) -> bytes:
        """SHA-256(tag‖context‖seed): published before the shuffle."""
        return _commit(COMMIT_TAG, context, self.seed)


def _check_position(position: int) -> int:
    if not isinstance(position, int) or not 0 <= position < N_CARDS:
        raise ValueError(f"deck position out of range: {position!r}")
    return position


def _commit(tag: bytes, context: bytes, value: bytes) -> bytes:
    return hashlib.sha256(tag + context + value).digest()


def check_commitment(seed: bytes, context: bytes, commitment: bytes) -> bool:
    """Does the revealed seed match the commitment made for this context?"""
    if not isinstance(seed, bytes) or len(seed) != 32:
        return False
    return hmac.compare_digest(_commit(COMMIT_TAG, context, seed), commitment)


# --- shuffle ------------------------------------------------------------


def shuffle_phase1(deck_xs: Sequence[bytes], s: SeatSecrets) -> list[bytes]:
    """Lock every card with phase1_key, then permute.

    Output position i holds the encrypted input[perm[i]]. Callers should
    `check_distinct` the input first.
    """
    locked = mul_many(deck_xs, s.phase1_key)
    return [locked[j] for j in s.permutation(len(locked))]


def shuffle_phase2(deck_xs: Sequence[bytes], s: SeatSecrets) -> list[bytes]:
    """Swap this seat's phase-1 lock for a per-position lock (no permutation).

    Position i is multiplied by card_key(i)·phase1_key⁻¹ mod n.
    """
    unlock = inverse(s.phase1_key)
    keys = s._keys()
    if len(deck_xs) > len(keys):
        raise DeckError("deck longer than 40 positions")
    return [
        _derive(keys[i] * unlock % ORDER, CURVE).exchange(_ECDH, _decode(CURVE, b"\x02" + x))
        for i, x in enumerate(deck_xs)
    ]


def check_points(deck_xs: Sequence[bytes]) -> None:
    """Every value of a published deck must be the x-coordinate of a curve point.

    A value that is not cannot be shuffled or opened by anyone after it, so
    it is refused when published (DeckError names the position, nothing secret).
    """
    for position, x in enumerate(deck_xs):
        try:
            _point(x)
        except ValueError:
            raise DeckError(f"deck position {position} holds a value that is not a curve point") from None


def check_distinct(deck_xs: Sequence[bytes]) -> None:
    """Raise DeckError if two positions hold the same ciphertext.

    The cipher is a bijection, so after phase 1 equal ciphertexts mean a
    seat duplicated a card.
    """
    seen: dict[bytes, int] = {}
    for i, x in enumerate(deck_xs):
        if x in seen:
            raise DeckError(f"positions {seen[x]} and {i} hold the same ciphertext")
        seen[x] = i


# --- dealing and revealing ----------------------------------------------


def key_share(s: SeatSecrets, position: int) -> int:
    """What this seat sends (sealed) to whoever receives `position`."""
    return s.card_key_inverse(position)


def combine(shares: Iterable[int]) -> int:
    """The product of key shares mod n: the scalar that opens a position."""
    out = 1
    for k in shares:
        out = out * k % ORDER
    return out


def open_card(x: bytes, scalar: int) -> int:
    """The card at ciphertext x, given every seat's share combined.

    Raises DeckError("wrong key share") when the result is not a card point.
    """
    try:
        card = card_of(mul(x, scalar))
    except ValueError:
        raise DeckError("not a curve point or bad scalar") from None
    if card is None:
        raise DeckError("wrong key share")
    return card


def check_reveal(x: bytes, scalar: int, card: int) -> bool:
    """Does the public reveal (scalar, card) of the ciphertext x hold?

    True iff x(scalar·C) == card_point(card). The owner cannot claim another
    card c' for the same ciphertext: C = K·P_c, so it would need s' with
    s'·K·P_c = ±P_c', i.e. a known d with P_c' = d·P_c. Card points come from
    try-and-increment hashing, so no such discrete-log relation is known to
    anyone. (A seat that planted a point of its own choosing in the deck
    during the shuffle is named by `replay_shuffle`.)
    """
    if not isinstance(card, int) or not 0 <= card < N_CARDS:
        return False
    try:
        return mul(x, scalar) == card_point(card)
    except ValueError:
        return False


# --- audit --------------------------------------------------------------


def _replay_step(phase: int, deck: Sequence[bytes], s: SeatSecrets) -> list[bytes] | None:
    """Recompute one published step; None if its input is not valid points."""
    step = shuffle_phase1 if phase == 1 else shuffle_phase2
    try:
        return step(deck, s)
    except ValueError:
        return None


def replay_shuffle(
    start_xs: Sequence[bytes],
    steps: Sequence[tuple[Hashable, SeatSecrets]],
    published: Sequence[Sequence[bytes]],
) -> list[tuple[Hashable, int]]:
    """The (seat, phase) steps whose published deck is not what the seat's
    revealed secrets give from the previous published deck.

    `published` holds every seat's phase-1 output in turn, then every
    phase-2 output in turn (fewer when the hand stopped while shuffling).
    A seat whose secrets are None (it never revealed) is skipped. A seat whose input was already garbage (not
    curve points) is not blamed: the seat before it is.
    """
    if len(published) > 2 * len(steps):
        raise ValueError("at most one phase-1 and one phase-2 deck per seat")
    bad: list[tuple[Hashable, int]] = []
    previous = list(start_xs)
    turns = [(1, seat, s) for seat, s in steps] + [(2, seat, s) for seat, s in steps]
    for (phase, seat, s), out in zip(turns, published):
        expected = None if s is None else _replay_step(phase, previous, s)
        if expected is not None and expected != list(out):
            bad.append((seat, phase))
        previous = list(out)
    return bad


def decrypt_deck(
    final_xs: Sequence[bytes],
    secrets_by_seat: Mapping[Hashable, SeatSecrets] | Iterable[SeatSecrets],
) -> list[int]:
    """Every position's card, using every seat's revealed card keys."""
    if isinstance(secrets_by_seat, Mapping):
        secrets_by_seat = secrets_by_seat.values()
    seats = list(secrets_by_seat)
    out = []
    for p, x in enumerate(final_xs):
        try:
            out.append(open_card(x, combine(key_share(s, p) for s in seats)))
        except DeckError as e:
            raise DeckError(f"position {p}: {e}") from None
    return out


def expected_share(s: SeatSecrets, position: int) -> int:
    """The share a seat should have sent for `position`, from its revealed secrets."""
    return key_share(s, position)


# --- first-dealer coin --------------------------------------------------


def coin_commit(value: bytes, context: bytes) -> bytes:
    """Commitment to a seat's 32-byte coin value for this context."""
    if not isinstance(value, bytes) or len(value) != 32:
        raise ValueError("coin value must be 32 bytes")
    return _commit(COIN_TAG, context, value)


def check_coin(value: bytes, context: bytes, commitment: bytes) -> bool:
    """Does the revealed coin value match its commitment?"""
    if not isinstance(value, bytes) or len(value) != 32:
        return False
    return hmac.compare_digest(_commit(COIN_TAG, context, value), commitment)


def coin_result(values: Sequence[bytes], n_players: int) -> int:
    """The first dealer's seat: SHA-256(values in seat order) mod n_players.

    Any one honest seat's random value makes the result uniform. The modulo
    bias is at most n_players / 2^256: negligible.
    """
    if n_players < 1 or any(len(v) != 32 for v in values):
        raise ValueError("need n_players >= 1 and 32-byte coin values")
    digest = hashlib.sha256(b"".join(values)).digest()
    return int.from_bytes(digest, "big") % n_players


# --- cost model ---------------------------------------------------------


def ops_for_deal(n_players: int, n_cards: int, n_dealt_privately: int, n_public: int) -> int:
    """Variable-base curve multiplications for a shuffle plus the openings.

    Phase 1 and phase 2 each take one per card per seat; each card dealt
    privately or opened publicly takes one more.
    """
    return 2 * n_players * n_cards + n_dealt_privately + n_public
