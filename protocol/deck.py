"""The deck cipher: mental-poker shuffling and dealing on secp256k1.

A card is a curve point hashed from its index (0..39). E_k(P) = k·P is a
commutative cipher: E_a(E_b(P)) == E_b(E_a(P)), and k⁻¹ mod n undoes k.
Every seat locks the deck with its own keys, so a card at a position opens
only when every seat has given its key share for it. Points travel as their
33-byte compressed encodings (`curve.decode` refuses any other).

Sans-IO: plain bytes and ints in, plain bytes and ints out. Transport,
sealing, signing, the proofs of each step (`stepproofs.py`) and the rules
engine live elsewhere. Cards here are plain integer indices; this module
knows nothing about games.

Flow of one hand (docs/protocol.md, "A hand" and "The deck cipher"):

1. each seat publishes `SeatSecrets.commitment(context)` and
   `SeatSecrets.public_keys(size)`;
2. phase 1: each seat in turn publishes `shuffle_phase1(deck, secrets)`;
3. phase 2: each seat in turn publishes `shuffle_phase2(deck, secrets)`;
4. dealing: seats send `key_share(secrets, p)` (sealed) to the owner of
   position p, who runs `open_card(deck[p], combine(shares))`; a public
   share is checked at once with `check_share`; a public card is shown
   with `check_reveal`;
5. audit: seeds are revealed, `check_commitment`, `replay_shuffle`,
   `decrypt_deck`, `expected_share`.

A seat's keys and permutation come from its seed (seat_secrets.py, with their
derivations); the first-dealer coin is coin.py. The card points:

- card_point(c): the first counter (4 bytes BE) such that x = SHA-256(b"briscola-tui/card/v2"
  ‖ c (2 bytes BE) ‖ counter) is below p and the x of a curve point; the point with even y
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping, Sequence
from typing import TypeVar

from . import curve
from .curve import FIELD, ORDER  # noqa: F401 - re-exported: the deck's group
from .seat_secrets import N_CARDS as N_CARDS
from .seat_secrets import SeatSecrets as SeatSecrets
from .seat_secrets import check_commitment as check_commitment

POINT_LEN = curve.POINT_LEN

CARD_TAG = b"briscola-tui/card/v2"


class DeckError(ValueError):
    """A deck that fails a check: a duplicate, a bad point, a wrong key share.

    Messages name positions (public) but never a hidden card or a key.
    """


# --- the cipher ---------------------------------------------------------


_CARDS: tuple[bytes, ...] = ()
_CARD_BY_POINT: dict[bytes, int] = {}


def _card_table() -> tuple[bytes, ...]:
    """All 40 card points, computed once."""
    global _CARDS
    if not _CARDS:
        points = tuple(curve.encode(curve.hash_to_point(CARD_TAG, i.to_bytes(2, "big"))) for i in range(N_CARDS))
        _CARD_BY_POINT.update((p, i) for i, p in enumerate(points))
        _CARDS = points
    return _CARDS


def card_point(index: int) -> bytes:
    """The 33-byte encoded point that stands for card `index` (0..39)."""
    if not isinstance(index, int) or not 0 <= index < N_CARDS:
        raise ValueError(f"card index out of range: {index!r}")
    return _card_table()[index]


def card_of(point: bytes) -> int | None:
    """The card index whose point is `point`, or None if it is not a card point."""
    _card_table()
    return _CARD_BY_POINT.get(point)


def start_deck(indices: Sequence[int]) -> list[bytes]:
    """The unencrypted starting deck: card points in the order given."""
    if len(set(indices)) != len(indices):
        raise ValueError("deck indices are not distinct")
    return [card_point(i) for i in indices]


def mul(point: bytes, k: int) -> bytes:
    """k·P, from encoding to encoding (E_k(P)); ValueError for a bad point or scalar."""
    return curve.mul_bytes(point, k)


def mul_many(points: Iterable[bytes], k: int) -> list[bytes]:
    """[mul(p, k) for p in points]."""
    return [curve.mul_bytes(p, k) for p in points]


def inverse(k: int) -> int:
    """k⁻¹ mod n: mul(mul(x, k), inverse(k)) == x."""
    _check_scalar(k)
    return pow(k, -1, ORDER)


def _check_scalar(k: int) -> None:
    if not isinstance(k, int) or not 1 <= k < ORDER:
        raise ValueError("scalar out of range [1, n-1]")


# --- shuffle ------------------------------------------------------------


def shuffle_phase1(deck: Sequence[bytes], s: SeatSecrets) -> list[bytes]:
    """Lock every card with phase1_key, then permute.

    Output position i holds the encrypted input[perm[i]]. Callers should
    `check_distinct` the input first.
    """
    locked = mul_many(deck, s.phase1_key)
    return [locked[j] for j in s.permutation(len(locked))]


def shuffle_phase2(deck: Sequence[bytes], s: SeatSecrets) -> list[bytes]:
    """Swap this seat's phase-1 lock for a per-position lock (no permutation).

    Position i is multiplied by card_key(i)·phase1_key⁻¹ mod n.
    """
    unlock = inverse(s.phase1_key)
    keys = s._keys()
    if len(deck) > len(keys):
        raise DeckError("deck longer than 40 positions")
    return [curve.mul_bytes(x, keys[i] * unlock % ORDER) for i, x in enumerate(deck)]


def check_points(deck: Sequence[bytes]) -> None:
    """Every value of a published deck must be the one encoding of a curve point.

    A value that is not cannot be shuffled or opened by anyone after it, so
    it is refused when published (DeckError names the position, nothing secret).
    """
    for position, x in enumerate(deck):
        try:
            curve.decode(x)
        except ValueError:
            raise DeckError(f"deck position {position} holds a value that is not a curve point") from None


def check_distinct(deck: Sequence[bytes]) -> None:
    """Raise DeckError if two positions hold the same ciphertext.

    The cipher is a bijection, so after phase 1 equal ciphertexts mean a
    seat duplicated a card.
    """
    seen: dict[bytes, int] = {}
    for i, x in enumerate(deck):
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


def check_share(position_key: bytes, share: int) -> bool:
    """Is `share` the inverse of the committed position key K_i = card_key(i)·B?

    True iff share·K_i == B: one multiplication, and only the seat's own
    key share passes (B has prime order).
    """
    try:
        return curve.mul_bytes(position_key, share) == curve.GENERATOR_BYTES
    except ValueError:
        return False


def check_reveal(x: bytes, scalar: int, card: int) -> bool:
    """Does the public reveal (scalar, card) of the ciphertext x hold?

    True iff scalar·C == card_point(card). The owner cannot claim another
    card c' for the same ciphertext: C = s⁻¹·P_c, so it would need a known d
    with P_c' = d·P_c. Card points come from try-and-increment hashing, so no
    such discrete-log relation is known to anyone, and the shuffle proofs
    (`stepproofs.py`) keep any point of a seat's own choosing out of the deck.
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


