"""The coach (engine/bots/coach.py): hard's move and an estimate of every choice,
and the review of a hand's decisions.

- `advise` returns every legal choice with its estimate, hard's among them, in
  every game;
- a hand whose seat played every decision as the coach's hard would (the same
  seeds) reviews to nothing, and every one of its decisions was looked at;
- a deliberately bad move (a side-suit ace or 3 led, let go with a card of no
  points where a low trump takes it) is listed, with a cost of several points and
  the trick it was in;
- `seat_decisions` rebuilds the seat's views from the deal and the actions.
"""

from __future__ import annotations

import random

import pytest

from engine.bots import coach, hard
from engine.bots.playout import NORMAL_PLAYOUT
from engine.cards import BRISCOLA_POINTS
from engine.games import make
from engine.state import CHANCE
from engine.view import as_seen

SMALL = hard.make_player(iterations=40, seconds=None, steps=None)
"""A small hard player: the tests check the coach, not hard's strength."""
FAST = {"samples": 12, "budget": 4000, "player": SMALL}
CLEAR = {"samples": 48, "budget": 100_000, "player": SMALL}
"""Enough samples for a cost of about 10 points to stand clear of its standard error."""


def played_hand(game, seed: int, seat_player=None, seat: int = 0):
    """A hand from a seeded deal: `seat_player(view, i)` plays `seat`'s decisions (i counts
    its choices of more than one), the normal player the rest. (deal, actions)."""
    from engine.bots import StateView

    rng = random.Random(seed)
    deck = game.deck()
    rng.shuffle(deck)
    deal = game.plan(0).deal(deck)
    full = game.new_hand(0, deal)
    public = bool(game.options.get("open_hands"))
    view = game.new_hand(0, deal.redact(seat, public_hands=public), viewer=seat)
    actions, i = [], 0
    while not full.is_over():
        turn = full.current_player()
        if turn == CHANCE:
            outcome, need = full.chance_outcome(), full.need()
            full.apply(outcome)
            view.apply(as_seen(outcome, need, seat))
            continue
        if turn == seat and seat_player is not None and len(full.legal_actions()) > 1:
            action = seat_player(StateView(view, seat), i)
            i += 1
        else:
            action = NORMAL_PLAYOUT(full, rng)
        actions.append(action)
        full.apply(action)
        view.apply(as_seen(action, None, seat))
    return deal, actions


@pytest.mark.parametrize("name,players", [("briscola", 2), ("briscola", 4), ("chiamata", 5), ("calabresella", 3)])
def test_advice_estimates_every_legal_choice(name, players):
    game = make(name, players)
    deal, actions = played_hand(game, 3)
    decisions = coach.seat_decisions(game, 0, deal, actions, 1)
    assert decisions and all(a.seat == 1 for _, a in decisions)
    looked = 0
    for view, action in decisions:
        if view.state.phase != "play" or len(view.legal) < 2:
            continue
        assert action in view.legal  # the view rebuilt is the one the seat acted on
        advice = coach.advise(view, random.Random(1), **FAST)
        listed = {e.action for e in advice.estimates}
        assert listed == set(view.legal)
        assert advice.choice in listed and advice.samples >= coach.MIN_SAMPLES
        assert advice.of(advice.choice).se == 0.0 and advice.of(advice.choice).diff == 0.0
        for e in advice.estimates:
            assert 0.0 <= e.win <= 1.0 and e.points >= 0
        looked += 1
        if looked == 3:
            break
    assert looked == 3


@pytest.mark.slow
def test_a_hand_played_as_hard_would_reviews_to_nothing():
    game = make("briscola", 2)
    seed = 7

    def as_hard(view, i):
        return coach.advise(view, random.Random(coach.decision_seed(seed, i)), **FAST).choice

    deal, actions = played_hand(game, 5, as_hard, seat=0)
    decisions = coach.seat_decisions(game, 0, deal, actions, 0)
    seen = []
    result = coach.review(decisions, 0, seed=seed, progress=lambda i, n: seen.append((i, n)), **FAST)
    choices = sum(1 for v, _ in decisions if len(v.legal) > 1)
    assert result.findings == ()
    assert result.decisions == choices >= 15
    assert seen == [(i, choices) for i in range(1, choices + 1)]


