"""The learned evaluation of Briscola for two (issue 38): what its features say,
that the shipped weights load and give the same values, that training is
reproducible from a seed (and from a checkpoint), that the positions it is
trained on are valued as hard's playouts value them, and that the learned
player plays only legal moves."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from engine.bots import StateView, briscola2, normal
from engine.bots.learned import INPUTS, WEIGHTS, Position, features, load, read
from engine.bots.learned_player import make_player
from engine.bots.learned_table import Table, reward
from engine.games import make
from engine.state import CHANCE, PUBLIC, Action

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))

import train_value  # noqa: E402  (bench/train_value.py)


def test_a_hand_checked_position_is_encoded_with_the_trump_as_suit_zero():
    # Trump Spade (suit 2 of D H S C): Spade becomes suit 0, then D, H, C.
    position = Position(
        mine=(20, 2, 35),  # the ace of Spade (a trump), the 3 of Denari, the 6 of Bastoni
        other=(21, 10, 17),  # the 2 of Spade, the ace of Coppe, the Jack of Coppe
        stock=(0, 39),  # the ace of Denari, the king of Bastoni
        faceup=29,  # the king of Spade
        my_points=34,
        other_points=60,
        trump=2,
    )
    row = features(position)
    assert len(row) == INPUTS
    assert [i for i in range(40) if row[i]] == [0, 12, 35]
    assert [i for i in range(40) if row[40 + i]] == [1, 20, 27]
    assert [i for i in range(40) if row[80 + i]] == [10, 39]
    assert [i for i in range(40) if row[120 + i]] == [9]
    assert set(row[:160]) == {0.0, 1.0}
    assert row[160:] == pytest.approx([34 / 120, 60 / 120, 3 / 34])


def test_the_training_rows_are_the_players_features():
    rng = random.Random(5)
    positions = []
    for _ in range(30):
        deck = list(range(40))
        rng.shuffle(deck)
        stock = rng.randrange(0, 30)
        faceup = deck[6 + stock] if rng.random() < 0.8 else None
        positions.append(
            Position(
                tuple(deck[:3]),
                tuple(deck[3:6]),
                tuple(deck[6 : 6 + stock]),
                faceup,
                rng.randrange(60),
                7,
                rng.randrange(4),
            )
        )
    stored = np.array([train_value.codes(p) for p in positions])
    points = np.array([(p.my_points, p.other_points) for p in positions])
    rows = train_value.rows_of(stored, points)
    assert rows.tolist() == [pytest.approx(features(p)) for p in positions]
    # and the network trained in numpy values them as the pure-Python one does
    network = train_value.initial(2, [16, 8])
    assert network.shipped().values(positions) == pytest.approx(network.values(rows).tolist(), abs=1e-5)


def test_the_shipped_weights_load_and_give_the_same_values_twice():
    assert WEIGHTS.exists() and WEIGHTS.stat().st_size <= 2_000_000
    network = load()
    assert len(network.layers[0][0]) == INPUTS
    positions = [start_position(seed) for seed in range(8)]
    first, again = network.values(positions), read(WEIGHTS).values(positions)
    assert first == again
    assert all(abs(value) < 1.5 for value in first)  # a reward of about -1.1..1.1
    assert len(set(first)) > 1


def test_training_a_few_steps_from_a_seed_gives_the_same_weights_twice(tmp_path):
    data = small_data()
    once = train_value.train(data, 3, [16], epochs=2, batch=64, lr=1e-3, log=lambda _: None)
    twice = train_value.train(data, 3, [16], epochs=2, batch=64, lr=1e-3, log=lambda _: None)
    assert all(np.array_equal(a, b) for a, b in zip(train_value.flat(once), train_value.flat(twice)))
    other = train_value.train(data, 4, [16], epochs=2, batch=64, lr=1e-3, log=lambda _: None)
    assert not np.array_equal(train_value.flat(once)[0], train_value.flat(other)[0])
    # stopped after one epoch and resumed from its checkpoint: the same weights
    checkpoint = tmp_path / "checkpoint.npz"
    train_value.train(data, 3, [16], epochs=1, batch=64, lr=1e-3, checkpoint=checkpoint, log=lambda _: None)
    resumed = train_value.train(data, 3, [16], epochs=2, batch=64, lr=1e-3, checkpoint=checkpoint, log=lambda _: None)
    assert all(np.array_equal(a, b) for a, b in zip(train_value.flat(once), train_value.flat(resumed)))


def test_the_targets_are_what_hard_playouts_make_of_the_hand():
    for seed in range(6):
        state = start_state(seed)
        table = Table.of(state)
        while table.pile() > 2:
            table.play(table.normal_card())
        points = table.exact_points()
        assert points == briscola2.playout(state)[0]
        assert reward(points, 0) == -reward(points, 1)


@pytest.mark.parametrize("options", [{}, {"trump_exchange": "2"}])
def test_the_learned_player_plays_only_legal_moves(options):
    player = make_player(samples=6, fallback=normal.play)
    game = make("briscola", 2, options)
    for seed in range(3):
        deck = game.deck()
        random.Random(seed).shuffle(deck)
        deal = game.plan(seed % 2).deal(deck)
        full = game.new_hand(seed % 2, deal)
        views = [game.new_hand(seed % 2, deal.redact(s), viewer=s) for s in range(2)]
        rng = random.Random(seed)
        while not full.is_over():
            turn = full.current_player()
            if turn == CHANCE:
                action = full.chance_outcome()
                need = full.need()
            else:
                view = StateView(views[turn], turn)
                action = player(view, rng)
                assert action in view.legal
                need = None
            full.apply(action)
            for seat, view_state in enumerate(views):
                view_state.apply(seen(action, need, seat))


def seen(action: Action, need, seat: int) -> Action:
    """`action` as `seat` receives it (bench/arena.py's `seen_by`)."""
    if action.seat == CHANCE and action.cards:
        cards = tuple(c if need.audiences[i] in (seat, PUBLIC) else None for i, c in enumerate(action.cards))
        return Action(CHANCE, action.kind, cards=cards)
    return action


def start_state(seed: int):
    game = make("briscola", 2, {})
    deck = game.deck()
    random.Random(seed).shuffle(deck)
    return game.new_hand(seed % 2, game.plan(seed % 2).deal(deck))


def start_position(seed: int) -> Position:
    return Table.of(start_state(seed)).position()


def small_data() -> dict:
    cards, points, targets = [], [], []
    for number in range(12):
        kept, values = train_value.play_hand(9, number, 0.05)
        cards += [c for c, _ in kept]
        points += [p for _, p in kept]
        targets += values
    return {
        "cards": np.array(cards),
        "points": np.array(points, dtype=np.int16),
        "targets": np.array(targets, dtype=np.float32),
    }
