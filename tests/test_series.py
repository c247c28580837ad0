"""Series: running totals, dealer rotation, redeals, end of series, winners."""

from __future__ import annotations

import random

import pytest

from engine.facts import NO_RESULT, REDEAL
from engine.games import make
from engine.replay import resolve_chance
from engine.series import Series
from engine.state import Outcome


def hand(score, redeal=False) -> Outcome:
    return Outcome(True, [], [0] * len(score), REDEAL if redeal else NO_RESULT, list(score))


def play_hand(game, dealer: int, rng: random.Random) -> Outcome:
    deck = game.deck()
    rng.shuffle(deck)
    state = game.new_hand(dealer, game.plan(dealer).deal(deck))
    while True:
        resolve_chance(state)
        if state.is_over():
            return state.outcome()
        state.apply(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name, players, length", [("chiamata", 5, 10), ("calabresella", 3, 9)])
def test_random_series_totals_and_rotation(name, players, length):
    game = make(name, players)
    rng = random.Random(11)
    series = Series(game, dealer=2)
    totals = [0] * players
    redeals = 0
    while not series.is_over():
        dealer = series.dealer
        out = play_hand(game, dealer, rng)
        series.record(out)
        if out.result.redeal:
            redeals += 1
            # Not counted; chiamata: the same dealer deals again, calabresella: the next one.
            expected = dealer if name == "chiamata" else (dealer + 1) % players
        else:
            totals = [a + b for a, b in zip(totals, out.score)]
            expected = (dealer + 1) % players
        assert series.dealer == expected
        assert series.scores == totals
        assert sum(series.scores) == 0
    assert series.hands_scored == length
    assert series.hands_played == length + redeals
    best = max(totals)
    assert series.winners() == [s for s in range(players) if totals[s] == best]


def test_chiamata_redeal_keeps_the_dealer_and_does_not_count():
    series = Series(make("chiamata", 5), dealer=3)
    series.record(hand([0] * 5, redeal=True))
    assert (series.dealer, series.hands_scored, series.hands_played) == (3, 0, 1)
    series.record(hand([4, 2, -2, -2, -2]))
    assert (series.dealer, series.hands_scored) == (4, 1)
    assert series.scores == [4, 2, -2, -2, -2]


def test_calabresella_redeal_passes_the_deal_and_does_not_count():
    series = Series(make("calabresella", 3), dealer=2)
    series.record(hand([0, 0, 0], redeal=True))
    assert (series.dealer, series.hands_scored, series.hands_played) == (0, 0, 1)
    for _ in range(8):
        series.record(hand([4, -2, -2]))
    assert not series.is_over() and series.winners() == []
    series.record(hand([-4, 2, 2]))
    assert series.is_over()
    assert series.scores == [28, -14, -14]
    assert series.winners() == [0]
    with pytest.raises(ValueError, match="over"):
        series.record(hand([4, -2, -2]))


def test_ties_share_first_place():
    series = Series(make("chiamata", 5, {"series_hands": 2}), dealer=0)
    series.record(hand([4, 2, -2, -2, -2]))
    assert series.winners() == []  # not over yet
    series.record(hand([-2, -2, -2, 4, 2]))
    assert series.is_over()
    assert series.scores == [2, 0, -4, 2, 0]
    assert series.winners() == [0, 3]
    everyone = Series(make("calabresella", 3, {"series_hands": 1}), dealer=0)
    everyone.record(hand([0, 0, 0]))  # a scored hand that moved nothing
    assert everyone.is_over() and everyone.winners() == [0, 1, 2]


def test_chiamata_series_to_a_target_score():
    series = Series(make("chiamata", 5, {"series_target": 10}), dealer=0)
    for _ in range(2):
        series.record(hand([4, 2, -2, -2, -2]))
    assert not series.is_over()  # 8 < 10, and series_hands does not end it
    series.record(hand([4, 2, -2, -2, -2]))
    assert series.is_over() and series.winners() == [0]


def test_only_finished_hands_are_recorded():
    series = Series(make("chiamata", 5), dealer=0)
    with pytest.raises(ValueError):
        series.record(Outcome(False, [], [0] * 5, NO_RESULT, None))
    with pytest.raises(ValueError):
        Series(make("chiamata", 5), dealer=5)


# --- Briscola matches ------------------------------------------------------------


def test_briscola_match_to_two_hands():
    series = Series(make("briscola", 2), dealer=1)
    series.record(hand([1, 0]))
    assert series.dealer == 0 and not series.is_over()
    series.record(hand([0, 0]))  # a 60-60 draw: nobody scores, the deal moves on
    assert series.dealer == 1 and series.hands_scored == 2 and not series.is_over()
    series.record(hand([0, 1]))
    assert not series.is_over()
    series.record(hand([1, 0]))
    assert series.is_over() and series.winners() == [0]


def test_briscola_match_option_and_teams():
    series = Series(make("briscola", 4, {"match": 3}), dealer=0)
    for _ in range(2):
        series.record(hand([0, 1, 0, 1]))
    assert not series.is_over()
    series.record(hand([0, 1, 0, 1]))
    assert series.is_over()
    assert series.side_scores() == [0, 3]
    assert series.winners() == [1, 3]  # the whole team
    six = Series(make("briscola", 6, {"match": 1}), dealer=5)
    six.record(hand([1, 0, 1, 0, 1, 0]))
    assert six.winners() == [0, 2, 4] and six.dealer == 0


def test_briscola_game_points_to_twelve():
    series = Series(make("briscola", 2, {"scoring": "game_points"}), dealer=0)
    for _ in range(3):
        series.record(hand([3, 0]))
    series.record(hand([0, 2]))
    assert series.scores == [9, 2] and not series.is_over()
    series.record(hand([2, 0]))
    assert not series.is_over()  # 11
    series.record(hand([1, 0]))
    assert series.is_over() and series.winners() == [0]


def test_briscola_three_players_tie_at_twelve_plays_on():
    series = Series(make("briscola", 3), dealer=0)
    for _ in range(5):
        series.record(hand([1, 1, 0]))
    assert series.scores == [5, 5, 0]
    for _ in range(6):
        series.record(hand([1, 1, 0]))
    assert series.scores == [11, 11, 0] and not series.is_over()
    series.record(hand([1, 1, 0]))  # both reach 12 in the same hand: an exact tie plays on
    assert series.scores == [12, 12, 0]
    assert not series.is_over() and series.winners() == []
    series.record(hand([2, 0, 0]))
    assert series.is_over() and series.winners() == [0]


def test_briscola_three_players_higher_total_wins_when_several_pass_twelve():
    series = Series(make("briscola", 3), dealer=0)
    for _ in range(11):
        series.record(hand([1, 1, 0]))
    series.record(hand([2, 1, 0]))  # 13 and 12 in the same hand
    assert series.is_over() and series.winners() == [0]


def test_briscola_match_from_real_hands():
    game = make("briscola", 2)
    rng = random.Random(2)
    series = Series(game, dealer=0)
    wins = [0, 0]
    while not series.is_over():
        out = play_hand(game, series.dealer, rng)
        if out.result.winner is not None:
            wins[out.result.winner] += 1
        series.record(out)
        assert series.scores == wins
    assert max(wins) == 2 and series.winners() == [wins.index(2)]


# --- the rules each game states (engine/games/*.py), series.py only asks ----------


def test_briscola_states_its_match_sides_and_redeal():
    two, four, three = make("briscola", 2), make("briscola", 4, {"match": 3}), make("briscola", 3)
    assert two.sides() == [[0], [1]] and four.sides() == [[0, 2], [1, 3]]
    assert make("briscola", 6).sides() == [[0, 2, 4], [1, 3, 5]]
    assert not two.REDEAL_KEEPS_DEALER
    assert two.series_over([2, 1], 3) and not two.series_over([1, 1], 9)
    assert not four.series_over([2, 1, 2, 1], 3) and four.series_over([3, 1, 3, 1], 4)
    assert not three.series_over([12, 12, 3], 20)  # an exact tie at the top plays on
    assert three.series_over([13, 12, 3], 20)
    assert make("briscola", 2, {"scoring": "game_points"}).series_over([12, 3], 5)


def test_chiamata_states_its_series_and_redeal():
    game = make("chiamata", 5)
    assert game.REDEAL_KEEPS_DEALER
    assert game.sides() == [[s] for s in range(5)]
    assert not game.series_over([40, 0, 0, 0, -40], 9) and game.series_over([0] * 5, 10)
    target = make("chiamata", 5, {"series_target": 10})
    assert not target.series_over([8, 0, 0, 0, -8], 50) and target.series_over([10, 0, 0, 0, -10], 1)


def test_calabresella_states_its_series_and_redeal():
    game = make("calabresella", 3, {"series_hands": 4})
    assert not game.REDEAL_KEEPS_DEALER
    assert game.sides() == [[0], [1], [2]]
    assert not game.series_over([100, -50, -50], 3) and game.series_over([0, 0, 0], 4)


def test_a_new_game_needs_no_change_to_series():
    """Series asks the game only: sides, series_over and REDEAL_KEEPS_DEALER."""
    from engine.game import Game

    class Pairs(Game):
        name = "pairs"
        PLAYERS = (4,)
        REDEAL_KEEPS_DEALER = True

        def teams(self):
            return [[0, 1], [2, 3]]

        def series_over(self, scores, hands_scored):
            return hands_scored >= 2

    series = Series(Pairs(4), dealer=3)
    series.record(hand([0] * 4, redeal=True))
    assert series.dealer == 3 and series.hands_scored == 0
    series.record(hand([1, 1, 0, 0]))
    assert series.dealer == 0 and not series.is_over()
    series.record(hand([0, 0, 2, 2]))
    assert series.side_scores() == [1, 2] and series.winners() == [2, 3]