def bad_duck_decision():
    """A decision of Briscola for two where seat 1 answers a side-suit ace or 3 holding a low
    trump and a card of no points of another suit: throwing that card lets the trick go,
    10 or 11 points and more, where the trump takes it."""
    game = make("briscola", 2)
    for seed in range(300):
        deal, actions = played_hand(game, seed)
        for view, _action in coach.seat_decisions(game, 0, deal, actions, 1):
            state = view.state
            if state.phase != "play" or len(state.trick) != 1:
                continue
            led = state.trick[0]
            if led.suit == state.trump or led.rank not in "A3":
                continue
            hand = state.hands[1]
            trumps = [c for c in hand if c.suit == state.trump and c.rank not in BRISCOLA_POINTS]
            blanks = [c for c in hand if c.rank not in BRISCOLA_POINTS and c.suit not in (state.trump, led.suit)]
            if trumps and blanks:
                bad = next(a for a in view.legal if a.card == blanks[0])
                return view, bad
    raise AssertionError("no such decision in 300 hands")


def test_a_rich_trick_let_go_is_listed_with_its_cost():
    view, bad = bad_duck_decision()
    result = coach.review([(view, bad)], 1, seed=1, **CLEAR)
    assert result.decisions == 1
    (finding,) = result.findings
    assert finding.played.action == bad and finding.best.action != bad
    assert finding.cost > 8 and finding.cost > coach.MARGIN_SE * finding.se
    assert finding.trick == len(view.state.tricks) + 1 and finding.phase == "play"


def test_the_coachs_own_choice_is_never_listed():
    view, _bad = bad_duck_decision()
    advice = coach.advise(view, random.Random(coach.decision_seed(1, 0)), **FAST)
    assert coach.review([(view, advice.choice)], 1, seed=1, **FAST).findings == ()


def test_the_review_looks_only_at_choices():
    game = make("briscola", 2)
    deal, actions = played_hand(game, 2)
    decisions = coach.seat_decisions(game, 0, deal, actions, 1)
    last = [(v, a) for v, a in decisions if len(v.legal) == 1]
    assert last  # the last trick: one card left
    assert coach.review(last, 1, **FAST).decisions == 0


@pytest.mark.slow
@pytest.mark.parametrize("name,players,seed", [("briscola", 2, 11), ("calabresella", 3, 13)])
def test_the_review_finds_what_every_decisions_full_advice_finds_and_says_each_at_once(name, players, seed):
    """The review asks hard only where a choice beats the player's by the margin on the
    advice's samples; its findings are those of the full advice at every decision (what it
    did before), and each reaches `found` as soon as it is known."""
    game = make(name, players)

    def careless(view, i):  # the first choice or the last, whatever they give away
        return view.legal[-1] if i % 2 else view.legal[0]

    deal, actions = played_hand(game, seed, careless, seat=1)
    decisions = coach.seat_decisions(game, 0, deal, actions, 1)
    listed = [(v, a) for v, a in decisions if len(v.legal) > 1]
    full = []
    for i, (view, action) in enumerate(listed):
        advice = coach.advise(view, random.Random(coach.decision_seed(4, i)), extra=(action,), **CLEAR)
        finding = coach.finding_of(i, view, action, advice)
        if finding is not None:
            full.append(finding)
    heard: list = []
    result = coach.review(decisions, 1, seed=4, found=heard.append, **CLEAR)
    assert list(result.findings) == full and full  # something to find, and the same found, in the hand's order
    clear_first = sorted(full, key=lambda f: coach.thinned(listed[f.decision - 1][0]))
    assert heard == clear_first  # each said once known: the clear losses first, then the thinned choices'


@pytest.mark.slow
def test_a_hint_short_of_time_estimates_on_fewer_deals_never_fewer_than_the_least():
    game = make("chiamata", 5)
    deal, actions = played_hand(game, 3)
    view = next(v for v, _ in coach.seat_decisions(game, 0, deal, actions, 1) if len(v.legal) > 1)
    rushed = coach.advise(view, random.Random(1), seconds=0.0, **{**FAST, "samples": 40, "budget": 10**6})
    assert rushed.samples == coach.MIN_SAMPLES  # the time was up at once: the least, still paired
    assert {e.action for e in rushed.estimates} >= {rushed.choice} and rushed.of(rushed.choice).se == 0.0
    full = coach.advise(view, random.Random(1), **{**FAST, "samples": 40, "budget": 10**6})
    assert full.samples == 40
