"""'No card at my hidden positions is in F' (protocol/lacks.py through protocol/hidden_claims.py)."""

from __future__ import annotations

import random

import msgpack
import pytest
from helpers.zkdeck import deal, dealt

from protocol import deck
from protocol.curve import ORDER
from protocol.errors import LocalProtocolError
from protocol.hidden_claims import ClaimRefused, Holding, check_lacks, claim_context, prove_lacks

CTX = claim_context(b"table-0123456789", 3, 1, "act", b"trick 4")


def lacking(d, positions, size, exclude=()):
    """`size` cards none of which is at `positions` (nor in `exclude`), increasing."""
    held = {d.cards[i] for i in positions}
    return [c for c in range(40) if c not in held and c not in exclude][:size]


def claim(d, seat, positions, forbidden, chained=None, ctx=CTX, nonce_key=None):
    return prove_lacks(
        ctx, d.holding(seat, positions), positions, d.final, d.position_keys, chained or {}, forbidden, nonce_key
    )


def check(d, positions, forbidden, proof, chained=None, ctx=CTX):
    return check_lacks(ctx, positions, d.final, d.position_keys, chained or {}, forbidden, proof)


def chained_for(d, seat, positions):
    proof = claim(d, seat, positions, lacking(d, positions, 1))
    return check(d, positions, lacking(d, positions, 1), proof)


# --- true claims -------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 5])
@pytest.mark.parametrize("size", [1, 4, 10])
def test_a_true_claim_is_accepted_first_and_later(n, size):
    d = dealt(n)
    for seat in range(n):
        positions = d.positions(seat)
        forbidden = lacking(d, positions, size)
        proof = claim(d, seat, positions, forbidden)
        chained = check(d, positions, forbidden, proof)
        assert sorted(chained) == positions
        later = positions[1:-1]
        assert check(d, later, forbidden, claim(d, seat, later, forbidden, chained), chained) == {}


def test_seventeen_hidden_cards_and_ten_forbidden():
    d = deal(3, 7, [17, 12, 11])
    positions = d.positions(0)
    forbidden = lacking(d, positions, 10)
    assert len(check(d, positions, forbidden, claim(d, 0, positions, forbidden, nonce_key=b"k" * 32))) == 17


def test_a_proof_survives_msgpack():
    d = dealt(3)
    positions = d.positions(0)
    forbidden = lacking(d, positions, 6)
    wire = msgpack.unpackb(msgpack.packb(claim(d, 0, positions, forbidden)), raw=False, use_list=True)
    assert sorted(check(d, positions, forbidden, wire)) == positions


# --- false claims ------------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 5])
def test_a_renege_at_any_position_is_refused(n):
    d = dealt(n)
    seat = 1
    positions = d.positions(seat)
    chained = chained_for(d, seat, positions)
    for i in positions:
        forbidden = sorted([d.cards[i], *lacking(d, positions, 3)])
        for known in ({}, chained):
            with pytest.raises(ClaimRefused):
                check(d, positions, forbidden, claim(d, seat, positions, forbidden, known), known)


@pytest.mark.parametrize("n", [3, 5])
def test_the_held_card_claimed_lacking_is_refused(n):
    """A Chiamo denial (F = {C}) by the seat that holds C."""
    d = dealt(n)
    for seat in range(n):
        positions = d.positions(seat)
        called = d.cards[random.Random(seat).choice(positions)]
        with pytest.raises(ClaimRefused):
            check(d, positions, [called], claim(d, seat, positions, [called]))


def test_a_proof_for_fewer_or_more_positions_or_cards_is_refused():
    d = dealt(3)
    positions = d.positions(0)
    forbidden = lacking(d, positions, 5)
    proof = claim(d, 0, positions, forbidden)
    chained = check(d, positions, forbidden, proof)
    variants = [
        (positions[:-1], forbidden),  # a position dropped (the one that might hold a forbidden card)
        (positions[1:], forbidden),
        (sorted([*positions, d.positions(1)[0]]), forbidden),  # one more
        (positions, forbidden[:-1]),  # a card fewer
        (positions, forbidden[1:]),
        (positions, sorted([*forbidden, lacking(d, positions, 6)[-1]])),  # one more
        (positions, lacking(d, positions, 5, exclude=forbidden[:1])),  # another card
    ]
    for ps, fs in variants:
        for known in ({}, chained):
            with pytest.raises(ClaimRefused):
                check(d, ps, fs, proof, {i: k for i, k in known.items() if i in ps})
    later = claim(d, 0, positions, forbidden, chained)
    for ps, fs in variants:
        with pytest.raises(ClaimRefused):
            check(d, ps, fs, later, chained)


