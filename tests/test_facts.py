"""A game's facts are typed (engine/facts.py, engine/games/*_facts.py): a hand's result
round-trips through the replay file's JSON exactly; what each seat's observer shows
(`State.observe`) never names a partner that seat cannot know (a seat's view holds no other
seat's hidden card: tests/test_views.py); and the rating sides are the game's (`Game.rated_sides`)."""

from __future__ import annotations

import json
import random

import pytest
from helpers.determinize import walk

from engine.cards import Card
from engine.facts import REDEAL, Role
from engine.games import make
from engine.games.briscola_facts import BriscolaObservation, BriscolaResult
from engine.games.calabresella_facts import CalabresellaObservation, CalabresellaResult
from engine.games.chiamata_facts import ChiamataObservation, ChiamataResult
from engine.replay import outcome_json
from engine.state import PUBLIC
from engine.tricks import played_by

TABLES = [("briscola", 2, {}), ("briscola", 4, {}), ("briscola", 3, {"black_hand": True}), ("chiamata", 5, {})]
TABLES += [("calabresella", 3, {})]
FINAL = {"briscola": BriscolaResult, "chiamata": ChiamataResult, "calabresella": CalabresellaResult}
OBSERVED = {"briscola": BriscolaObservation, "chiamata": ChiamataObservation, "calabresella": CalabresellaObservation}


def hands(game, seed: int, count: int):
    """`count` hands played at random from seed `seed`: each (full state, seat views, the results
    met on the way, every seat's observation at every step)."""
    rng = random.Random(seed)
    for number in range(count):
        seen, results = [], []
        for step, (full, views) in enumerate(walk(game, number % game.players, rng)):
            if step:  # (after each action)
                results.append(full.outcome().result)
                seen.append((full.clone(), [view.observe() for view in views]))
        yield full, views, seen, results


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_a_result_round_trips_through_the_replay_json(name, players, options):
    game = make(name, players, options)
    for full, views, _, results in hands(game, 7, 6):
        final = full.outcome().result
        assert isinstance(final, FINAL[name]) or final is REDEAL
        assert set(game.RESULT_KEYS) <= set(final.json()) or final.redeal
        for result in [*results, final, *(view.outcome().result for view in views)]:
            text = json.dumps(result.json())
            assert game.result_from_json(json.loads(text)) == result
        assert outcome_json(full.outcome())["result"] == final.json()


def test_the_replay_json_keeps_its_keys_in_order():
    result = ChiamataResult(1, None, "C", Card.parse("AC"), 71, 80, True, 2)
    assert list(result.json()) == [
        *("caller", "partner", "trump", "called", "target", "side_points", "success", "multiplier"),
    ]
    assert result.json()["partner"] is None and result.json()["called"] == "AC"
    assert CalabresellaResult(0, "solo", "none", 20, True, 1).json()["raise"] == "none"
    assert REDEAL.json() == {"redeal": True} and REDEAL.redeal


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_the_observer_shows_no_secret(name, players, options):
    game = make(name, players, options)
    for _, _views, seen, _ in hands(game, 11, 6):
        for full, observed in seen:
            called = full.observe().called
            holder = next((s for s in range(players) if called in full.hands[s]), None)
            played = played_by(full.tricks, full.trick, full.leader, full.n, called)
            for seat, facts in enumerate(observed):
                assert type(facts) is OBSERVED[name]
                assert facts.roles == full.roles()  # the roles every seat sees are the public ones
                if isinstance(facts, ChiamataObservation) and full.phase == "play" and played is None:
                    # Before the called card falls, only its holder knows the side.
                    assert Role.PARTNER not in {r for roles in facts.roles.values() for r in roles}
                    if seat != holder:
                        assert facts.partner is None and not facts.alone
                    elif seat == full.caller:
                        assert facts.alone and facts.partner is None
                    else:
                        assert facts.partner == seat
                if isinstance(facts, ChiamataObservation) and played is not None:
                    assert facts.partner == full.partner and facts.alone == (full.partner is None)
                if isinstance(facts, BriscolaObservation):
                    assert facts.trump == full.trump and facts.stock == max(0, len(full.stock) - full.drawn)


def test_the_spectator_never_learns_the_partner_before_the_card_falls():
    game = make("chiamata", 5, {})
    rng = random.Random(3)
    deck = game.deck()
    rng.shuffle(deck)
    deal = game.plan(0).deal(deck)
    full = game.new_hand(0, deal)
    watcher = game.new_hand(0, deal.redact(PUBLIC), viewer=PUBLIC)
    while not full.is_over():
        action = rng.choice(full.legal_actions())
        full.apply(action)
        watcher.apply(action)
        facts = watcher.observe()
        if played_by(full.tricks, full.trick, full.leader, 5, full.called) is None:
            assert facts.partner is None and not facts.alone
        else:
            assert (facts.partner, facts.alone) == (full.partner, full.partner is None)


@pytest.mark.parametrize(("name", "players", "options"), TABLES)
def test_the_rating_sides_are_the_games(name, players, options):
    game = make(name, players, options)
    for full, _, _, _ in hands(game, 5, 6):
        result = full.outcome().result
        sides = game.rated_sides(result)
        if result.redeal:
            assert sides == ()
            continue
        assert sorted(s for side in sides for s in side) == list(range(players))
        if isinstance(result, ChiamataResult):
            assert sides[0] == tuple(sorted({result.caller, result.partner} - {None}))
        if isinstance(result, CalabresellaResult):
            assert sides == ((result.soloist,), tuple(s for s in range(3) if s != result.soloist))
        if isinstance(result, BriscolaResult):
            assert sides == tuple(tuple(side) for side in game.sides())
