"""The learned evaluation of Briscola for two (issue 38): what its features say,
that the shipped weights load and give the same values, that training is
reproducible from a seed (and from a checkpoint), that the positions it is
trained on are valued as hard's playouts value them, that the learned
player and hard with the learned value at its leaves play only legal moves,
and that the leaf is the network's value after the root card's trick (the
exact finish at the end) and gives the same move from the same seed."""

from __future__ import annotations

import random

import numpy as np
import pytest

from bench import train_value
from engine.bots import StateView, briscola2, hard, normal
from engine.bots.playout import NORMAL_PLAYOUT
from engine.bots.rewards import reward_function
from engine.games import make
from engine.state import CHANCE, PUBLIC, Action
from research.learned import INPUTS, WEIGHTS, Position, features, load, read
from research.learned_leaf import LEAF_STEPS, Leaf, LeafPlayouts, advance, applies
from research.learned_player import make_player
from research.learned_table import Table, reward


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
    play_whole_hands(make_player(samples=6, fallback=normal.play), options, range(3))


@pytest.mark.slow
@pytest.mark.parametrize("options", [{}, {"trump_exchange": "2"}, {"scoring": "game_points"}])
@pytest.mark.parametrize("tricks", [0, 1])
def test_hard_with_the_leaf_plays_only_legal_moves(options, tricks):
    player = hard.make_player(iterations=12, seconds=None, steps=None, leaf=Leaf(tricks))
    play_whole_hands(player, options, range(2))


def test_hard_with_the_leaf_gives_the_same_move_from_the_same_seed():
    player = hard.make_player(iterations=30, seconds=None, steps=None, leaf=Leaf(0))
    for seed in range(4):
        view = StateView(start_view(seed), start_state(seed).current_player())
        assert player(view, random.Random(seed)) == player(view, random.Random(seed))


def test_the_leaf_is_the_network_value_after_the_trick_and_the_exact_finish_at_the_end():
    rewards = reward_function(make("briscola", 2, {}))
    for seed in range(6):
        state = start_state(seed)
        leaf = LeafPlayouts(Leaf(0), {}, rewards)
        seat = state.current_player()
        for action in state.legal_actions():
            value, steps = leaf.value(state, action, seat)
            table = Table.of(state)
            advance(table, action.card.index, 0)
            expected = load().value(table.position())
            assert value == pytest.approx(expected if table.leader == seat else -expected)
            assert steps == 3 + LEAF_STEPS
        # two tricks from the end: after the root card's trick, the playout's exact finish
        while state.pile_left() > 4 or state.current_player() == CHANCE:
            state.apply(state.chance_outcome() if state.current_player() == CHANCE else normal_full(state))
        seat = state.current_player()
        for action in state.legal_actions():
            after = state.clone()
            after.apply(action)
            playout = rewards(after, briscola2.playout(after)[0])[seat]
            assert leaf.value(state, action, seat)[0] == pytest.approx(playout)


def test_the_leaf_is_used_only_where_the_network_applies():
    assert applies(start_state(0))
    assert not applies(make_state({"scoring": "game_points"}, 0))
    assert not applies(make_state({"trump_exchange": "2"}, 0))


def normal_full(state) -> Action:
    """The normal player's card in full `state` (the hard playouts' policy)."""
    return NORMAL_PLAYOUT(state, random.Random(0))


def play_whole_hands(player, options: dict, seeds) -> None:
    """Whole hands of Briscola for two, `player` in both seats on its own view: every move legal."""
    game = make("briscola", 2, options)
    for seed in seeds:
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
    return make_state({}, seed)


def make_state(options: dict, seed: int, viewer: int | None = None):
    game = make("briscola", 2, options)
    deck = game.deck()
    random.Random(seed).shuffle(deck)
    deal = game.plan(seed % 2).deal(deck)
    if viewer is None:
        return game.new_hand(seed % 2, deal)
    return game.new_hand(seed % 2, deal.redact(viewer), viewer=viewer)


def start_view(seed: int):
    """The first seat to play's view of `start_state(seed)`."""
    return make_state({}, seed, start_state(seed).current_player())


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


@pytest.mark.parametrize(("options", "used"), [({}, True), ({"scoring": "game_points"}, False)])
def test_the_search_values_its_playouts_by_the_leaf_where_it_applies(monkeypatch, options, used):
    calls = []
    value = LeafPlayouts.value

    def counted(self, state, action, seat):
        calls.append(action)
        return value(self, state, action, seat)

    monkeypatch.setattr(LeafPlayouts, "value", counted)
    player = hard.make_player(iterations=5, seconds=None, steps=None, leaf=Leaf(0))
    view = StateView(make_state(options, 1, start_state(1).current_player()), start_state(1).current_player())
    assert player(view, random.Random(1)) in view.legal
    assert bool(calls) == used
