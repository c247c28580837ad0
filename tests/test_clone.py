"""`state.clone()` copies every field a state has, and nothing is shared that
either copy changes: each game's class names its fields (`State.FIELDS`, and
its own), and its clone sets exactly those (engine/cloning.py `clone_function`)."""

from __future__ import annotations

import random

import pytest

from engine.games import make
from engine.state import CHANCE, TERMINAL

CONFIGS = [
    ("briscola", 2, {}),
    ("briscola", 4, {"trump_exchange": "2", "black_hand": True}),
    ("briscola", 3, {"open_hands": True}),
    ("chiamata", 5, {}),
    ("chiamata", 5, {"auction": "points"}),
    ("calabresella", 3, {}),
]
MUTABLE = (
    "hands",
    "unknown",
    "trick",
    "tricks",
    "captured",
    "won",
    "history",
    "stock",
    "passed",
    "monte",
    "discarders",
)


def named_fields(state) -> set[str]:
    return {name for klass in type(state).__mro__ for name in vars(klass).get("FIELDS", ())}


def check_clone(state) -> None:
    copy = state.clone()
    assert type(copy) is type(state)
    assert set(vars(state)) == named_fields(state), "a state field is not named in FIELDS (clone would lose it)"
    assert vars(copy) == vars(state)
    for name in MUTABLE:
        if name in vars(state):
            assert getattr(copy, name) is not getattr(state, name), name
    for mine, theirs in zip(copy.hands, state.hands):
        assert mine is not theirs


@pytest.mark.parametrize(("name", "players", "options"), CONFIGS)
def test_a_clone_has_every_field_and_shares_nothing_it_changes(name, players, options):
    game = make(name, players, options)
    rng = random.Random(5)
    for hand in range(12):
        dealer = hand % players
        deck = game.deck()
        rng.shuffle(deck)
        deal = game.plan(dealer).deal(deck)
        check_clone(game.new_hand(dealer, deal.redact(dealer), viewer=dealer))
        state = game.new_hand(dealer, deal)
        while True:
            check_clone(state)
            turn = state.current_player()
            if turn == TERMINAL:
                break
            action = state.chance_outcome() if turn == CHANCE else state.random_legal(rng)
            copy = state.clone()
            state.apply(action)
            copy.apply(action)
            assert vars(copy) == vars(state)
