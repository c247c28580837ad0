"""'One of my hidden positions holds card C' (protocol/holds.py through protocol/hidden_claims.py)."""

from __future__ import annotations

import random

import msgpack
import pytest
from helpers.zkdeck import dealt

from protocol import deck, holds, orproof
from protocol.curve import ORDER
from protocol.errors import LocalProtocolError
from protocol.hidden_claims import (
    ClaimRefused,
    _bound,
    check_holds,
    check_lacks,
    claim_context,
    prove_holds,
    prove_lacks,
)

CTX = claim_context(b"table-0123456789", 2, 0, "act", b"call")


def proved(d, seat, positions, card, ctx=CTX, nonce_key=None):
    return prove_holds(ctx, d.openings(seat, positions), positions, d.final, card, nonce_key)


@pytest.mark.slow
@pytest.mark.parametrize("n", [3, 5])
def test_every_held_card_is_proved_held(n):
    d = dealt(n)
    for seat in range(n):
        positions = d.positions(seat)
        for i in positions:
            proof = proved(d, seat, positions, d.cards[i])
            assert len(proof[0]) == orproof.proof_size(len(positions))
            check_holds(CTX, positions, d.final, d.cards[i], proof)
            wire = msgpack.unpackb(msgpack.packb(proof), use_list=True)
            check_holds(CTX, positions, d.final, d.cards[i], wire)


@pytest.mark.parametrize("n", [3, 5])
def test_a_card_not_held_cannot_be_proved_and_a_forged_proof_is_refused(n):
    d = dealt(n)
    positions = d.positions(0)
    openings = d.openings(0, positions)
    absent = next(c for c in range(40) if c not in {d.cards[i] for i in positions})
    with pytest.raises(LocalProtocolError):
        prove_holds(CTX, openings, positions, d.final, absent)
    ctx = _bound(CTX, b"holds", positions, [absent], 0)
    target = deck.card_point(absent)
    bases = [d.final[i] for i in positions]
    for branch in range(len(positions)):  # each position's own opening, each wrong for the card
        forged = orproof.prove(ctx, target, bases, branch, openings[positions[branch]])
        with pytest.raises(ClaimRefused):
            check_holds(CTX, positions, d.final, absent, [forged])


def test_a_proof_for_one_card_does_not_pass_for_another():
    d = dealt(3)
    positions = d.positions(1)
    proof = proved(d, 1, positions, d.cards[positions[3]])
    for c in range(40):
        if c != d.cards[positions[3]]:
            with pytest.raises(ClaimRefused):
                check_holds(CTX, positions, d.final, c, proof)


def test_fewer_or_more_positions_another_seat_or_context_are_refused():
    d = dealt(5)
    positions = d.positions(2)
    card = d.cards[positions[-1]]
    proof = proved(d, 2, positions, card)
    for ps in (positions[:-1], positions[1:], sorted([*positions, d.positions(3)[0]]), d.positions(3)):
        with pytest.raises(ClaimRefused):
            check_holds(CTX, ps, d.final, card, proof)
    short = proved(d, 2, positions[4:], card)  # a proof over fewer positions, checked over all
    with pytest.raises(ClaimRefused):
        check_holds(CTX, positions, d.final, card, short)
    for ctx in (claim_context(b"table-0123456789", 2, 1, "act", b"call"), claim_context(b"t", 2, 0, "act", b"call")):
        with pytest.raises(ClaimRefused):
            check_holds(ctx, positions, d.final, card, proof)
    with pytest.raises(ClaimRefused):
        check_holds(CTX, positions, dealt(5, 1).final, card, proof)


def test_every_byte_matters_and_malformed_shapes_are_refused():
    d = dealt(3)
    positions = d.positions(0, 6)
    card = d.cards[positions[2]]
    (proof,) = proved(d, 0, positions, card)
    for i in range(len(proof)):
        with pytest.raises(ClaimRefused):
            check_holds(CTX, positions, d.final, card, [proof[:i] + bytes([proof[i] ^ 1]) + proof[i + 1 :]])
    rng = random.Random(4)
    for _ in range(50):
        i = rng.randrange(0, len(proof), 32)
        with pytest.raises(ClaimRefused):
            check_holds(
                CTX, positions, d.final, card, [proof[:i] + rng.choice([bytes(32), b"\xff" * 32]) + proof[i + 32 :]]
            )
    shapes = [
        None,
        [],
        [proof, proof],
        proof,
        [proof[:-1]],
        [proof + b"\x00"],
        [proof.hex()],
        [[proof]],
        [None],
        {},
        3,
        [bytearray(proof)],
    ]
    for shape in shapes:
        with pytest.raises(ClaimRefused):
            check_holds(CTX, positions, d.final, card, shape)


def test_no_hidden_position_holds_nothing():
    d = dealt(3)
    with pytest.raises(ClaimRefused):
        check_holds(CTX, [], d.final, 0, [b""])
    with pytest.raises(LocalProtocolError):
        prove_holds(CTX, {}, [], d.final, 0)
    with pytest.raises(LocalProtocolError):
        check_holds(CTX, [3, 1], d.final, 0, [b""])
    with pytest.raises(LocalProtocolError):
        prove_holds(CTX, {}, [1], d.final, 0)  # no opening given for the position


def test_a_proof_carries_no_secret_and_is_deterministic_from_a_key():
    d = dealt(3)
    positions = d.positions(2)
    card = d.cards[positions[5]]
    proof = proved(d, 2, positions, card, nonce_key=b"k" * 32)
    assert proof == proved(d, 2, positions, card, nonce_key=b"k" * 32)
    assert proof != proved(d, 2, positions, card)
    blob = msgpack.packb(proof)
    for k in d.secret_scalars():
        assert k.to_bytes(32, "big") not in blob
    for i, o in enumerate(d.owner):
        if o >= 0:
            assert deck.card_point(d.cards[i]) not in blob


def test_holds_module_finds_the_holder_and_refuses_without_one():
    d = dealt(3)
    positions = d.positions(0)
    openings = d.openings(0, positions)
    for n, i in enumerate(positions):
        assert holds.holder_index(openings, positions, d.final, deck.card_point(d.cards[i])) == n
    wrong = {i: s * 2 % ORDER for i, s in openings.items()}
    with pytest.raises(ValueError):
        holds.holder_index(wrong, positions, d.final, deck.card_point(d.cards[positions[0]]))


def test_the_chiamata_two_rule_holds_and_lacks():
    """Bid 2, call X: holds the 2 (and every trump below X), lacks X; 5 seats, 8 cards, with chains."""
    d = dealt(5)
    seat = 3
    positions = d.positions(seat)
    hand = [d.cards[i] for i in positions]
    held_cards = hand[:3]  # stand-ins for the 2, 4 and 5 of trump
    called = next(c for c in range(40) if c not in hand)
    ctx = claim_context(b"table", 0, seat, "act", b"call")
    holding, openings = d.holding(seat, positions), d.openings(seat, positions)
    for c in held_cards:
        check_holds(ctx, positions, d.final, c, prove_holds(ctx, openings, positions, d.final, c))
    lack = prove_lacks(ctx, holding, positions, d.final, d.position_keys, {}, [called])
    assert sorted(check_lacks(ctx, positions, d.final, d.position_keys, {}, [called], lack)) == positions
    # calling a card one holds is refused
    own = hand[5]
    lie = prove_lacks(ctx, holding, positions, d.final, d.position_keys, {}, [own])
    with pytest.raises(ClaimRefused):
        check_lacks(ctx, positions, d.final, d.position_keys, {}, [own], lie)
