"""`state.random_legal(rng)`: one legal action, each equally likely, as cheap
as the game can make it (a Calabresella discard is drawn, not enumerated).

It must only ever return an action of `legal_actions()`, and every legal
action must come up.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.games import make
from engine.state import CHANCE, Action, IllegalAction

CONFIGS = [
    ("briscola", 2, {}),
    ("briscola", 3, {}),
    ("briscola", 4, {"trump_exchange": "2"}),
    ("briscola", 6, {"black_hand": True, "trump_exchange": "7"}),
    ("briscola", 2, {"open_hands": True}),
    ("chiamata", 5, {}),
    ("chiamata", 5, {"call": "at_least"}),
    ("chiamata", 5, {"auction": "points"}),
    ("calabresella", 3, {}),
]


def new_state(game, dealer: int, rng: random.Random):
    deck = game.deck()
    rng.shuffle(deck)
    return game.new_hand(dealer, game.plan(dealer).deal(deck))


def decision_states(game, rng: random.Random, hands: int):
    """Every decision node of `hands` random playouts (played with random_legal)."""
    for hand in range(hands):
        state = new_state(game, hand % game.players, rng)
        while not state.is_over():
            if state.current_player() == CHANCE:
                state.apply(state.chance_outcome())
                continue
            yield state
            state.apply(state.random_legal(rng))


@pytest.mark.parametrize("name, players, options", CONFIGS)
def test_random_legal_is_always_a_legal_action(name, players, options):
    game = make(name, players, options)
    rng = random.Random(5)
    seen = 0
    for state in decision_states(game, rng, 40):
        action = state.random_legal(rng)
        assert action in state.legal_actions(), f"{action} in phase {state.phase}"
        state.clone().apply(action)  # and the rules take it
        seen += 1
    assert seen > 40


@pytest.mark.parametrize("name, players, options", CONFIGS)
def test_random_legal_covers_every_legal_action(name, players, options):
    """At the first decision of each phase, sampling finds every legal action
    and nothing else (the discard of 4 of 16 is checked separately)."""
    game = make(name, players, options)
    rng = random.Random(9)
    phases = set()
    for state in decision_states(game, rng, 30):
        legal = state.legal_actions()
        key = (state.phase, len(legal) > 1)
        if key in phases or len(legal) > 100:
            continue
        phases.add(key)
        sampled = {state.random_legal(rng) for _ in range(60 * len(legal))}
        assert sampled == set(legal), f"phase {state.phase}"
    assert ("play", True) in phases


def calabresella_at(contract: str, raise_: str | None, seed: int):
    """A Calabresella hand with seat 1 the soloist, up to the first discard."""
    game = make("calabresella", 3)
    state = new_state(game, 0, random.Random(seed))
    state.apply(Action(1, "bid", contract=contract))
    while state.phase == "auction":
        state.apply(Action(state.turn, "pass"))
    if raise_:
        state.apply(Action(1, "raise", choice=raise_))
    while state.phase != "discard":
        if state.current_player() == CHANCE:
            state.apply(state.chance_outcome())
        else:
            state.apply(state.legal_actions()[0])
    return state


def test_a_soloists_discard_is_drawn_uniformly_from_all_1820():
    state = calabresella_at("solo", None, 3)
    legal = state.legal_actions()
    assert len(legal) == 1820 and {a.kind for a in legal} == {"discard"}
    rng = random.Random(1)
    counts = Counter(state.random_legal(rng) for _ in range(30000))
    assert set(counts) == set(legal)
    # Uniform: about 16.5 each; no discard far more likely than another.
    assert max(counts.values()) < 45
    for action in list(counts)[:50]:
        child = state.child(action)
        assert child.hand_size(1) == 12 and child.monte == list(action.cards)


@pytest.mark.slow
@pytest.mark.parametrize("contract, raise_", [("chiamo", None), ("solissimo", "dividete"), ("solissimo", "scegliete")])
def test_every_calabresella_discard_is_sampled_and_accepted(contract, raise_):
    for seed in range(3):
        state = calabresella_at(contract, raise_, seed)
        rng = random.Random(seed)
        while state.phase == "discard":
            legal = set(state.legal_actions())
            sampled = Counter(state.random_legal(rng) for _ in range(20 * len(legal) + 200))
            if len(legal) <= 200:
                assert set(sampled) == legal
            for action in sampled:
                assert action in legal
                state.clone().apply(action)
            state.apply(rng.choice(sorted(sampled, key=str)))


def test_a_view_samples_its_own_choices_and_refuses_to_guess_others():
    game = make("calabresella", 3)
    rng = random.Random(2)
    deck = game.deck()
    rng.shuffle(deck)
    deal = game.plan(0).deal(deck)
    views = [game.new_hand(0, deal.redact(s), viewer=s) for s in range(3)]
    full = game.new_hand(0, deal)
    for action in (Action(1, "bid", contract="solo"), Action(2, "pass"), Action(0, "pass")):
        full.apply(action)
        for view in views:
            view.apply(action)
    full.apply(full.chance_outcome())
    for view in views:
        view.apply(full.history[-1])  # the monte is public
    mine = views[1]
    assert len(mine.legal_actions()) == 1820
    assert mine.random_legal(rng) in mine.legal_actions()
    # Seat 0 saw only the monte go into seat 1's hand: as in legal_actions,
    # only what it knows (those 4 cards) is offered.
    assert views[0].random_legal(rng) in views[0].legal_actions()
    briscola = make("briscola", 2)
    deal = briscola.plan(0).deal(briscola.deck())
    other = briscola.new_hand(0, deal.redact(0), viewer=0)
    assert other.current_player() == 1
    with pytest.raises(IllegalAction, match="does not know"):
        other.random_legal(rng)


def test_random_legal_at_chance_and_at_the_end():
    game = make("briscola", 2)
    rng = random.Random(4)
    state = new_state(game, 0, rng)
    state.apply(state.random_legal(rng))
    state.apply(state.random_legal(rng))
    assert state.current_player() == CHANCE
    assert state.random_legal(rng) == state.chance_outcome()
    while not state.is_over():
        state.apply(state.random_legal(rng))
    with pytest.raises(IllegalAction, match="over"):
        state.random_legal(rng)