Seat = TypeVar("Seat", bound=Hashable)


def replay_shuffle(
    start: Sequence[bytes],
    steps: Sequence[tuple[Seat, SeatSecrets | None]],
    published: Sequence[Sequence[bytes]],
) -> list[tuple[Seat, int]]:
    """The (seat, phase) steps whose published deck is not what the seat's
    revealed secrets give from the previous published deck.

    `published` holds every seat's phase-1 output in turn, then every
    phase-2 output in turn (fewer when the hand stopped while shuffling).
    A seat whose secrets are None (it never revealed) is skipped. A seat whose input was already garbage (not
    curve points) is not blamed: the seat before it is.
    """
    if len(published) > 2 * len(steps):
        raise ValueError("at most one phase-1 and one phase-2 deck per seat")
    bad: list[tuple[Seat, int]] = []
    previous = list(start)
    turns = [(1, seat, s) for seat, s in steps] + [(2, seat, s) for seat, s in steps]
    for (phase, seat, s), out in zip(turns, published):
        expected = None if s is None else _replay_step(phase, previous, s)
        if expected is not None and expected != list(out):
            bad.append((seat, phase))
        previous = list(out)
    return bad


def decrypt_deck(
    final: Sequence[bytes],
    secrets_by_seat: Mapping[Hashable, SeatSecrets] | Iterable[SeatSecrets],
) -> list[int]:
    """Every position's card, using every seat's revealed card keys."""
    if isinstance(secrets_by_seat, Mapping):
        secrets_by_seat = secrets_by_seat.values()
    seats = list(secrets_by_seat)
    out = []
    for p, x in enumerate(final):
        try:
            out.append(open_card(x, combine(key_share(s, p) for s in seats)))
        except DeckError as e:
            raise DeckError(f"position {p}: {e}") from None
    return out


def expected_share(s: SeatSecrets, position: int) -> int:
    """The share a seat should have sent for `position`, from its revealed secrets."""
    return key_share(s, position)


# --- cost model ---------------------------------------------------------


def ops_for_deal(n_players: int, n_cards: int, n_dealt_privately: int, n_public: int) -> int:
    """Variable-base curve multiplications for a shuffle plus the openings.

    Phase 1 and phase 2 each take one per card per seat; each card dealt
    privately or opened publicly takes one more.
    """
    return 2 * n_players * n_cards + n_dealt_privately + n_public