def test_a_proof_in_another_context_is_refused():
    d = dealt(5)
    positions = d.positions(2)
    forbidden = lacking(d, positions, 3)
    proof = claim(d, 2, positions, forbidden)
    for ctx in (
        claim_context(b"table-0123456789", 3, 1, "act", b"trick 5"),
        claim_context(b"table-0123456789", 4, 1, "act", b"trick 4"),
        claim_context(b"table-0123456789", 3, 2, "act", b"trick 4"),
        claim_context(b"table-0123456789", 3, 1, "handover", b"trick 4"),
        claim_context(b"table-9876543210", 3, 1, "act", b"trick 4"),
    ):
        with pytest.raises(ClaimRefused):
            check(d, positions, forbidden, proof, ctx=ctx)


def test_another_seat_s_positions_are_refused():
    d = dealt(3)
    mine, theirs = d.positions(0), d.positions(1)
    forbidden = lacking(d, mine + theirs, 4)
    proof = claim(d, 0, mine, forbidden)
    with pytest.raises(ClaimRefused):  # my proof presented for the other seat's positions
        check(d, theirs, forbidden, proof)
    # claiming about another seat's positions: seat 0 knows every key there but seat 1's own,
    # which it can only guess
    rng = random.Random(3)
    fake = Holding({i: [k if j != 1 else rng.randrange(1, ORDER) for j, k in enumerate(d.keys(0, i))] for i in theirs})
    bad = prove_lacks(CTX, fake, theirs, d.final, d.position_keys, {}, forbidden)
    with pytest.raises(ClaimRefused):
        check(d, theirs, forbidden, bad)


def test_another_deck_is_refused():
    d, other = dealt(3), dealt(3, 1)
    positions = d.positions(0)
    forbidden = lacking(d, positions, 3)
    proof = claim(d, 0, positions, forbidden)
    with pytest.raises(ClaimRefused):
        check_lacks(CTX, positions, other.final, d.position_keys, {}, forbidden, proof)
    with pytest.raises(ClaimRefused):
        check_lacks(CTX, positions, d.final, other.position_keys, {}, forbidden, proof)


# --- tampering and malformed wire data ---------------------------------------------------


def tampered(proof):
    """Every (path, flipped copy) with one bit of one byte of one bytes value changed."""

    def walk(value, path):
        if isinstance(value, bytes):
            for i in range(len(value)):
                yield path + (i,), value[:i] + bytes([value[i] ^ 1]) + value[i + 1 :]
        else:
            for n, item in enumerate(value):
                yield from walk(item, path + (n,))

    for path, new in walk(proof, ()):
        yield path, _replace(proof, path[:-1], new)


def _replace(value, path, new):
    if not path:
        return new
    out = list(value)
    out[path[0]] = _replace(value[path[0]], path[1:], new)
    return out


def test_every_byte_of_a_small_proof_matters():
    d = dealt(3)
    positions = d.positions(2, 3)
    forbidden = lacking(d, positions, 2)
    proof = claim(d, 2, positions, forbidden)
    check(d, positions, forbidden, proof)
    count = 0
    for _path, bad in tampered(proof):
        with pytest.raises(ClaimRefused):
            check(d, positions, forbidden, bad)
        count += 1
    assert count == 3 * 2 * 33 + 2 * 33 + 3 * 33 + 32 * (1 + 6 + 1 + 3)


def test_a_seeded_sample_of_bytes_of_a_large_proof_matters():
    d = dealt(5)
    positions = d.positions(4)
    forbidden = lacking(d, positions, 10)
    proof = claim(d, 4, positions, forbidden)
    every = list(tampered(proof))
    for _, bad in random.Random(25).sample(every, 150):
        with pytest.raises(ClaimRefused):
            check(d, positions, forbidden, bad)


def test_malformed_wire_shapes_raise_claim_refused_and_nothing_else():
    d = dealt(3)
    positions = d.positions(0, 4)
    forbidden = lacking(d, positions, 2)
    good = claim(d, 0, positions, forbidden)
    chains, a_points, r_points, proof = good
    point = a_points[0]
    shapes = [
        None,
        0,
        b"",
        "",
        {},
        [],
        [[]],
        good[:3],
        [*good, b""],
        tuple(good[:3]),
        [None, a_points, r_points, proof],
        [chains, None, r_points, proof],
        [chains, a_points, 7, proof],
        [chains, a_points, r_points, None],
        [chains, a_points, r_points, proof.hex()],
        [chains, a_points, r_points, proof[:-1]],
        [chains, a_points, r_points, proof + b"\x00"],
        [chains, a_points, r_points, [proof]],
        [chains[:-1], a_points, r_points, proof],
        [[*chains, chains[0]], a_points, r_points, proof],
        [[c[:1] for c in chains], a_points, r_points, proof],
        [[[*c, point] for c in chains], a_points, r_points, proof],
        [chains, a_points[:1], r_points, proof],
        [chains, [*a_points, point], r_points, proof],
        [chains, a_points, r_points[1:], proof],
        [chains, [p.hex() for p in a_points], r_points, proof],
        [chains, a_points, [p[:32] for p in r_points], proof],
        [chains, a_points, [p + b"\x00" for p in r_points], proof],
        [chains, [b"\x04" + p[1:] for p in a_points], r_points, proof],
        [chains, [b"\x02" + b"\xff" * 32] * 2, r_points, proof],
        [chains, [bytes(33)] * 2, r_points, proof],
        [chains, a_points, r_points, b"\xff" * len(proof)],
        [chains, a_points, r_points, bytes(len(proof))],
        [[[1, 2]] * 4, a_points, r_points, proof],
        [[b"x" * 66] * 4, a_points, r_points, proof],
        {"chains": chains},
        [chains, a_points, r_points, bytearray(proof)],
        [chains, a_points, r_points, 10**80],
    ]
    for shape in shapes:
        with pytest.raises(ClaimRefused):
            check(d, positions, forbidden, shape)
    rng = random.Random(5)
    for _ in range(200):
        with pytest.raises(ClaimRefused):
            check(d, positions, forbidden, _mangle(good, rng))


