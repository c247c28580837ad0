"""The learned model of who holds what (research/holdings.py) and hard with it."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest

from bench import holdings_arena, train_holdings
from bench.arena import play_out
from engine.bots import hard, normal
from engine.cards import ALL_CARDS
from engine.determinize import Determinizer
from engine.games import make
from engine.state import CHANCE
from research.holdings import GAMES, HoldingsSampler, load, probabilities, sampler
from research.holdings_draw import WeightedAssignment


def views_of_a_hand(name: str, seed: int):
    """Each decision with a choice of a hand of normal at every seat: (the full state, the seat's view)."""
    game = make(name, None, {})
    rng = random.Random(seed)
    deck = game.deck()
    rng.shuffle(deck)
    deal = game.plan(seed % game.players).deal(deck)
    seen = []

    def choose(full, view):
        if len(view.legal) > 1:
            seen.append((full.clone(), view))
        return normal.play(view, rng)

    play_out(game, seed % game.players, deal, choose)
    return seen


def voids(state) -> set[tuple[int, str]]:
    """(seat, suit) for each seat that did not follow a suit led."""
    out = set()
    for trick in state.tricks:
        led = trick.cards[0].suit
        for k, card in enumerate(trick.cards):
            if card.suit != led:
                out.add(((trick.leader + k) % state.n, led))
    return out


def public(history) -> list:
    """The actions every seat sees as they were: not the chance events, not the face-down discards."""
    return [a for a in history if a.seat != CHANCE and a.kind != "discard"]


def test_the_shipped_weights_load_for_both_games():
    models = load()
    assert set(models) == set(GAMES)
    for model in models.values():
        assert math.isfinite(model.score([0.5] * len(model.layers[0][0][0])))


@pytest.mark.parametrize("name", GAMES)
def test_the_chances_are_a_distribution_over_the_places_a_card_may_be_in(name):
    shown_void = 0
    for seed in range(3):
        for _, view in views_of_a_hand(name, seed):
            state = view.state
            chances = probabilities(view)
            mine = set(state.hands[view.seat])
            assert not mine & set(chances)
            located = {c for c in ALL_CARDS if c not in chances}
            assert len(chances) + len(located) == 40
            lacks = voids(state) if name == "calabresella" else set()
            for card, by in chances.items():
                assert abs(sum(by.values()) - 1.0) < 1e-9
                assert all(0.0 <= p <= 1.0 for p in by.values())
                assert ("hand", view.seat) not in by
                for seat in range(state.n):
                    if (seat, card.suit) in lacks:
                        assert by.get(("hand", seat), 0.0) == 0.0
                        shown_void += seat != view.seat
    if name == "calabresella":
        assert shown_void > 0  # the hands above did show voids


def test_a_weighted_assignment_draws_in_proportion_to_the_weights():
    a, b, c = ALL_CARDS[:3]
    draw = WeightedAssignment([1, 2], {a: {0: 3.0, 1: 1.0}, b: {0: 1.0, 1: 1.0}, c: {1: 1.0}})
    rng = random.Random(5)
    first = [draw.sample(rng)[0] for _ in range(4000)]
    assert all(len(x) == 1 and c not in x for x in first)
    share = sum(x == [a] for x in first) / len(first)
    assert 0.70 < share < 0.80  # 3 : 1


@pytest.mark.parametrize("name", GAMES)
def test_the_sampler_draws_only_deals_the_view_allows(name):
    for k, (full, view) in enumerate(views_of_a_hand(name, 7)):
        if k % 4:
            continue
        sampler = HoldingsSampler(Determinizer(view), 1.0)
        rng = random.Random(1)
        for _ in range(5):
            state = sampler.sample(rng)
            assert public(state.history) == public(full.history)
            assert set(state.hands[view.seat]) == set(full.hands[view.seat])
            assert [len(h) for h in state.hands] == [len(h) for h in full.hands]
            assert state.tricks == full.tricks


@pytest.mark.parametrize("name", GAMES)
def test_hard_with_the_model_plays_only_legal_moves_over_whole_hands(name):
    player = hard.make_player(seconds=None, steps=1500, sampler=sampler({name: 1.0}))
    game = make(name, None, {})
    for seed in range(2):
        rng = random.Random(seed)
        deck = game.deck()
        rng.shuffle(deck)
        deal = game.plan(seed).deal(deck)

        def choose(full, view, seed=seed, rng=rng):
            action = player(view, rng) if view.seat == seed % game.players else normal.play(view, rng)
            assert action in view.legal
            return action

        assert play_out(game, seed, deal, choose).is_over()


def test_training_a_few_steps_from_a_seed_gives_the_same_weights_twice(tmp_path):
    data = train_holdings.generate("calabresella", 3, seed=4, keep=0.5)
    assert len(data["y"]) > 100
    first = train_holdings.train(data, hidden=4, epochs=1, seed=9)
    second = train_holdings.train(data, hidden=4, epochs=1, seed=9)
    for x, y in zip(first, second, strict=True):
        assert np.array_equal(x, y)
    resumed = tmp_path / "checkpoint.npz"
    train_holdings.train(data, hidden=4, epochs=1, seed=9, checkpoint=resumed)
    again = train_holdings.train(data, hidden=4, epochs=2, seed=9, checkpoint=resumed)
    straight = train_holdings.train(data, hidden=4, epochs=2, seed=9)
    for x, y in zip(again, straight, strict=True):
        assert np.array_equal(x, y)


def canned_deal(task: tuple) -> dict:
    """A deal's figures as bench/arena.py's play_deal gives them, made up from its number."""
    i = task[-1]
    return {
        **{"a_score": float(i % 3), "b_score": 1.0, "a_points": 40.0, "b_points": 20.0, "redeals": 0},
        **{"a_won": 0, "a_decided": 0, "b_won": 0, "b_decided": 0, "moves": {"a": 10, "b": 10}},
        "clock": {"a": 1.0, "b": 0.01, "a_max": 0.2, "b_max": 0.001},
    }


def test_the_holdings_arena_goes_on_after_its_last_deal_and_pairs_two_runs(tmp_path, monkeypatch):
    played = []
    monkeypatch.setattr(holdings_arena.arena, "play_deal", lambda task: played.append(task[-1]) or canned_deal(task))
    with_model, without = tmp_path / "s1.jsonl", tmp_path / "s0.jsonl"
    run = ["--game", "chiamata", "--seed", "1", "--quiet"]
    holdings_arena.main([*run, "--strength", "1", "--hands", "2", "--deals-out", str(with_model)])
    holdings_arena.main([*run, "--strength", "1", "--hands", "5", "--deals-out", str(with_model)])
    assert played == [0, 1, 2, 3, 4]  # the second run went on at deal 2
    holdings_arena.main([*run, "--strength", "0", "--hands", "3", "--deals-out", str(without)])
    without.write_text(without.read_text().replace('"a_score": 2.0', '"a_score": 0.0'))  # deal 2 went worse
    figures = holdings_arena.summary(holdings_arena.read(with_model), holdings_arena.read(without))
    assert figures["hands"] == 5 and figures["strength"] == 1.0
    assert figures["paired"]["deals"] == 3 and figures["paired"]["gain"] == pytest.approx(2 / 3)


def test_the_holdings_arena_names_a_line_that_is_not_a_deal(tmp_path):
    bad = tmp_path / "deals.jsonl"
    bad.write_text('{"meta": {"deal": 0}}\n')
    with pytest.raises(SystemExit, match="deals.jsonl:1: not a deal's line"):
        holdings_arena.main(["--summarise", str(bad)])
