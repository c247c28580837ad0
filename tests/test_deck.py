"""The deck cipher: commutativity, full shuffles and deals, audits, cheats."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from protocol.coin import check_coin, coin_commit, coin_result
from protocol.deck import (
    ORDER,
    DeckError,
    SeatSecrets,
    card_of,
    card_point,
    check_commitment,
    check_distinct,
    check_reveal,
    combine,
    decrypt_deck,
    expected_share,
    inverse,
    key_share,
    mul,
    mul_many,
    open_card,
    ops_for_deal,
    replay_shuffle,
    shuffle_phase1,
    shuffle_phase2,
    start_deck,
)

scalars = st.integers(min_value=1, max_value=ORDER - 1)
cards = st.integers(min_value=0, max_value=39)


def seat_secrets(n: int, salt: int = 0) -> list[SeatSecrets]:
    """Deterministic seat secrets for reproducible tests."""
    return [SeatSecrets(bytes([salt, i]) * 16) for i in range(n)]


def shuffle(start: list[bytes], seats: list[SeatSecrets]) -> list[list[bytes]]:
    """Every published deck: phase-1 outputs in turn, then phase-2 outputs."""
    published: list[list[bytes]] = []
    deck = start
    for s in seats:
        check_distinct(deck)
        deck = shuffle_phase1(deck, s)
        published.append(deck)
    for s in seats:
        deck = shuffle_phase2(deck, s)
        published.append(deck)
    return published


# --- cipher ---------------------------------------------------------------


def test_card_points_are_distinct_and_reversible():
    xs = [card_point(i) for i in range(40)]
    assert len(set(xs)) == 40
    assert all(len(x) == 33 and x[0] == 2 for x in xs)
    assert [card_of(x) for x in xs] == list(range(40))
    assert card_of(b"\x00" * 32) is None


@pytest.mark.parametrize("bad", [-1, 40, "3", 1.0])
def test_card_point_rejects_bad_index(bad):
    with pytest.raises(ValueError):
        card_point(bad)


@settings(max_examples=25, deadline=None)
@given(scalars, scalars, cards)
def test_commutative(a, b, card):
    x = card_point(card)
    assert mul(mul(x, a), b) == mul(mul(x, b), a)


@settings(max_examples=25, deadline=None)
@given(scalars, cards)
def test_inverse_undoes(k, card):
    x = card_point(card)
    assert mul(mul(x, k), inverse(k)) == x


def test_mul_many_matches_mul():
    xs = [card_point(i) for i in range(5)]
    assert mul_many(xs, 12345) == [mul(x, 12345) for x in xs]


@pytest.mark.parametrize("bad", [0, ORDER, -5])
def test_mul_rejects_bad_scalar(bad):
    with pytest.raises(ValueError):
        mul(card_point(0), bad)


# --- seat secrets -----------------------------------------------------------


def test_repr_hides_seed():
    s = SeatSecrets(b"\xab" * 32)
    assert "ab" not in repr(s).lower()
    assert "hidden" in repr(s)


def test_seed_must_be_32_bytes():
    with pytest.raises(ValueError):
        SeatSecrets(b"short")


def test_secrets_are_deterministic_and_independent():
    a, b = SeatSecrets(b"\x01" * 32), SeatSecrets(b"\x01" * 32)
    assert a.phase1_key == b.phase1_key
    assert a.permutation(40) == b.permutation(40)
    assert key_share(a, 7) == key_share(b, 7)
    assert a.seal_key == b.seal_key and len(a.seal_public) == 33
    assert len({inverse(a.phase1_key), key_share(a, 0), key_share(a, 1)}) == 3
    c = SeatSecrets.generate()
    assert c.phase1_key != a.phase1_key


def test_key_share_undoes_the_phase2_lock_of_its_position():
    s = SeatSecrets.generate()
    locked = shuffle_phase2([mul(card_point(p), s.phase1_key) for p in range(40)], s)
    for p in range(40):
        assert mul(locked[p], key_share(s, p)) == card_point(p)
        assert expected_share(s, p) == key_share(s, p)


def test_commitment_binding():
    s = SeatSecrets(b"\x07" * 32)
    c = s.commitment(b"table-1/hand-3")
    assert check_commitment(s.seed, b"table-1/hand-3", c)
    assert not check_commitment(b"\x08" * 32, b"table-1/hand-3", c)
    assert not check_commitment(s.seed, b"table-1/hand-4", c)
    assert not check_commitment(b"", b"table-1/hand-3", c)


@pytest.mark.parametrize("n", [1, 2, 36, 39, 40])
def test_permutation_is_a_permutation(n):
    assert sorted(SeatSecrets.generate().permutation(n)) == list(range(n))


def test_permutation_looks_unbiased():
    # Where does element 0 land? 800 seeds over 8 slots: ~100 each.
    landing = Counter(SeatSecrets(i.to_bytes(32, "big")).permutation(8).index(0) for i in range(800))
    assert set(landing) == set(range(8))
    assert all(60 <= c <= 140 for c in landing.values()), landing


# --- full shuffle and deal ----------------------------------------------------


@pytest.mark.parametrize("n_players, indices", [(2, list(range(40))), (5, list(range(40))), (3, list(range(1, 40)))])
def test_full_shuffle_and_private_deal(n_players, indices):
    seats = seat_secrets(n_players)
    start = start_deck(indices)
    final = shuffle(start, seats)[-1]
    check_distinct(final)
    opened = []
    for p, x in enumerate(final):
        shares = [key_share(s, p) for s in seats]
        opened.append(open_card(x, combine(shares)))
    assert sorted(opened) == sorted(indices)
    assert opened != indices  # shuffled (probability ~1/40! otherwise)
    assert decrypt_deck(final, dict(enumerate(seats))) == opened
    assert decrypt_deck(final, seats) == opened


def test_missing_one_share_does_not_open():
    seats = seat_secrets(5)
    final = shuffle(start_deck(range(40)), seats)[-1]
    for p in range(0, 40, 7):
        for missing in range(5):
            shares = [key_share(s, p) for i, s in enumerate(seats) if i != missing]
            with pytest.raises(DeckError, match="wrong key share"):
                open_card(final[p], combine(shares))


def test_wrong_position_share_does_not_open():
    seats = seat_secrets(2)
    final = shuffle(start_deck(range(40)), seats)[-1]
    shares = [key_share(seats[0], 3), key_share(seats[1], 4)]
    with pytest.raises(DeckError):
        open_card(final[3], combine(shares))


def test_check_reveal():
    seats = seat_secrets(3)
    final = shuffle(start_deck(range(40)), seats)[-1]
    p = 11
    scalar = combine(key_share(s, p) for s in seats)
    card = open_card(final[p], scalar)
    assert check_reveal(final[p], scalar, card)
    assert not check_reveal(final[p], scalar, (card + 1) % 40)
    assert not check_reveal(final[p], scalar * 2 % ORDER, card)
    assert not check_reveal(final[p], combine(key_share(s, p + 1) for s in seats), card)
    assert not check_reveal(final[p], scalar, 40)
    assert not check_reveal(final[p], 0, card)
    assert not check_reveal(b"\x02" + b"\xff" * 32, scalar, card)  # not a point


# --- audit ------------------------------------------------------------------


def test_replay_passes_for_honest_seats():
    seats = seat_secrets(4)
    start = start_deck(range(40))
    published = shuffle(start, seats)
    steps = [(f"seat{i}", s) for i, s in enumerate(seats)]
    assert replay_shuffle(start, steps, published) == []


def test_replay_names_a_substituting_seat():
    seats = seat_secrets(3)
    start = start_deck(range(40))
    published = shuffle(start, seats)
    # Seat 1 swaps one of its phase-1 outputs for a card it locked itself:
    # the following seats process the tampered deck honestly.
    tampered = list(published[1])
    tampered[5] = mul(card_point(0), seats[1].phase1_key)
    deck = tampered
    redone = published[:1] + [tampered]
    deck = shuffle_phase1(deck, seats[2])
    redone.append(deck)
    for s in seats:
        deck = shuffle_phase2(deck, s)
        redone.append(deck)
    check_distinct(redone[-1])  # not a visible duplicate...
    with pytest.raises(DeckError):  # ...but the deck no longer opens
        decrypt_deck(redone[-1], seats)
    steps = list(enumerate(seats))
    assert replay_shuffle(start, steps, redone) == [(1, 1)]


def test_replay_names_a_phase2_cheat():
    seats = seat_secrets(2)
    start = start_deck(range(40))
    published = shuffle(start, seats)
    published[3] = list(published[3])
    published[3][0] = mul(published[3][0], 2)
    assert replay_shuffle(start, list(enumerate(seats)), published) == [(1, 2)]


def test_duplicate_is_caught_and_named():
    seats = seat_secrets(3)
    start = start_deck(range(40))
    published = shuffle(start, seats)
    dup = list(published[0])
    dup[9] = dup[2]
    with pytest.raises(DeckError):
        check_distinct(dup)
    published[0] = dup
    bad = replay_shuffle(start, list(enumerate(seats)), published)
    assert bad[0] == (0, 1)


def test_garbage_is_blamed_on_its_author_only():
    seats = seat_secrets(3)
    start = start_deck(range(40))
    published = shuffle(start, seats)
    published[1] = [b"\x02" + b"\xff" * 32] * 40  # x >= p: not curve points
    assert replay_shuffle(start, list(enumerate(seats)), published) == [(1, 1)]


def test_replay_refuses_more_decks_than_steps():
    seats = seat_secrets(2)
    with pytest.raises(ValueError):
        replay_shuffle(start_deck(range(40)), list(enumerate(seats)), [[]] * 5)


def test_replay_checks_only_the_seats_that_revealed():
    """A hand stopped by a time-out: the absent seat's steps are skipped, the others still checked."""
    seats = seat_secrets(3)
    start = start_deck(range(40))
    published = shuffle(start, seats)
    published[5] = list(reversed(published[5]))  # seat 2 cheated in phase 2
    steps = [(0, seats[0]), (1, None), (2, seats[2])]
    assert replay_shuffle(start, steps, published) == [(2, 2)]
    assert replay_shuffle(start, steps, published[:2]) == []  # stopped after two shuffles


def test_decrypt_deck_names_position_on_bad_keys():
    seats = seat_secrets(2)
    final = shuffle(start_deck(range(40)), seats)[-1]
    with pytest.raises(DeckError, match="position 0"):
        decrypt_deck(final, seats[:1])


def test_check_distinct_passes_distinct():
    check_distinct(start_deck(range(40)))
    with pytest.raises(ValueError):
        start_deck([1, 1])


# --- coin and cost model --------------------------------------------------------


def test_coin_is_deterministic_and_committed():
    values = [bytes([i]) * 32 for i in range(4)]
    assert coin_result(values, 4) == coin_result(list(values), 4)
    assert 0 <= coin_result(values, 4) < 4
    c = coin_commit(values[0], b"ctx")
    assert check_coin(values[0], b"ctx", c)
    assert not check_coin(values[1], b"ctx", c)
    assert not check_coin(values[0], b"other", c)


def test_coin_spreads():
    rng = random.Random(1)
    results = Counter(coin_result([rng.randbytes(32) for _ in range(3)], 3) for _ in range(300))
    assert set(results) == {0, 1, 2}


def test_ops_for_deal():
    assert ops_for_deal(5, 40, 40, 0) == 440
    assert ops_for_deal(2, 40, 6, 1) == 167