def _mangle(value, rng):
    """The proof with one element somewhere swapped for a value of another type or length."""
    junk = [None, 0, -1, 2**300, b"", b"\x02" * 33, "text", [], [b""], {}, 1.5, True]
    if not isinstance(value, list) or not value or rng.random() < 0.3:
        return rng.choice(junk)
    out = list(value)
    n = rng.randrange(len(out))
    out[n] = _mangle(out[n], rng)
    return out if out != value else [*out, None]


# --- empty claims, misuse, secrecy -------------------------------------------------------


def test_an_empty_claim_needs_no_proof_and_takes_none():
    d = dealt(3)
    positions = d.positions(0)
    forbidden = lacking(d, positions, 3)
    holding = d.holding(0, positions)
    assert prove_lacks(CTX, holding, [], d.final, d.position_keys, {}, forbidden) == []
    assert prove_lacks(CTX, holding, positions, d.final, d.position_keys, {}, []) == []
    assert check(d, [], forbidden, []) == {}
    assert check(d, positions, [], []) == {}
    real = claim(d, 0, positions, forbidden)
    for ps, fs in (([], forbidden), (positions, [])):
        for proof in (real, [b""], [[]], None):
            with pytest.raises(ClaimRefused):
                check(d, ps, fs, proof)
    with pytest.raises(ClaimRefused):
        check(d, positions, forbidden, [])


def test_a_misuse_by_our_own_caller_is_a_local_error():
    d = dealt(3)
    positions = d.positions(0, 5)
    holding = d.holding(0, positions)
    for ps, fs in (
        (positions[::-1], [0]),
        ([*positions, positions[0]], [0]),
        (positions, [3, 1]),
        (positions, [40]),
        ([40], [0]),
    ):
        with pytest.raises(LocalProtocolError):
            prove_lacks(CTX, holding, ps, d.final, d.position_keys, {}, fs)
        with pytest.raises(LocalProtocolError):
            check(d, ps, fs, [])
    with pytest.raises(LocalProtocolError):  # a position whose keys the holding lacks
        prove_lacks(CTX, holding, d.positions(0, 6), d.final, d.position_keys, {}, [0])
    with pytest.raises(LocalProtocolError):
        check_lacks(CTX, positions, d.final, d.position_keys[:1], {}, [0], [])


def test_a_proof_carries_no_secret():
    """No key, share, combined key or opening as 32 bytes; no point of a hidden card outside F."""
    d = dealt(3)
    positions = d.positions(1)
    forbidden = lacking(d, positions, 10)
    holding = d.holding(1, positions)
    proof = prove_lacks(CTX, holding, positions, d.final, d.position_keys, {}, forbidden, nonce_key=b"k" * 32)
    blob = msgpack.packb(proof)
    for k in d.secret_scalars():
        assert k.to_bytes(32, "big") not in blob
    hidden = {d.cards[i] for i, o in enumerate(d.owner) if o >= 0} - set(forbidden)
    for c in hidden:
        assert deck.card_point(c) not in blob
    assert "keys" not in repr(holding) and str(holding.keys[positions[0]][0]) not in repr(holding)


def test_refusals_name_no_card_or_key():
    d = dealt(3)
    positions = d.positions(0)
    held = d.cards[positions[0]]
    with pytest.raises(ClaimRefused) as refused:
        check(d, positions, [held], claim(d, 0, positions, [held]))
    text = str(refused.value) + repr(refused.value)
    assert deck.card_point(held).hex() not in text and str(held) not in text.replace(str(positions), "")


def test_nonces_from_a_key_give_the_same_bytes_for_the_same_claim_only():
    d = dealt(3)
    positions = d.positions(0)
    forbidden = lacking(d, positions, 4)
    one = claim(d, 0, positions, forbidden, nonce_key=b"k" * 32)
    assert one == claim(d, 0, positions, forbidden, nonce_key=b"k" * 32)
    other = claim(d, 0, positions, forbidden, ctx=CTX + b"x", nonce_key=b"k" * 32)
    assert other[1] != one[1] and other[3][32:] != one[3][32:]
    assert claim(d, 0, positions, forbidden)[1] != claim(d, 0, positions, forbidden)[1]
