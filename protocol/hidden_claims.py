"""Claims about a seat's hidden cards, proved when they are made: the API the session calls.

- `prove_lacks` / `check_lacks`: "no card at my hidden positions is in F"
  (a Calabresella play off suit, a Chiamo denial, the "not X" of the
  Chiamata two rule). One sigma proof (`sigma.py`) under one challenge for
  the chains of the positions not chained before (`keychain.py`) and the
  blinded comparison (`lacks.py`).
- `prove_holds` / `check_holds`: "one of my hidden positions holds card C"
  (the "holds" half of the two rule): an OR proof (`holds.py`).
- `claim_context`: what every challenge is bound to (table, hand, seat,
  the kind of entry, and its particulars); each proof also binds the
  positions and the cards of its statement.

Proofs are plain msgpack-able values (lists of bytes). Everything in one
from the wire is checked for shape, type and exact length against the
statement before any point is decoded, and anything wrong, malformed or
false raises `ClaimRefused`, whose message names positions at most, never a
card or a key. A misuse by our own caller (positions out of order, a key
missing) is `LocalProtocolError`.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from . import curve, holds, keychain, lacks, orproof, sigma
from .curve import ORDER, POINT_LEN
from .deck import N_CARDS, card_point
from .errors import LocalProtocolError

TAG = b"briscola-tui/hidden-claim/v1"
LACKS_DOMAIN = b"hidden-claim/lacks"


class ClaimRefused(ValueError):
    """The proof of a claim does not check (or is not even the shape one has).

    The message names positions at most, never a card or a key."""


@dataclass(frozen=True)
class Holding:
    """What the claimant knows of its own positions.

    keys: position -> [k_{0,i}, ..., k_{n-1,i}], every seat's key for the
    position in seat order (its own, and the inverses of the shares the
    others sent it). `repr` names the positions only."""

    keys: Mapping[int, Sequence[int]]

    def __repr__(self) -> str:
        return f"Holding(positions={sorted(self.keys)})"


def claim_context(table_id: bytes, hand: int, seat: int, entry_kind: str, particulars: bytes) -> bytes:
    """The 32 bytes every challenge of a claim hashes: a proof made for one passes in no other."""
    if not (isinstance(table_id, bytes) and isinstance(particulars, bytes) and isinstance(entry_kind, str)):
        raise LocalProtocolError("claim_context takes bytes, bytes, a str kind and bytes")
    if not 0 <= hand < 1 << 32 or not 0 <= seat < 1 << 16:
        raise LocalProtocolError("hand or seat out of range")
    h = hashlib.sha256(TAG)
    for part in (table_id, hand.to_bytes(4, "big"), seat.to_bytes(2, "big"), entry_kind.encode(), particulars):
        h.update(len(part).to_bytes(4, "big") + part)
    return h.digest()


# --- lacks ---------------------------------------------------------------------------


def prove_lacks(
    context: bytes,
    holding: Holding,
    positions: Sequence[int],
    deck: Sequence[bytes],
    position_keys: Sequence[Sequence[bytes]],
    chained: Mapping[int, bytes],
    forbidden: Sequence[int],
    nonce_key: bytes | None = None,
) -> list:
    """[chains, A, R, proof] ([] when positions or forbidden is empty): see the module.

    positions: the claimant's hidden positions, increasing; deck: the final
    deck; position_keys[j][i] = K_{j,i} as committed; chained: position -> Kp
    proved earlier in this hand (no new chain for those); forbidden: card
    indices, increasing. A false claim gives a proof that will not check."""
    n_seats = _check_statement(positions, deck, position_keys, forbidden)
    if not positions or not forbidden:
        return []
    keys = {i: _keys_of(holding, i, n_seats) for i in positions}
    fresh = [i for i in positions if i not in chained]
    columns = {i: _column(position_keys, i) for i in fresh}
    chains = {i: keychain.links(keys[i], columns[i][0]) for i in fresh}
    kps = [keychain.combined_point(columns[i], chains[i]) if i in chains else chained[i] for i in positions]
    combined = [keychain.combined_key(keys[i]) for i in positions]
    for i, kp, k in zip(positions, kps, combined):
        if i in chained and curve.encode(curve.base_mul(k)) != kp:
            raise LocalProtocolError(f"the combined key chained for position {i} is not this holding's")
    ctx = _bound(context, b"lacks", positions, forbidden, n_seats)
    f_points = [card_point(c) for c in forbidden]
    d_points = [deck[i] for i in positions]
    a = lacks.blinding(ctx, [*d_points, *kps, *f_points], nonce_key)
    a_points, r_points, rs = lacks.blinded(a, f_points, d_points, combined)
    system, n_witnesses = _lacks_system(fresh, columns, chains, f_points, d_points, kps, a_points, r_points)
    witnesses = [x for i in fresh for x in keychain.witnesses(keys[i])] + [a, *rs]
    proof = sigma.prove(LACKS_DOMAIN, ctx, n_witnesses, system, witnesses, nonce_key)
    return [[chains[i] for i in fresh], a_points, r_points, proof]


def check_lacks(
    context: bytes,
    positions: Sequence[int],
    deck: Sequence[bytes],
    position_keys: Sequence[Sequence[bytes]],
    chained: Mapping[int, bytes],
    forbidden: Sequence[int],
    proof: object,
) -> dict[int, bytes]:
    """{position: Kp} for the positions this proof chains anew; ClaimRefused if it does not check.

    Refused too: a proof that re-sends a chain for a position in `chained`
    or omits one, any wrong shape, type or length, and any proof at all for
    a claim that needs none (empty positions or forbidden)."""
    n_seats = _check_statement(positions, deck, position_keys, forbidden)
    if not positions or not forbidden:
        if isinstance(proof, list | tuple) and len(proof) == 0:
            return {}
        raise ClaimRefused("a claim with no hidden position or no forbidden card carries no proof")
    fresh = [i for i in positions if i not in chained]
    body = _sequence(proof, 4, "the proof")
    chain_list = _sequence(body[0], len(fresh), "the chains (one per position not chained before)")
    chains = {i: _points(c, n_seats - 1, f"the chain of position {i}") for i, c in zip(fresh, chain_list)}
    a_points = _points(body[1], len(forbidden), "the blinded forbidden cards")
    r_points = _points(body[2], len(positions), "the blinded positions")
    columns = {i: _column(position_keys, i) for i in fresh}
    kps = [keychain.combined_point(columns[i], chains[i]) if i in chains else chained[i] for i in positions]
    f_points = [card_point(c) for c in forbidden]
    d_points = [deck[i] for i in positions]
    system, n_witnesses = _lacks_system(fresh, columns, chains, f_points, d_points, kps, a_points, r_points)
    sigma_proof = body[3]
    if not isinstance(sigma_proof, bytes) or len(sigma_proof) != sigma.proof_size(n_witnesses):
        raise ClaimRefused("the proof's scalars are not the length the claim needs")
    ctx = _bound(context, b"lacks", positions, forbidden, n_seats)
    if not sigma.verify(LACKS_DOMAIN, ctx, n_witnesses, system, sigma_proof):
        raise ClaimRefused("the proof that no forbidden card is at the claimed positions does not check")
    if not lacks.disjoint(a_points, r_points):
        raise ClaimRefused("a forbidden card is at one of the claimed positions")
    return {i: kps[n] for n, i in enumerate(positions) if i in chains}


def _lacks_system(
    fresh: Iterable[int],
    columns: Mapping[int, Sequence[bytes]],
    chains: Mapping[int, Sequence[bytes]],
    f_points: Sequence[bytes],
    d_points: Sequence[bytes],
    kps: Sequence[bytes],
    a_points: Sequence[bytes],
    r_points: Sequence[bytes],
) -> tuple[list[sigma.Relation], int]:
    """The chains' links (witnesses first) then the comparison's relations, under one challenge."""
    system: list[sigma.Relation] = []
    w = 0
    for i in fresh:
        system += keychain.relations(columns[i], chains[i], w)
        w += len(columns[i]) - 1
    system += lacks.relations(f_points, d_points, kps, a_points, r_points, w)
    return system, w + 1 + len(d_points)


# --- holds ---------------------------------------------------------------------------


def prove_holds(
    context: bytes,
    openings: Mapping[int, int],
    positions: Sequence[int],
    deck: Sequence[bytes],
    card: int,
    nonce_key: bytes | None = None,
) -> list:
    """[proof]: one of `positions` holds `card`. openings: position -> s_i, the scalar that opens it.

    LocalProtocolError if none of the positions holds it (there is no true
    proof to make) or an opening is missing."""
    _check_positions(positions, len(deck))
    _check_card(card)
    if not positions:
        raise LocalProtocolError("no hidden position to hold the card")
    for i in positions:
        s = openings.get(i)
        if not isinstance(s, int) or not 1 <= s < ORDER:
            raise LocalProtocolError(f"no opening for position {i}")
    ctx = _bound(context, b"holds", positions, [card], 0)
    try:
        return [holds.prove(ctx, openings, positions, deck, card_point(card), nonce_key)]
    except ValueError:
        raise LocalProtocolError("none of these positions holds the card claimed") from None


def check_holds(context: bytes, positions: Sequence[int], deck: Sequence[bytes], card: int, proof: object) -> None:
    """None if the proof shows one of `positions` holds `card`; ClaimRefused otherwise."""
    _check_positions(positions, len(deck))
    _check_card(card)
    if not positions:
        raise ClaimRefused("a seat with no hidden position holds no hidden card")
    (one,) = _sequence(proof, 1, "the proof")
    if not isinstance(one, bytes) or len(one) != orproof.proof_size(len(positions)):
        raise ClaimRefused("the proof is not the length the claim needs")
    ctx = _bound(context, b"holds", positions, [card], 0)
    if not holds.check(ctx, positions, deck, card_point(card), one):
        raise ClaimRefused("the proof that one of the claimed positions holds the card does not check")


# --- shapes --------------------------------------------------------------------------


def _bound(context: bytes, kind: bytes, positions: Sequence[int], cards: Sequence[int], n_seats: int) -> bytes:
    """The caller's context with the statement's kind, positions, cards and seat count appended."""
    return b"".join(
        (
            len(context).to_bytes(4, "big"),
            context,
            kind,
            bytes([n_seats, len(positions)]),
            bytes(positions),
            bytes([len(cards)]),
            bytes(cards),
        )
    )


def _check_statement(
    positions: Sequence[int], deck: Sequence[bytes], position_keys: Sequence[Sequence[bytes]], forbidden: Sequence[int]
) -> int:
    """The number of seats; LocalProtocolError for a statement our caller built wrong."""
    _check_positions(positions, len(deck))
    if list(forbidden) != sorted(set(forbidden)) or not all(isinstance(c, int) for c in forbidden):
        raise LocalProtocolError("forbidden cards must be distinct card indices in increasing order")
    for c in forbidden:
        _check_card(c)
    n_seats = len(position_keys)
    if not 2 <= n_seats <= 255 or any(len(row) < len(deck) for row in position_keys):
        raise LocalProtocolError("position_keys needs 2 or more seats, each with a key for every deck position")
    return n_seats


def _check_positions(positions: Sequence[int], deck_len: int) -> None:
    if not 0 < deck_len <= N_CARDS:
        raise LocalProtocolError("a deck has 1 to 40 positions")
    if not all(isinstance(i, int) and 0 <= i < deck_len for i in positions) or list(positions) != sorted(
        set(positions)
    ):
        raise LocalProtocolError("positions must be distinct deck positions in increasing order")


def _check_card(card: int) -> None:
    if not isinstance(card, int) or not 0 <= card < N_CARDS:
        raise LocalProtocolError("card index out of range")


def _keys_of(holding: Holding, position: int, n_seats: int) -> list[int]:
    keys = holding.keys.get(position)
    if keys is None or len(keys) != n_seats or not all(isinstance(k, int) and 1 <= k < ORDER for k in keys):
        raise LocalProtocolError(f"the holding has no full set of keys for position {position}")
    return list(keys)


def _column(position_keys: Sequence[Sequence[bytes]], position: int) -> list[bytes]:
    return [row[position] for row in position_keys]


def _sequence(value: object, length: int, what: str) -> Sequence:
    if not isinstance(value, list | tuple) or len(value) != length:
        raise ClaimRefused(f"{what}: not a list of {length}")
    return value


def _points(value: object, length: int, what: str) -> list[bytes]:
    """A list of `length` 33-byte values from the wire (the sigma proof decodes them, strictly)."""
    items = _sequence(value, length, what)
    if not all(isinstance(p, bytes) and len(p) == POINT_LEN for p in items):
        raise ClaimRefused(f"{what}: not {length} points of {POINT_LEN} bytes")
    return list(items)
